//! Every SPEC §4 figure of the default document in each language, and the presets.

use crate::figures::spec_figures;
use crate::no_hang;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::documents::{default_document, default_query, Preset};
use chunk_core::sim::metrics::split_sentences;
use chunk_core::sim::sweep::{bloat_by_overlap, split_by_size};
use chunk_core::sim::{coverage, keywords, Prepared, Strategy, TokenizerChoice};
use chunk_core::windows::Window;
use chunk_core::Lang;

fn simple(text: &str) -> Prepared {
    Prepared::new(text, TokenizerChoice::Simple, SentenceRule::Terminators)
}

fn lens(ws: &[Window]) -> Vec<usize> {
    ws.iter().map(|w| w.len()).collect()
}

#[test]
fn every_language_reproduces_every_spec_figure() {
    no_hang::ensure();
    for lang in Lang::ALL {
        let figures = spec_figures(default_document(lang), default_query(lang), lang);
        assert_eq!(figures.len(), 31);
        let wrong: Vec<String> = figures
            .iter()
            .filter(|f| !f.holds())
            .map(|f| format!("{}: expected {}, got {}", f.name, f.expected, f.actual))
            .collect();
        assert!(wrong.is_empty(), "{}: {wrong:#?}", lang.code());
    }
}

#[test]
fn vietnamese_coverage_table_and_sweeps() {
    no_hang::ensure();
    let text = default_document(Lang::Vi);
    let p = simple(text);
    let kw = keywords(default_query(Lang::Vi), Lang::Vi);
    assert_eq!(kw, ["dải", "nhiệt", "độ", "xv40"]);
    let c = p.chunk(Strategy::Fixed, 60, 0).expect("size ≥ 1");
    let cov = coverage(text, &p.tokens, &c.chunks, &kw);
    // Chunk 0 has the name and "nhiệt độ" of the first sentence; chunk 1 the name of the answer
    // sentence only; chunk 2 the range without the name; chunk 3 the name in the sentence on
    // reading the data; chunk 4 none.
    assert_eq!(cov.counts, vec![3, 1, 3, 1, 0]);
    assert_eq!(cov.held[2], vec![true, true, true, false]);

    let by_size = split_by_size(&p, Strategy::Fixed, 0).expect("slider sizes ≥ 1");
    for (size, split) in [(55, 2), (60, 4), (110, 1), (115, 2)] {
        assert!(by_size.contains(&(size, split)), "size {size}");
    }
    // Not monotonic in the size.
    assert!(by_size.windows(2).any(|w| w[1].1 > w[0].1));
    assert!(by_size.windows(2).any(|w| w[1].1 < w[0].1));
    let bloat = bloat_by_overlap(&p, Strategy::Fixed, 60).expect("size ≥ 1");
    let at = |o: usize| {
        bloat
            .iter()
            .find(|b| b.0 == o)
            .and_then(|b| b.1)
            .map(|b| format!("{b:.2}"))
    };
    assert_eq!(
        (at(0), at(5), at(20)),
        (
            Some("1.00".into()),
            Some("1.07".into()),
            Some("1.45".into())
        )
    );
    assert_eq!(bloat.len(), 11);
}

#[test]
fn uneven_sentences_preset() {
    no_hang::ensure();
    for lang in [Lang::En, Lang::Vi] {
        let text = Preset::UnevenSentences.text(lang);
        let p = simple(text);
        assert_eq!(lens(&p.sentences), vec![19, 72, 18, 49], "{}", lang.code());
        let c = p.chunk(Strategy::Sentence, 60, 0).expect("size ≥ 1");
        assert_eq!(lens(&c.chunks), vec![19, 72, 18, 49]);
        assert_eq!(c.oversize, vec![1]);
        let c = p.chunk(Strategy::Fixed, 60, 0).expect("size ≥ 1");
        assert_eq!(lens(&c.chunks), vec![60, 60, 38]);
        assert_eq!(split_sentences(&p.sentences, &c.chunks), vec![1, 3]);
    }
}

#[test]
fn one_sentence_preset() {
    no_hang::ensure();
    for lang in [Lang::En, Lang::Vi] {
        let text = Preset::OneSentence.text(lang);
        let p = simple(text);
        assert_eq!(
            (p.n_tokens(), p.sentences.len()),
            (44, 1),
            "{}",
            lang.code()
        );
        let c = p.chunk(Strategy::Sentence, 10, 0).expect("size ≥ 1");
        assert_eq!(lens(&c.chunks), vec![44]);
        assert_eq!(c.oversize, vec![0]);
    }
}
