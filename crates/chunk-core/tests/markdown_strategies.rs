//! The product's markdown strategies (`markdown`, `section-budget`) against a second,
//! independent implementation of their packing written here: plain loops, every count a fresh
//! `Length::count` of exactly the chunk's text (no re-use of unit counts), slow on purpose.
//! Both read the same sections and blocks (`chunk_core::segment::markdown`, unit-tested against
//! written-out values) and hand the same oversize blocks to the same recursive splitter; what is
//! compared is every rule above and below that: merging, budget checks with the joiner and the
//! prefix, overlap, token windows, heading paths, prefix flags and reasons.
//!
//! Every case is also checked for reconstruction (`chunk_core::reconstruct`), the strategy's
//! `Keeps` statement (the differential harness's checker) and the budget: no chunk oversize,
//! and a chunk that shows its prefix is within the budget with it.

#[path = "differential/keeps.rs"]
mod keeps;

use chunk_core::reconstruct::check_reconstruction;
use chunk_core::segment::markdown::{sections, Section};
use chunk_core::strategy::length::Length;
use chunk_core::strategy::{
    run, Boundary, Chunker, HeadingPrefix, Keeps, MarkdownStructure, Piece, Recursive,
    SectionBudget, Settings, SizeUnit, StrategyError,
};
use chunk_core::tokenizer::Encoding;
use chunk_core::tokenizer::TokenCounter;
use std::ops::Range;

const SIZES: [usize; 5] = [8, 24, 64, 200, 512];

fn overlaps(size: usize) -> [usize; 3] {
    [0, size * 12 / 100, size / 4]
}

fn documents() -> Vec<(&'static str, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |p: &str| {
        std::fs::read_to_string(format!("{root}/{p}")).unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let guide = read("tests/differential/corpus/guide.md");
    let e13 = "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n## Usage\nRun it.";
    vec![
        ("guide-crlf.md", guide.replace('\n', "\r\n")),
        ("guide.md", guide),
        ("gate_markdown.txt", read("docs/gate_markdown.txt")),
        ("e13-tilde", e13.to_string()),
        ("e13-backtick", e13.replace("~~~", "```")),
        ("e07", "red  blue  green  gold  pink  grey".to_string()),
        ("e12", format!("Prefix {} suffix", "x".repeat(300))),
        ("e16", "猫".repeat(200)),
        // o200k puts "'s" with the letters before it; a window that starts at "'s" re-encodes
        // to more tokens than it held in place, so windows must be re-counted.
        ("contractions", "Bob'sthe dog'sbone ".repeat(60)),
        (
            "special",
            "# Docs\n\nDocs end with <|endoftext|> here.\n\n   ## Indented\n\n/path\n\n\u{3000}wide\n"
                .to_string(),
        ),
        // Seams where BPE is not additive (o200k merges "/" after punctuation and line
        // endings into one piece): the re-use of unit counts must not apply there.
        (
            "slashes",
            (0..60)
                .map(|i| {
                    let head = if i % 15 == 0 { format!("## Part {i}.\n\n") } else { String::new() };
                    format!("{head}Step {i} done.\n\n//c {i}.\n\n/ x {i}.\n\n")
                })
                .collect(),
        ),
        // A long run without whitespace: windows cut inside it (the corpus's long-run.txt).
        (
            "long-run",
            format!(
                "# Key\n\nThe key is {} and it ends here.\n\nNext paragraph.",
                (0..6000u32)
                    .map(|i| char::from(
                        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                            [(i * 7 % 64) as usize]
                    ))
                    .collect::<String>()
            ),
        ),
        ("blank", "\n\n \n".to_string()),
        ("empty", String::new()),
    ]
}

// ---------------------------------------------------------------------------------------------
// The second implementation.

