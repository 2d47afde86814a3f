//! Reconstruction over the whole slider grid (SPEC §6), and fixed windows against a reference.

use crate::corpus::{prepared, PreparedDoc};
use crate::no_hang;
use chunk_core::reconstruct::check_reconstruction;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::sweep::{OVERLAP_SLIDER, SIZE_SLIDER};
use chunk_core::sim::Strategy;

/// Fixed windows written independently of `chunk_core::windows`: each window starts `overlap`
/// tokens before the previous one ended, until a window reaches the end.
pub fn reference_fixed(n: usize, size: usize, overlap: usize) -> Vec<(usize, usize)> {
    let overlap = if overlap >= size { size - 1 } else { overlap };
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let mut start = 0;
    loop {
        let end = (start + size).min(n);
        out.push((start, end));
        if end == n {
            break;
        }
        start = end - overlap;
    }
    out
}

/// Checks one configuration; `Err` describes the first violation.
pub fn check(
    pd: &PreparedDoc,
    strategy: Strategy,
    size: usize,
    overlap: usize,
) -> Result<(), String> {
    let ctx = format!(
        "{} [{} {:?} {:?}] size {size} overlap {overlap}",
        pd.name,
        pd.tokenizer.name(),
        pd.rule,
        strategy
    );
    let p = &pd.prepared;
    let c = p
        .chunk(strategy, size, overlap)
        .map_err(|e| format!("{ctx}: {e}"))?;
    let m = p.metrics(pd.text, &c);
    let spans: Vec<(usize, usize)> = c.chunks.iter().map(|w| (w.start, w.end)).collect();

    let total =
        check_reconstruction(p.n_tokens(), &spans).map_err(|e| format!("{ctx}: tokens: {e}"))?;
    if total != m.total_tokens || m.multiplicity.iter().map(|&k| k as usize).sum::<usize>() != total
    {
        return Err(format!(
            "{ctx}: reconstruction total {total} ≠ metrics total {}",
            m.total_tokens
        ));
    }

    let bytes = p.chunk_byte_spans(&c);
    let covered = p.covered_bytes();
    if bytes.len() != spans.len() || (covered == 0 && !pd.text.trim().is_empty()) {
        return Err(format!("{ctx}: byte spans do not match the chunks"));
    }
    let byte_total =
        check_reconstruction(covered, &bytes).map_err(|e| format!("{ctx}: bytes: {e}"))?;
    if m.measured_overlaps.iter().all(|&o| o == 0) && byte_total != covered {
        return Err(format!(
            "{ctx}: {byte_total} bytes in chunks without overlap, text has {covered}"
        ));
    }

    if c.overlap_clamped != (overlap >= size) || c.chunk_overlap >= size {
        return Err(format!(
            "{ctx}: overlap {} (clamped: {})",
            c.chunk_overlap, c.overlap_clamped
        ));
    }
    if let Some(i) =
        (0..spans.len()).find(|&i| (spans[i].1 - spans[i].0 > size) != c.oversize.contains(&i))
    {
        return Err(format!("{ctx}: chunk {i} oversize flag wrong"));
    }
    if let Some(o) = m.measured_overlaps.iter().find(|&&o| o > c.chunk_overlap) {
        return Err(format!("{ctx}: measured overlap {o} > {}", c.chunk_overlap));
    }
    match strategy {
        Strategy::Fixed => {
            let want = reference_fixed(p.n_tokens(), size, overlap);
            if spans != want {
                return Err(format!(
                    "{ctx}: fixed windows {spans:?} ≠ reference {want:?}"
                ));
            }
        }
        Strategy::Sentence => {
            let on_boundary =
                |t: usize| t == p.n_tokens() || p.sentences.iter().any(|s| s.start == t);
            if let Some(w) = c
                .chunks
                .iter()
                .find(|w| !on_boundary(w.start) || !on_boundary(w.end))
            {
                return Err(format!("{ctx}: chunk {w:?} cuts a sentence"));
            }
            if let Some(&i) = c
                .oversize
                .iter()
                .find(|&&i| !p.sentences.contains(&c.chunks[i]))
            {
                return Err(format!(
                    "{ctx}: oversize chunk {i} is not one whole sentence"
                ));
            }
            if !m.split_sentences.is_empty() {
                return Err(format!(
                    "{ctx}: sentence packing split {:?}",
                    m.split_sentences
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn every_strategy_document_size_and_overlap_rebuilds_the_document() {
    no_hang::ensure();
    let mut failures = Vec::new();
    let mut configs = 0;
    for pd in prepared() {
        for strategy in Strategy::ALL {
            // Fixed windows do not read sentences: sweep them under one rule only.
            if strategy == Strategy::Fixed && pd.rule != SentenceRule::Terminators {
                continue;
            }
            for size in SIZE_SLIDER.values() {
                for overlap in OVERLAP_SLIDER.values() {
                    configs += 1;
                    if let Err(e) = check(pd, strategy, size, overlap) {
                        failures.push(e);
                    }
                }
            }
        }
    }
    // 22 documents × 2 tokenizers × (1 fixed + 4 sentence rules) × 31 sizes × 11 overlaps.
    assert_eq!(configs, 22 * 2 * 5 * 31 * 11);
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn sentences_tile_the_text_and_the_tokens() {
    no_hang::ensure();
    for pd in prepared() {
        let p = &pd.prepared;
        let ctx = format!("{} [{} {:?}]", pd.name, pd.tokenizer.name(), pd.rule);
        assert_eq!(
            check_reconstruction(pd.text.len(), &p.sentence_bytes),
            Ok(pd.text.len()),
            "{ctx}"
        );
        let ranges: Vec<(usize, usize)> = p.sentences.iter().map(|w| (w.start, w.end)).collect();
        assert_eq!(
            check_reconstruction(p.n_tokens(), &ranges),
            Ok(p.n_tokens()),
            "{ctx}"
        );
    }
}

#[test]
fn reference_fixed_agrees_with_the_spec_examples() {
    no_hang::ensure();
    assert_eq!(reference_fixed(10, 8, 4), vec![(0, 8), (4, 10)]);
    assert_eq!(reference_fixed(6, 8, 4), vec![(0, 6)]);
    assert_eq!(reference_fixed(0, 8, 4), vec![]);
    assert_eq!(reference_fixed(11, 2, 2).len(), 10);
    let w = reference_fixed(10_000, 512, 64);
    assert_eq!((w.len(), w[22]), (23, (9856, 10_000)));
}
