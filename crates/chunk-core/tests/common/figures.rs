//! The SPEC §4 figures of the default document, computed for a candidate text. Shared by the
//! gate tests and by `examples/design_doc.rs`, which helps tune a text until every figure holds.

use chunk_core::sim::{
    coverage, keywords, metrics::split_sentences, Prepared, Strategy, TokenizerChoice,
};

use chunk_core::Lang;

use chunk_core::segment::sentences::SentenceRule;

/// One figure: what SPEC §4 says and what the text gives.
pub struct Figure {
    /// What is measured.
    pub name: &'static str,
    /// The SPEC §4 value.
    pub expected: String,
    /// The value computed for the text.
    pub actual: String,
}

impl Figure {
    pub fn holds(&self) -> bool {
        self.expected == self.actual
    }
}

fn fig(name: &'static str, expected: impl ToString, actual: impl ToString) -> Figure {
    Figure {
        name,
        expected: expected.to_string(),
        actual: actual.to_string(),
    }
}

/// Every SPEC §4 figure for `text` under the simple tokenizer and the original sentence rule,
/// with the query's keywords in `lang`.
pub fn spec_figures(text: &str, query: &str, lang: Lang) -> Vec<Figure> {
    let p = Prepared::new(text, TokenizerChoice::Simple, SentenceRule::Terminators);
    let kw = keywords(query, lang);
    let tok = |i: usize| {
        p.tokens
            .spans
            .get(i)
            .map_or(String::new(), |&(s, e)| text[s..e].to_lowercase())
    };
    let run = |strategy, size, overlap| p.chunk(strategy, size, overlap).expect("size ≥ 1");
    let starts =
        |c: &chunk_core::sim::Chunking| c.chunks.iter().map(|w| w.start).collect::<Vec<_>>();
    let bloat =
        |m: &chunk_core::sim::Metrics| m.bloat_factor.map_or("none".into(), |b| format!("{b:.2}"));
    let mut out = vec![
        fig("document tokens", 267, p.n_tokens()),
        fig("sentences", 13, p.sentences.len()),
        fig(
            "sentences under UAX #29",
            13,
            Prepared::from_tokens(text, p.tokens.clone(), SentenceRule::Uax29)
                .sentences
                .len(),
        ),
        fig("keywords in the query", 4, kw.len()),
        fig("token 112 is the device name", "xv40", tok(112)),
        fig(
            "token 134 starts the range phrase (first keyword)",
            kw.first().cloned().unwrap_or_default(),
            tok(134),
        ),
        fig(
            "answer sentence tokens",
            "110..165",
            p.sentences
                .iter()
                .find(|s| s.start <= 112 && 112 < s.end)
                .map_or(String::new(), |s| format!("{}..{}", s.start, s.end)),
        ),
        fig(
            "longest sentence ≤ 60",
            true,
            p.sentences.iter().all(|s| s.len() <= 60),
        ),
    ];

    let c = run(Strategy::Fixed, 60, 0);
    let m = p.metrics(text, &c);
    let cov = coverage(text, &p.tokens, &c.chunks, &kw);
    out.extend([
        fig(
            "fixed 60/0: chunk starts",
            "[0, 60, 120, 180, 240]",
            format!("{:?}", starts(&c)),
        ),
        fig("fixed 60/0: total tokens", 267, m.total_tokens),
        fig("fixed 60/0: bloat", "1.00", bloat(&m)),
        fig(
            "fixed 60/0: chunks with all keywords",
            0,
            cov.chunks_with_all,
        ),
        fig("fixed 60/0: best chunk k", 3, cov.best),
    ]);

    let c = run(Strategy::Fixed, 60, 20);
    let m = p.metrics(text, &c);
    let cov = coverage(text, &p.tokens, &c.chunks, &kw);
    out.extend([
        fig("fixed 60/20: chunks", 7, m.chunk_count),
        fig("fixed 60/20: total tokens", 387, m.total_tokens),
        fig("fixed 60/20: bloat", "1.45", bloat(&m)),
        fig(
            "fixed 60/20: chunk #2 (0-based) tokens",
            "80..140",
            c.chunks
                .get(2)
                .map_or(String::new(), |w| format!("{}..{}", w.start, w.end)),
        ),
        fig(
            "fixed 60/20: chunk #2 holds all keywords",
            4,
            cov.counts.get(2).copied().unwrap_or(0),
        ),
    ]);

    let c = run(Strategy::Fixed, 60, 50);
    let m = p.metrics(text, &c);
    out.push(fig(
        "fixed 60/50: most chunks holding one token",
        6,
        m.multiplicity.iter().max().copied().unwrap_or(0),
    ));

    let c = run(Strategy::Fixed, 60, 5);
    let m = p.metrics(text, &c);
    let cov = coverage(text, &p.tokens, &c.chunks, &kw);
    out.extend([
        fig("fixed 60/5: a cut at 110", true, starts(&c).contains(&110)),
        fig(
            "fixed 60/5: chunks with all keywords",
            1,
            cov.chunks_with_all,
        ),
        fig("fixed 60/5: bloat", "1.07", bloat(&m)),
    ]);

    let c = run(Strategy::Sentence, 60, 0);
    let m = p.metrics(text, &c);
    let cov = coverage(text, &p.tokens, &c.chunks, &kw);
    out.extend([
        fig("sentence 60/0: chunks", 5, m.chunk_count),
        fig("sentence 60/0: bloat", "1.00", bloat(&m)),
        fig("sentence 60/0: split sentences", 0, m.split_sentences.len()),
        fig("sentence 60/0: oversize chunks", 0, m.oversize_chunks),
        fig(
            "sentence 60/0: chunks with all keywords",
            1,
            cov.chunks_with_all,
        ),
    ]);

    for (size, want) in [(55, 2), (60, 4), (110, 1), (115, 2)] {
        let c = run(Strategy::Fixed, size, 0);
        let name = match size {
            55 => "fixed 55/0: split sentences",
            60 => "fixed 60/0: split sentences",
            110 => "fixed 110/0: split sentences",
            _ => "fixed 115/0: split sentences",
        };
        out.push(fig(
            name,
            want,
            split_sentences(&p.sentences, &c.chunks).len(),
        ));
    }
    out
}