/// The text of a chunk under `path` with the heading prefix `mode`: `(text, shown, flagged)`.
fn with_prefix(
    slice: &str,
    path: &[String],
    mode: HeadingPrefix,
    size: usize,
    len: Length,
) -> (String, bool, bool) {
    let head = match (mode, path.last()) {
        (HeadingPrefix::Path, Some(_)) => path.join(" > "),
        (HeadingPrefix::Title, Some(last)) => last.clone(),
        _ => return (slice.to_string(), false, false),
    };
    let prefix = format!("{head}\n\n");
    if len.count(&prefix) >= size {
        return (slice.to_string(), false, true);
    }
    (format!("{prefix}{slice}"), true, false)
}

/// `(start units, end units)` of each chunk, or the index of a unit too large alone: the rule
/// written as "grow while it fits; repeat the longest trailing run within the overlap, trimmed
/// until the next unit fits".
#[derive(Debug)]
enum Step {
    Chunk(usize, usize),
    Alone(usize),
}

fn greedy(
    n: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    within_overlap: &dyn Fn(usize, usize) -> bool,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut i = 0;
    let mut repeated_to: Option<usize> = None; // end of the repeated units, when overlapping
    while i < n {
        let mut j = match repeated_to {
            Some(e) => e + 1, // the repeated units and the next one are known to fit
            None => {
                if !fits(i, i + 1) {
                    steps.push(Step::Alone(i));
                    i += 1;
                    continue;
                }
                i + 1
            }
        };
        while j < n && fits(i, j + 1) {
            j += 1;
        }
        steps.push(Step::Chunk(i, j));
        repeated_to = None;
        if j == n {
            break;
        }
        // Trailing runs [k, j) within the overlap, from the shortest up, never unit i.
        let mut runs = Vec::new();
        for k in (i + 1..j).rev() {
            if !within_overlap(k, j) {
                break;
            }
            runs.push(k);
        }
        // The longest that still lets unit j fit.
        let chosen = runs.iter().rev().copied().find(|&k| fits(k, j + 1));
        match chosen {
            Some(k) => {
                i = k;
                repeated_to = Some(j);
            }
            None => i = j,
        }
    }
    steps
}

/// Token windows over `text[unit]`: cut points are the unit's own token boundaries on char
/// boundaries, each with a raw place (the boundary) and a moved place (after the whitespace
/// that follows it; the first token's when two move onto one byte). A window takes the
/// furthest cut within `size` tokens whose moved place fits by true count, else whose raw place
/// does, else the next cut.
fn windows(
    text: &str,
    unit: Range<usize>,
    len: Length,
    size: usize,
    overlap: usize,
) -> Vec<Range<usize>> {
    let u = &text[unit.clone()];
    let mut out = Vec::new();
    if u.is_empty() {
        return out;
    }
    let offsets = len.boundaries(u);
    // (token index, raw byte, moved byte) of each cut point.
    let mut cuts: Vec<(usize, usize, usize)> = Vec::new();
    for (t, &b) in offsets.iter().enumerate() {
        if !u.is_char_boundary(b) {
            continue;
        }
        let mut m = b;
        while t > 0 && u[m..].starts_with(char::is_whitespace) {
            m += u[m..].chars().next().map_or(0, char::len_utf8);
        }
        // Never before a closing mark right after text.
        let closing = ['.', ',', ';', ':', '!', '?', ')', ']', '}', '»', '”', '’'];
        let after_text = u[..m]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace() && !closing.contains(&c));
        if t > 0 && m < u.len() && u[m..].starts_with(closing) && after_text {
            continue;
        }
        if cuts.iter().all(|c| c.2 != m) {
            cuts.push((t, b, m));
        }
    }
    let last = cuts.len() - 1;
    // (end cut, end byte) of the window from byte `st`, a place of cut `a`.
    let end_from = |a: usize, st: usize| -> (usize, usize) {
        if a == last {
            return (a, cuts[a].2);
        }
        let mut within: Vec<usize> = (a + 1..cuts.len())
            .filter(|&k| cuts[k].0 <= cuts[a].0 + size)
            .collect();
        if within.is_empty() {
            within.push(a + 1);
        }
        let fits = |e: usize| e > st && len.count(&u[st..e]) <= size;
        let moved = within.iter().rev().copied().find(|&k| fits(cuts[k].2));
        let raw = within.iter().rev().copied().find(|&k| fits(cuts[k].1));
        match (moved, raw) {
            (Some(k), _) => (k, cuts[k].2),
            (None, Some(k)) => (k, cuts[k].1),
            (None, None) => (a + 1, cuts[a + 1].1),
        }
    };
    let (mut a, mut st) = (0, 0);
    let (mut b, mut end) = end_from(a, st);
    loop {
        out.push(unit.start + st..unit.start + end);
        if end == u.len() {
            return out;
        }
        let mut next = None;
        if overlap > 0 {
            // The earliest cut point no more than `overlap` tokens before the end.
            let back = cuts.iter().position(|c| c.0 + overlap >= cuts[b].0);
            if let Some(c) = back {
                if c > a && c < b && cuts[c].2 < end {
                    let (e, e_at) = end_from(c, cuts[c].2);
                    if e_at > end {
                        next = Some((c, cuts[c].2, e, e_at));
                    }
                }
            }
        }
        (a, st, b, end) = next.unwrap_or_else(|| {
            let (e, e_at) = end_from(b, end);
            (b, end, e, e_at)
        });
    }
}

/// Why a chunk of `text` ends at `end`.
fn reason(sections: &[Section], len: usize, end: usize, inner: Boundary) -> Boundary {
    if end == len {
        Boundary::EndOfText
    } else if sections.iter().any(|s| s.bytes.start == end) {
        Boundary::Section
    } else if sections.iter().any(|s| s.blocks.contains(&end)) {
        Boundary::Paragraph
    } else {
        inner
    }
}

/// Headings all of `paths` are under.
fn common(paths: &[&Vec<String>]) -> Vec<String> {
    let mut out = Vec::new();
    for (d, h) in paths[0].iter().enumerate() {
        if paths.iter().all(|p| p.get(d) == Some(h)) {
            out.push(h.clone());
        } else {
            break;
        }
    }
    out
}

fn second_section_budget(text: &str, s: &Settings) -> Vec<Piece> {
    let len = s.length();
    let size = s.chunk_size;
    let overlap = s.chunk_overlap.min(size - 1);
    let secs = sections(text);
    let mut units: Vec<(Range<usize>, usize)> = Vec::new(); // (bytes, section)
    for (k, sec) in secs.iter().enumerate() {
        for b in sec.block_ranges() {
            units.push((b, k));
        }
    }
    let span = |i: usize, j: usize| units[i].0.start..units[j - 1].0.end;
    let fits = |i: usize, j: usize| len.count(&text[span(i, j)]) <= size;
    let within = |i: usize, j: usize| len.count(&text[span(i, j)]) <= overlap;
    let mut out = Vec::new();
    for step in greedy(units.len(), &fits, &within) {
        match step {
            Step::Chunk(i, j) => {
                let bytes = span(i, j);
                let paths: Vec<&Vec<String>> =
                    units[i..j].iter().map(|u| &secs[u.1].path).collect();
                out.push(Piece {
                    reason: reason(&secs, text.len(), bytes.end, Boundary::SizeLimit),
                    heading_path: common(&paths),
                    ..Piece::slice(bytes, Boundary::SizeLimit)
                });
            }
            Step::Alone(k) => {
                for w in windows(text, units[k].0.clone(), len, size, overlap) {
                    out.push(Piece {
                        reason: reason(&secs, text.len(), w.end, Boundary::SizeLimit),
                        heading_path: secs[units[k].1].path.clone(),
                        ..Piece::slice(w, Boundary::SizeLimit)
                    });
                }
            }
        }
    }
    out
}

fn second_markdown(text: &str, s: &Settings, prefix_on: HeadingPrefix) -> Vec<Piece> {
    let len = s.length();
    let size = s.chunk_size;
    let overlap = s.chunk_overlap.min(size - 1);
    let secs = sections(text);
    let piece = |bytes: Range<usize>, path: Vec<String>, inner: Boundary| -> Piece {
        let (own, shown, flagged) = with_prefix(&text[bytes.clone()], &path, prefix_on, size, len);
        Piece {
            text: shown.then_some(own),
            reason: reason(&secs, text.len(), bytes.end, inner),
            heading_path: path,
            prefix_over_budget: flagged,
            code_info: None,
            bytes,
        }
    };
    let sec_span = |i: usize, j: usize| secs[i].bytes.start..secs[j - 1].bytes.end;
    let sec_path = |i: usize, j: usize| {
        let paths: Vec<&Vec<String>> = secs[i..j].iter().map(|s| &s.path).collect();
        common(&paths)
    };
    let fits = |i: usize, j: usize| {
        let (t, _, _) = with_prefix(&text[sec_span(i, j)], &sec_path(i, j), prefix_on, size, len);
        len.count(&t) <= size
    };
    let mut out = Vec::new();
    for step in greedy(secs.len(), &fits, &|_, _| false) {
        match step {
            Step::Chunk(i, j) => out.push(piece(sec_span(i, j), sec_path(i, j), Boundary::Section)),
            Step::Alone(k) => {
                let sec = &secs[k];
                let blocks: Vec<Range<usize>> = sec.block_ranges().collect();
                let span = |i: usize, j: usize| blocks[i].start..blocks[j - 1].end;
                let fits = |i: usize, j: usize| {
                    let (t, _, _) = with_prefix(&text[span(i, j)], &sec.path, prefix_on, size, len);
                    len.count(&t) <= size
                };
                let within = |i: usize, j: usize| len.count(&text[span(i, j)]) <= overlap;
                for step in greedy(blocks.len(), &fits, &within) {
                    match step {
                        Step::Chunk(i, j) => {
                            out.push(piece(span(i, j), sec.path.clone(), Boundary::Paragraph))
                        }
                        Step::Alone(b) => {
                            let block = blocks[b].clone();
                            let (_, shown, _) = with_prefix("", &sec.path, prefix_on, size, len);
                            let room = if shown {
                                let (t, _, _) = with_prefix("", &sec.path, prefix_on, size, len);
                                size - len.count(&t)
                            } else {
                                size
                            };
                            let inner = Recursive::new(&Settings {
                                chunk_size: room,
                                chunk_overlap: overlap.min(room - 1),
                                ..*s
                            })
                            .expect("valid settings");
                            for p in inner.split(&text[block.clone()]).expect("splits") {
                                let bytes = block.start + p.bytes.start..block.start + p.bytes.end;
                                let mut q = piece(bytes, sec.path.clone(), p.reason);
                                q.code_info = p.code_info;
                                if let Some(t) = &q.text {
                                    if len.count(t) > size {
                                        q.text = None;
                                        q.prefix_over_budget = true;
                                    }
                                }
                                out.push(q);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Runs `chunker` and checks it against `expected` and the invariants; `Err` says how not.
fn check(
    chunker: &dyn Chunker,
    keeps: Keeps,
    text: &str,
    s: &Settings,
    expected: Vec<Piece>,
) -> Result<usize, String> {
    let pieces = chunker.split(text).map_err(|e| format!("refused: {e}"))?;
    if pieces != expected {
        let i = pieces
            .iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .unwrap_or(pieces.len().min(expected.len()));
        return Err(format!(
            "{} pieces, second implementation {}; first difference at {i}:\n  ours   {:?}\n  second {:?}",
            pieces.len(),
            expected.len(),
            pieces.get(i),
            expected.get(i)
        ));
    }
    let chunks = run(chunker, text, s.encoding).map_err(|e| format!("run refused: {e}"))?;
    let spans: Vec<(usize, usize)> = chunks
        .chunks
        .iter()
        .map(|c| (c.bytes.start, c.bytes.end))
        .collect();
    check_reconstruction(text.len(), &spans).map_err(|e| format!("reconstruction: {e}"))?;
    keeps::check(keeps, text, &chunks).map_err(|e| format!("keeps {keeps:?}: {e}"))?;
    for (i, c) in chunks.chunks.iter().enumerate() {
        // One character longer than the budget cannot be cut (E16 at tiny sizes).
        let uncuttable = c.text.is_none() && text[c.bytes.clone()].chars().count() == 1;
        if c.flags.oversize && !uncuttable {
            return Err(format!(
                "chunk {i} is {} long, over {}",
                c.length, s.chunk_size
            ));
        }
    }
    Ok(chunks.chunks.len())
}

fn describe(name: &str, doc: &str, s: &Settings, extra: &str) -> String {
    format!(
        "{name} on {doc}: size {} overlap {} {:?} {}{extra}",
        s.chunk_size, s.chunk_overlap, s.unit, s.encoding
    )
}

fn grid(units: &[SizeUnit]) -> Vec<Settings> {
    let mut out = Vec::new();
    for &unit in units {
        let encodings: &[Encoding] = match unit {
            SizeUnit::Tokens => &Encoding::ALL,
            SizeUnit::Characters | SizeUnit::Model(_) => &[Encoding::Cl100kBase],
        };
        for &encoding in encodings {
            for size in SIZES {
                for chunk_overlap in overlaps(size) {
                    out.push(Settings {
                        chunk_size: size,
                        chunk_overlap,
                        unit,
                        encoding,
                    });
                }
            }
        }
    }
    out
}

#[test]
fn section_budget_equals_the_second_implementation() {
    let mut failures = Vec::new();
    let (mut cases, mut chunks) = (0, 0);
    for (doc, text) in documents() {
        for s in grid(&[SizeUnit::Tokens]) {
            let c = SectionBudget::new(&s).expect("valid");
            cases += 1;
            match check(
                &c,
                Keeps::Everything,
                &text,
                &s,
                second_section_budget(&text, &s),
            ) {
                Ok(n) => chunks += n,
                Err(e) => {
                    failures.push(format!("{}: {e}", describe("section-budget", doc, &s, "")))
                }
            }
        }
    }
    eprintln!(
        "section-budget: {cases} settings, {chunks} chunks equal, {} differ",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn markdown_equals_the_second_implementation() {
    let mut failures = Vec::new();
    let (mut cases, mut chunks, mut refused) = (0, 0, 0);
    for (doc, text) in documents() {
        for s in grid(&[SizeUnit::Tokens, SizeUnit::Characters]) {
            for prefix in [
                HeadingPrefix::Off,
                HeadingPrefix::Path,
                HeadingPrefix::Title,
            ] {
                let c = MarkdownStructure {
                    heading_prefix: prefix,
                    ..MarkdownStructure::new(&s).expect("valid")
                };
                cases += 1;
                let expected = second_markdown(&text, &s, prefix);
                // No chunk under a heading can carry its prefix: refused.
                let headed: Vec<&Piece> = expected
                    .iter()
                    .filter(|p| !p.heading_path.is_empty())
                    .collect();
                if !headed.is_empty() && headed.iter().all(|p| p.prefix_over_budget) {
                    match c.split(&text) {
                        Err(StrategyError::PrefixOverBudget { chunk_size, .. })
                            if chunk_size == s.chunk_size =>
                        {
                            refused += 1;
                            continue;
                        }
                        other => {
                            failures.push(format!(
                                "{}: expected the prefix refusal, got {other:?}",
                                describe("markdown", doc, &s, prefix.as_str())
                            ));
                            continue;
                        }
                    }
                }
                match check(&c, c.keeps(), &text, &s, expected) {
                    Ok(n) => chunks += n,
                    Err(e) => failures.push(format!(
                        "{}: {e}",
                        describe("markdown", doc, &s, prefix.as_str())
                    )),
                }
            }
        }
    }
    eprintln!(
        "markdown: {cases} settings ({refused} refused alike), {chunks} chunks equal, {} differ",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_comparison_can_fail() {
    // The checker sees a wrong chunking: the second implementation at another size.
    let text = &documents()[1].1;
    let s = Settings {
        chunk_size: 64,
        chunk_overlap: 0,
        unit: SizeUnit::Tokens,
        encoding: Encoding::Cl100kBase,
    };
    let other = Settings {
        chunk_size: 65,
        ..s
    };
    let c = SectionBudget::new(&s).expect("valid");
    let wrong = second_section_budget(text, &other);
    assert!(check(&c, Keeps::Everything, text, &s, wrong).is_err());
}
