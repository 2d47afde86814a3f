//! The retrieval check (`chunk_core::retrieval`) against a second implementation written here
//! independently and naively: the span metrics from sets of character indices, BM25 straight
//! from the formula (term frequencies and document frequencies counted by scanning, no index),
//! answer location by scanning every char boundary. Compared on generated cases (proptest), with
//! the properties the page relies on, and on the real fixture with a real strategy; the sweep on
//! a case whose best setting is known in advance. MRR@k and nDCG@k equal LlamaIndex's own
//! `MRR` and `NDCG` metrics, run in the oracle venv (`metrics_equal_llamaindex`).

#[path = "common/hf_oracle.rs"]
mod hf_oracle;

use chunk_core::analysis::{LimitBasis, LimitCheck};
use chunk_core::retrieval::{
    check_span, evaluate, evaluate_prepared, locate_answer, ndcg_at_k, parse_qa_jsonl,
    reciprocal_rank, span_metrics, sweep, terms, write_qa_jsonl, AnswerError, Bm25Index,
    Bm25Params, CellOutcome, DocumentTerms, EvalOptions, QaAnswer, QaLine, QaPair, Ranking,
    SweepCheck, SweepGrid, SweepObjective,
};
use chunk_core::strategy::length::Length;
use chunk_core::strategy::{chunker, run, run_prepared, Document, Settings, SizeUnit, StrategyId};
use chunk_core::strategy::{Boundary, Chunk, ChunkFlags, Chunks, Keeps};
use chunk_core::tokenizer::Encoding;
use chunk_core::Lang;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::ops::Range;

// ---------------------------------------------------------------------------------------------
// The second implementation.

/// The characters of `doc` (by index) whose first byte lies in `bytes`.
fn char_set(doc: &str, bytes: &Range<usize>) -> BTreeSet<usize> {
    doc.char_indices()
        .enumerate()
        .filter(|&(_, (b, _))| bytes.start <= b && b < bytes.end)
        .map(|(i, _)| i)
        .collect()
}

/// (|A|, Σ|R_i|, |A ∩ ⋃R_i|) by sets.
fn naive_counts(doc: &str, answer: &Range<usize>, retrieved: &[Range<usize>]) -> [usize; 3] {
    let a = char_set(doc, answer);
    let mut union = BTreeSet::new();
    let mut sum = 0;
    for r in retrieved {
        let s = char_set(doc, r);
        sum += s.len();
        union.extend(s);
    }
    [a.len(), sum, a.intersection(&union).count()]
}

fn frac(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

/// BM25 of every document for the query, term by term from the formula.
fn naive_bm25(docs: &[Vec<String>], query: &[String], k1: f64, b: f64) -> Vec<f64> {
    let n_docs = docs.len() as f64;
    let total: usize = docs.iter().map(Vec::len).sum();
    let avgdl = total as f64 / n_docs;
    let mut distinct: Vec<&String> = Vec::new();
    for t in query {
        if !distinct.contains(&t) {
            distinct.push(t);
        }
    }
    docs.iter()
        .map(|d| {
            let mut score = 0.0;
            for t in &distinct {
                let tf = d.iter().filter(|w| w == t).count() as f64;
                if tf == 0.0 {
                    continue;
                }
                let df = docs.iter().filter(|d| d.contains(t)).count() as f64;
                let idf = (1.0 + (n_docs - df + 0.5) / (df + 0.5)).ln();
                score +=
                    idf * (tf * (k1 + 1.0)) / (tf + k1 * (1.0 - b + b * d.len() as f64 / avgdl));
            }
            score
        })
        .collect()
}

/// Every byte offset where `needle` starts in `hay` (overlapping ones included).
fn naive_occurrences(hay: &str, needle: &str) -> Vec<usize> {
    (0..=hay.len())
        .filter(|&i| hay.is_char_boundary(i) && hay[i..].starts_with(needle))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Generators.

/// Text of ASCII, accented, Cyrillic, CJK and 4-byte characters, so that bytes and
/// characters differ.
fn doc_strategy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec!["a", "b", " ", "é", "ж", "日", "😀", ".", "\n", "ab"]),
        1..40,
    )
    .prop_map(|v| v.concat())
}

/// A document, a non-empty answer span on char boundaries, and retrieved byte ranges (any
/// bytes, inside or cutting characters, overlapping, repeated).
fn span_case() -> impl Strategy<Value = (String, Range<usize>, Vec<Range<usize>>)> {
    doc_strategy().prop_flat_map(|doc| {
        let bounds: Vec<usize> = (0..=doc.len())
            .filter(|&i| doc.is_char_boundary(i))
            .collect();
        let n = bounds.len();
        let len = doc.len();
        (
            Just(doc),
            (0..n - 1).prop_flat_map(move |i| (Just(i), i + 1..n)),
            proptest::collection::vec((0..=len, 0..=len), 0..6),
            Just(bounds),
        )
            .prop_map(|(doc, (i, j), raw, bounds)| {
                let retrieved = raw.into_iter().map(|(x, y)| x.min(y)..x.max(y)).collect();
                (doc, bounds[i]..bounds[j], retrieved)
            })
    })
}

const VOCAB: &[&str] = &[
    "XV40",
    "range",
    "Range",
    "RANGE",
    "the",
    "of",
    "temperature",
    "température",
    "日本",
    "can't",
    "3.5",
    "cat",
    "cats",
    "dog",
    "is",
    "what",
    "Ωmega",
    "ωmega",
];

fn words(min: usize, max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        (
            prop::sample::select(VOCAB.to_vec()),
            prop::sample::select(vec![" ", ", ", ". ", "\n", "-"]),
        ),
        min..max,
    )
    .prop_map(|v| v.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
}

// ---------------------------------------------------------------------------------------------
// Span metrics.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn span_metrics_equal_the_set_definition((doc, answer, retrieved) in span_case()) {
        let m = span_metrics(&doc, &answer, &retrieved);
        let [a, sum, i] = naive_counts(&doc, &answer, &retrieved);
        prop_assert_eq!((m.answer_chars, m.retrieved_chars, m.intersection_chars), (a, sum, i));
        prop_assert_eq!(m.recall, frac(i, a));
        prop_assert_eq!(m.precision, frac(i, sum));
        prop_assert_eq!(m.iou, frac(i, sum + a - i));
        for x in [m.recall, m.precision, m.iou] {
            prop_assert!((0.0..=1.0).contains(&x), "{x}");
        }
        // IoU ≤ recall and IoU ≤ precision.
        prop_assert!(m.iou <= m.recall && m.iou <= m.precision);
    }

    #[test]
    fn recall_is_one_when_a_retrieved_chunk_contains_the_answer(
        (doc, answer, mut retrieved) in span_case(),
        before in 0usize..4,
        after in 0usize..4,
        at in 0usize..6,
    ) {
        let holder = answer.start.saturating_sub(before)..(answer.end + after).min(doc.len());
        let at = at.min(retrieved.len());
        retrieved.insert(at, holder);
        let m = span_metrics(&doc, &answer, &retrieved);
        prop_assert_eq!(m.recall, 1.0);
        prop_assert_eq!(m.intersection_chars, m.answer_chars);
    }

    #[test]
    fn iou_is_one_exactly_when_the_answer_is_retrieved_once((doc, answer, retrieved) in span_case()) {
        let m = span_metrics(&doc, &answer, &retrieved);
        let a = char_set(&doc, &answer);
        let sets: Vec<BTreeSet<usize>> = retrieved.iter().map(|r| char_set(&doc, r)).collect();
        let union: BTreeSet<usize> = sets.iter().flatten().copied().collect();
        let disjoint = sets.iter().map(BTreeSet::len).sum::<usize>() == union.len();
        prop_assert_eq!(m.iou == 1.0, disjoint && union == a);
        // And the answer's own span, once, always gives 1.
        let own = span_metrics(&doc, &answer, std::slice::from_ref(&answer));
        prop_assert_eq!((own.recall, own.precision, own.iou), (1.0, 1.0, 1.0));
        // Twice, half the precision and IoU.
        let twice = span_metrics(&doc, &answer, &[answer.clone(), answer.clone()]);
        prop_assert_eq!((twice.recall, twice.precision, twice.iou), (1.0, 0.5, 0.5));
    }
}

// ---------------------------------------------------------------------------------------------
// BM25.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn bm25_equals_the_formula_and_ranks_a_permutation(
        chunks in proptest::collection::vec(words(0, 12), 1..8),
        query in words(0, 6),
        k1 in 0.0f64..3.0,
        b in 0.0f64..=1.0,
    ) {
        let docs: Vec<Vec<String>> = chunks.iter().map(|c| terms(c, Lang::En)).collect();
        let q = terms(&query, Lang::En);
        let index = Bm25Index::new(&docs, Bm25Params::new(k1, b).expect("in range"));
        let ours = index.scores(&q);
        let theirs = if docs.iter().all(Vec::is_empty) {
            vec![0.0; docs.len()] // avgdl = 0: every score 0
        } else {
            naive_bm25(&docs, &q, k1, b)
        };
        prop_assert_eq!(ours.len(), theirs.len());
        for (x, y) in ours.iter().zip(&theirs) {
            prop_assert!((x - y).abs() <= 1e-9 * y.abs().max(1.0), "{x} vs {y}");
            prop_assert!(*x >= 0.0);
        }
        // Ranking: a permutation, scores non-increasing, ties by index, rank its inverse.
        let r: Ranking = index.rank(&q);
        let mut sorted = r.order.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..docs.len()).collect::<Vec<_>>());
        for w in r.order.windows(2) {
            let (x, y) = (r.scores[w[0]], r.scores[w[1]]);
            prop_assert!(x > y || (x == y && w[0] < w[1]));
        }
        for (pos, &c) in r.order.iter().enumerate() {
            prop_assert_eq!(r.rank[c], pos + 1);
        }
        // Repeating the query changes nothing (each distinct term once).
        let doubled: Vec<String> = q.iter().chain(&q).cloned().collect();
        prop_assert_eq!(index.scores(&doubled), ours);
    }
}

#[test]
fn bm25_on_hand_terms_matches_the_second_implementation() {
    // Three chunks; arithmetic in `retrieval::bm25`'s unit test.
    let docs: Vec<Vec<String>> = [
        "The cat sat on the mat.",
        "Cat, cat and dog.",
        "A dog runs far away",
    ]
    .iter()
    .map(|t| terms(t, Lang::En))
    .collect();
    let q = terms("cat dog", Lang::En);
    let index = Bm25Index::new(&docs, Bm25Params::default());
    let want = [
        0.490_051_177_412_615_4,
        1.155_008_080_525_553_4,
        0.434_457_136_277_570_8,
    ];
    for ((x, y), w) in index
        .scores(&q)
        .iter()
        .zip(naive_bm25(&docs, &q, 1.2, 0.75))
        .zip(want)
    {
        assert!(
            (x - w).abs() < 1e-12 && (y - w).abs() < 1e-12,
            "{x} {y} {w}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Answer location.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn locating_an_answer_agrees_with_scanning(doc in doc_strategy(), i in 0usize..40, len in 0usize..4) {
        let bounds: Vec<usize> = (0..=doc.len()).filter(|&b| doc.is_char_boundary(b)).collect();
        let s = bounds[i % bounds.len()];
        let e = bounds[(i % bounds.len() + len).min(bounds.len() - 1)];
        let answer = &doc[s..e];
        let found = naive_occurrences(&doc, answer);
        match locate_answer(&doc, answer) {
            Ok(span) => {
                prop_assert_eq!(found.as_slice(), &[span.start][..]);
                prop_assert_eq!(&doc[span], answer);
            }
            Err(AnswerError::EmptyAnswer) => prop_assert!(answer.is_empty()),
            Err(AnswerError::Ambiguous { count, first, second }) => {
                prop_assert_eq!((count, first, second), (found.len(), found[0], found[1]));
            }
            Err(other) => prop_assert!(false, "{other:?}"),
        }
    }

    #[test]
    fn checking_a_span_never_panics(doc in doc_strategy(), start in 0usize..200, end in 0usize..200) {
        let ok = start < end
            && end <= doc.len()
            && doc.is_char_boundary(start)
            && doc.is_char_boundary(end);
        match check_span(&doc, start, end) {
            Ok(r) => prop_assert!(ok && r == (start..end)),
            Err(_) => prop_assert!(!ok),
        }
    }
}

#[test]
fn missing_ambiguous_empty_and_cut_answers_are_reported() {
    let doc = "The XV40 runs from −10 to 50 °C. The XV40 is small.";
    assert_eq!(locate_answer(doc, "−10 to 50 °C"), Ok(19..34));
    assert_eq!(
        locate_answer(doc, "−10 to 60 °C"),
        Err(AnswerError::NotFound)
    );
    assert_eq!(
        locate_answer(doc, "The XV40"),
        Err(AnswerError::Ambiguous {
            count: 2,
            first: 0,
            second: 36
        })
    );
    assert_eq!(locate_answer(doc, ""), Err(AnswerError::EmptyAnswer));
    // 20 is inside "−" (bytes 19..22), 32 inside "°" (bytes 31..33).
    assert_eq!(
        check_span(doc, 20, 34),
        Err(AnswerError::NotCharBoundary { offset: 20 })
    );
    assert_eq!(
        check_span(doc, 19, 32),
        Err(AnswerError::NotCharBoundary { offset: 32 })
    );
    assert_eq!(check_span(doc, 19, 34), Ok(19..34));
    assert_eq!(
        check_span(doc, 5, 5),
        Err(AnswerError::EmptySpan { start: 5, end: 5 })
    );
    assert_eq!(doc.len(), 54);
    assert_eq!(
        check_span(doc, 0, 999),
        Err(AnswerError::OutOfRange {
            start: 0,
            end: 999,
            len: 54
        })
    );
}

// ---------------------------------------------------------------------------------------------
// A real document and a real strategy.

fn fixture() -> String {
    std::fs::read_to_string(format!(
        "{}/../../tests/fixtures/moonstone-short.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

/// The fixture's questions; each answer occurs once.
fn fixture_pairs(doc: &str) -> Vec<QaPair> {
    let jsonl = "\
{\"question\": \"Who crossed India and seized the holy city of Somnauth?\", \"answer\": \"Mahmoud of Ghizni\"}
{\"question\": \"Where did Tippoo have the Diamond placed?\", \"answer\": \"as an ornament in the handle of a dagger\"}
{\"question\": \"What did the dying Indian say about the Moonstone's vengeance?\", \"answer\": \"Moonstone will have its vengeance yet on you and yours!\"}
{\"question\": \"When was Seringapatam stormed?\", \"answer\": \"the 4th of May, 1799\"}
";
    parse_qa_jsonl(jsonl)
        .expect("valid JSONL")
        .iter()
        .map(|l| l.resolve(doc).expect("each answer occurs once"))
        .collect()
}

/// (whole, rank, hit@1, hit@3) of one pair.
type PairFigures = (Option<usize>, Option<usize>, bool, bool);
/// (pairs, whole, hits@1, hits@3, hits@5).
type Counts = (usize, usize, usize, usize, usize);

/// Evaluates `id` at `chunk_size` / `chunk_overlap` tokens on the fixture, checks every pair
/// against the naive implementation and returns (whole, rank, hit@1, hit@3) per pair and the
/// aggregate counts (pairs, whole, hits@1, hits@3, hits@5).
fn check_on_fixture(
    id: StrategyId,
    chunk_size: usize,
    chunk_overlap: usize,
) -> (Vec<PairFigures>, Counts) {
    let doc = fixture();
    let pairs = fixture_pairs(&doc);
    let settings = Settings {
        chunk_size,
        chunk_overlap,
        unit: SizeUnit::Tokens,
        encoding: Encoding::Cl100kBase,
    };
    let c = chunker(id, &settings).expect("setting");
    let chunks = run(c.as_ref(), &doc, Encoding::Cl100kBase).expect("chunks");
    let options = EvalOptions::default();
    let e = evaluate(&doc, &chunks, &pairs, &options);
    assert_eq!(e.chunks, chunks.chunks.len());
    assert_eq!(e.tokens_embedded, chunks.total_tokens());

    // The same figures, computed here the naive way.
    let docs: Vec<Vec<String>> = chunks
        .chunks
        .iter()
        .map(|c| terms(&c.text(&doc), Lang::En))
        .collect();
    for (pair, p) in pairs.iter().zip(&e.pairs) {
        let q = terms(&pair.question, Lang::En);
        let scores = naive_bm25(&docs, &q, 1.2, 0.75);
        // Rank of chunk c: 1 + chunks that beat it (higher score, or equal and earlier).
        let rank = |c: usize| {
            1 + (0..scores.len())
                .filter(|&o| scores[o] > scores[c] || (scores[o] == scores[c] && o < c))
                .count()
        };
        let holding: Vec<usize> = (0..chunks.chunks.len())
            .filter(|&c| {
                let b = &chunks.chunks[c].bytes;
                b.start <= pair.answer.start && pair.answer.end <= b.end
            })
            .collect();
        assert_eq!(p.holding, holding, "{}", pair.question);
        let best = holding.iter().copied().min_by_key(|&c| rank(c));
        assert_eq!(p.whole, best);
        assert_eq!(p.rank, best.map(rank));
        // The top 5 by the naive ranking, and its span metrics by sets.
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&c| rank(c));
        assert_eq!(p.top, order[..5]);
        let top: Vec<Range<usize>> = order[..5]
            .iter()
            .map(|&c| chunks.chunks[c].bytes.clone())
            .collect();
        let [a, sum, i] = naive_counts(&doc, &pair.answer, &top);
        assert_eq!(
            (
                p.at_5.answer_chars,
                p.at_5.retrieved_chars,
                p.at_5.intersection_chars
            ),
            (a, sum, i)
        );
        assert_eq!(p.at_k, p.at_5);
    }

    let got = e
        .pairs
        .iter()
        .map(|p| (p.whole, p.rank, p.hit_at_1, p.hit_at_3))
        .collect();
    let a = e.aggregate;
    (
        got,
        (a.pairs, a.whole, a.hits_at_1, a.hits_at_3, a.hits_at_5),
    )
}

#[test]
fn evaluate_on_the_fixture_with_real_strategies() {
    // The product's recursive splitter at 256 tokens keeps every answer whole; three rank
    // first, the date's chunk second.
    let (pairs, counts) = check_on_fixture(StrategyId::Recursive, 256, 0);
    assert_eq!(
        pairs,
        [
            (Some(3), Some(1), true, true),
            (Some(6), Some(1), true, true),
            (Some(11), Some(1), true, true),
            (Some(1), Some(2), false, true),
        ]
    );
    assert_eq!(counts, (4, 4, 3, 4, 4));
    // Fixed windows of 64 tokens keep them whole too, but the vengeance line's window ranks
    // 14th: of the question's terms it holds only "vengeance" ("the dying Indian" is in the
    // window before it, and the question's "moonstone's" is one word, not the text's
    // "moonstone").
    let (pairs, counts) = check_on_fixture(StrategyId::Fixed, 64, 0);
    assert_eq!(
        pairs,
        [
            (Some(10), Some(1), true, true),
            (Some(20), Some(1), true, true),
            (Some(34), Some(14), false, false),
            (Some(5), Some(3), false, true),
        ]
    );
    assert_eq!(counts, (4, 4, 2, 3, 3));
    // Windows of 16 tokens cut three answers; the one kept whole ranks 9th.
    let (pairs, counts) = check_on_fixture(StrategyId::Fixed, 16, 0);
    assert_eq!(
        pairs,
        [
            (None, None, false, false),
            (Some(81), Some(9), false, false),
            (None, None, false, false),
            (None, None, false, false),
        ]
    );
    assert_eq!(counts, (4, 1, 0, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// MRR and nDCG against LlamaIndex.

/// One ranking case for the metrics: the retrieved top k (best first) and the relevant items.
struct RankCase {
    top: Vec<usize>,
    relevant: Vec<usize>,
    k: usize,
    /// The best-ranked relevant item's rank in the whole ranking (it may lie past k).
    rank: Option<usize>,
}

/// Generated cases (a fixed xorshift, so the run is the same every time): rankings of up to
/// 12 chunks, k from 1 to 8, 1 to k relevant chunks (LlamaIndex takes the ideal DCG over every
/// relevant item, which is nDCG@k's only when there are at most k), plus the fixture's real
/// evaluations of three strategies at two sizes.
fn rank_cases() -> Vec<RankCase> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut cases = Vec::new();
    for _ in 0..400 {
        let chunks = 1 + next(12);
        let mut order: Vec<usize> = (0..chunks).collect();
        for i in (1..chunks).rev() {
            order.swap(i, next(i + 1));
        }
        let k = 1 + next(8);
        let wanted = 1 + next(k.min(chunks));
        let mut relevant: Vec<usize> = Vec::new();
        while relevant.len() < wanted {
            let c = next(chunks);
            if !relevant.contains(&c) {
                relevant.push(c);
            }
        }
        let rank = order
            .iter()
            .position(|c| relevant.contains(c))
            .map(|i| i + 1);
        cases.push(RankCase {
            top: order[..k.min(chunks)].to_vec(),
            relevant,
            k,
            rank,
        });
    }
    let doc = fixture();
    let pairs = fixture_pairs(&doc);
    for id in [
        StrategyId::Fixed,
        StrategyId::LangchainRecursive,
        StrategyId::Sentence,
    ] {
        for (size, overlap) in [(64, 16), (200, 100)] {
            let settings = Settings {
                chunk_size: size,
                chunk_overlap: overlap,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            };
            let c = chunker(id, &settings).expect("setting");
            let chunks = run(c.as_ref(), &doc, Encoding::Cl100kBase).expect("chunks");
            let e = evaluate(&doc, &chunks, &pairs, &EvalOptions::default());
            for p in &e.pairs {
                if !p.holding.is_empty() && p.holding.len() <= e.k {
                    assert_eq!(p.reciprocal_rank, reciprocal_rank(p.rank, e.k));
                    assert_eq!(p.ndcg, ndcg_at_k(&p.top, &p.holding, e.k));
                    cases.push(RankCase {
                        top: p.top.clone(),
                        relevant: p.holding.clone(),
                        k: e.k,
                        rank: p.rank,
                    });
                }
            }
        }
    }
    cases
}

#[test]
fn metrics_equal_llamaindex() {
    let cases = rank_cases();
    let lines: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| serde_json::json!({ "retrieved": c.top, "expected": c.relevant }))
        .collect();
    let Some(answers) = hf_oracle::oracle_lines("retrieval metrics", "ir_metrics.py", &[], &lines)
    else {
        return;
    };
    assert_eq!(answers.len(), cases.len(), "one answer a case");
    let (mut hits, mut misses) = (0, 0);
    for (case, answer) in cases.iter().zip(&answers) {
        let want: serde_json::Value = serde_json::from_str(answer).expect("JSON");
        let (mrr, ndcg) = (
            want["mrr"].as_f64().expect("a score"),
            want["ndcg"].as_f64().expect("a score"),
        );
        let ours = (
            reciprocal_rank(case.rank, case.k),
            ndcg_at_k(&case.top, &case.relevant, case.k),
        );
        assert!(
            (ours.0 - mrr).abs() < 1e-12 && (ours.1 - ndcg).abs() < 1e-12,
            "top {:?}, relevant {:?}, k {}: ours {ours:?}, LlamaIndex ({mrr}, {ndcg})",
            case.top,
            case.relevant,
            case.k
        );
        if mrr > 0.0 {
            hits += 1;
        } else {
            misses += 1;
        }
    }
    // Both kinds of case were compared, not only one.
    assert!(
        hits > 100 && misses > 20,
        "{hits} found, {misses} not found"
    );
    eprintln!(
        "MRR@k and nDCG@k equal LlamaIndex's on {} rankings",
        cases.len()
    );
}

#[test]
fn ndcg_caps_the_ideal_at_k_and_mrr_stops_at_k() {
    // Three relevant chunks, k = 2, the top two relevant: a perfect top 2.
    assert_eq!(ndcg_at_k(&[4, 7], &[4, 7, 9], 2), 1.0);
    // One relevant chunk at place 2: 1 / log2(3).
    assert!((ndcg_at_k(&[1, 4], &[4], 2) - 1.0 / 3f64.log2()).abs() < 1e-15);
    assert_eq!(ndcg_at_k(&[1, 2], &[], 2), 0.0);
    assert_eq!(
        ndcg_at_k(&[1, 2, 4], &[4], 2),
        0.0,
        "only the first k count"
    );
    assert_eq!(reciprocal_rank(Some(2), 5), 0.5);
    assert_eq!(reciprocal_rank(Some(6), 5), 0.0);
    assert_eq!(reciprocal_rank(None, 5), 0.0);
}

// ---------------------------------------------------------------------------------------------
// The sweep.

/// Filler of common words that are one cl100k token each (with their leading space), none a
/// term of the question.
const FILLER: &[&str] = &[
    "red", "blue", "green", "apple", "table", "chair", "river", "house", "paper", "bread", "music",
    "window", "garden", "summer", "winter", "yellow",
];
const ANSWER_WORDS: &[&str] = &[
    "secret", "key", "hidden", "under", "old", "oak", "tree", "near", "lake", "gate",
];

/// No model limit.
const NO_LIMIT: LimitCheck<'static> = LimitCheck::within(usize::MAX);

/// The sweep's check of `pairs` with `options` and `limit`.
fn check<'a>(
    pairs: &'a [QaPair],
    options: &'a EvalOptions,
    limit: &'a LimitCheck<'a>,
) -> SweepCheck<'a> {
    SweepCheck {
        pairs,
        options,
        limit,
    }
}

#[test]
fn sweep_marks_the_cheapest_setting_that_keeps_the_answer_whole_in_the_top_k() {
    // 512 one-token words; the answer is words 170..210 (40 tokens). Fixed windows without
    // overlap all cost exactly 512 tokens and hold it whole only at size 128 ([128, 256)) and
    // 256 ([0, 256)): at 32 it is longer than a window, at 64 the cut at 192 splits it. Every
    // overlap costs more than 512. So the cheapest in tokens are sizes 128 and 256 without
    // overlap, and fewer vectors break the tie: 256 (2 chunks against 4). The same wins when
    // vectors come first. A model that reads at most 200 tokens truncates every chunk of 256:
    // then 128 wins.
    let mut words: Vec<&str> = (0..512).map(|i| FILLER[i % FILLER.len()]).collect();
    for (j, w) in words[170..210].iter_mut().enumerate() {
        *w = ANSWER_WORDS[j % ANSWER_WORDS.len()];
    }
    let doc = words.join(" ");
    let document = Document::new(&doc, Encoding::Cl100kBase);
    assert_eq!(document.tokens(), 512, "one token per word");
    let offsets = &document.encoded().offsets;
    let answer = check_span(&doc, offsets[170] + 1, offsets[210]).expect("on boundaries"); // without the space before
    let pairs = [QaPair {
        question: "Where is the secret key hidden?".into(),
        answer,
    }];
    let grid = SweepGrid {
        sizes: vec![32, 64, 128, 256],
        overlap_percents: vec![0, 25, 50],
        unit: SizeUnit::Tokens,
    };
    let options = EvalOptions::default();
    let s = sweep(
        &document,
        StrategyId::Fixed,
        &grid,
        &check(&pairs, &options, &NO_LIMIT),
    );
    assert_eq!(s.cells.len(), 12);
    let whole: Vec<(usize, usize, bool, usize)> = s
        .cells
        .iter()
        .map(|c| {
            let f = c.figures().expect("fixed accepts every setting");
            (
                c.chunk_size,
                c.chunk_overlap,
                f.aggregate.all_whole_in_top_k,
                f.tokens_embedded,
            )
        })
        .collect();
    assert!(s.cells.iter().all(|c| c.figures().unwrap().over_limit == 0));
    // Size 64 at 50 % (step 32) holds [160, 224); at 25 % (step 48) [144, 208) and [192, 256)
    // do not; size 32 never does.
    assert_eq!(
        whole.iter().map(|w| (w.0, w.1, w.2)).collect::<Vec<_>>(),
        [
            (32, 0, false),
            (32, 8, false),
            (32, 16, false),
            (64, 0, false),
            (64, 16, false),
            (64, 32, true),
            (128, 0, true),
            (128, 32, true),
            (128, 64, true),
            (256, 0, true),
            (256, 64, true),
            (256, 128, true),
        ]
    );
    for w in &whole {
        if w.1 == 0 {
            assert_eq!(w.3, 512);
        } else {
            assert!(w.3 > 512);
        }
    }
    assert_eq!(s.best(SweepObjective::Tokens), Some(9));
    assert_eq!(s.best(SweepObjective::Vectors), Some(9));
    let best = s.best_cell(SweepObjective::Tokens).expect("marked");
    assert_eq!((best.chunk_size, best.overlap_percent), (256, 0));
    assert_eq!(s.cell(3, 0), Some(best));
    assert_eq!(
        (s.max_input_tokens, s.limit_basis),
        (usize::MAX, LimitBasis::ChunkTokens)
    );

    // A model reading at most 200 tokens truncates every full window of 256 (the last window
    // of each overlap holds the 128-token remainder: 2 of 2, 2 of 3 and 3 of 4 windows), and
    // no window of 128 or less: the best is 128 without overlap.
    let limit = LimitCheck::within(200);
    let capped = sweep(
        &document,
        StrategyId::Fixed,
        &grid,
        &check(&pairs, &options, &limit),
    );
    let over: Vec<usize> = capped
        .cells
        .iter()
        .map(|c| c.figures().unwrap().over_limit)
        .collect();
    assert_eq!(over, [0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3]);
    assert_eq!(capped.best(SweepObjective::Tokens), Some(6));
    assert_eq!(capped.best(SweepObjective::Vectors), Some(6));
    assert_eq!(capped.max_input_tokens, 200);
    // The cell's chunks, cut again here, hold the answer in chunk 1 ([128, 256)).
    let c = chunker(
        StrategyId::Fixed,
        &Settings {
            chunk_size: 128,
            chunk_overlap: 0,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        },
    )
    .expect("setting");
    let chunks = run_prepared(c.as_ref(), &document).expect("chunks");
    let e = evaluate(&doc, &chunks, &pairs, &EvalOptions::default());
    assert_eq!((e.pairs[0].whole, e.pairs[0].rank), (Some(1), Some(1)));

    // Without pairs nothing is marked.
    assert_eq!(
        sweep(
            &document,
            StrategyId::Fixed,
            &grid,
            &check(&[], &options, &NO_LIMIT)
        )
        .best(SweepObjective::Tokens),
        None
    );
}

#[test]
fn a_refused_setting_is_data_and_never_best() {
    let doc = "One sentence here. Another one there. And a third.";
    let document = Document::new(doc, Encoding::Cl100kBase);
    let pairs = [QaPair {
        question: "another".into(),
        answer: locate_answer(doc, "Another one there.").expect("once"),
    }];
    let grid = SweepGrid {
        sizes: vec![64],
        overlap_percents: vec![0, 150],
        unit: SizeUnit::Tokens,
    };
    // LangChain refuses an overlap over the size: 150 % is refused.
    let options = EvalOptions::default();
    let s = sweep(
        &document,
        StrategyId::LangchainRecursive,
        &grid,
        &check(&pairs, &options, &NO_LIMIT),
    );
    assert!(matches!(&s.cells[1].outcome, CellOutcome::Refused(r) if r.kind == "overlap-refused"));
    assert!(
        s.cells[0]
            .figures()
            .expect("evaluated")
            .aggregate
            .all_whole_in_top_k
    );
    assert_eq!(s.best(SweepObjective::Tokens), Some(0));
    // Plain data for the page.
    let json = serde_json::to_string(&s).expect("serializes");
    assert!(json.contains("\"refused\"") && json.contains("\"evaluated\""));
}

// ---------------------------------------------------------------------------------------------
// JSONL.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn jsonl_round_trips(
        lines in proptest::collection::vec(
            (any::<String>(), prop_oneof![
                any::<String>().prop_map(QaAnswer::Text),
                (any::<usize>(), any::<usize>()).prop_map(|(start, end)| QaAnswer::Span { start, end }),
            ]),
            0..6,
        )
    ) {
        let lines: Vec<QaLine> = lines
            .into_iter()
            .map(|(question, answer)| QaLine { question, answer })
            .collect();
        let text = write_qa_jsonl(&lines);
        prop_assert_eq!(text.lines().count(), lines.len());
        prop_assert_eq!(parse_qa_jsonl(&text), Ok(lines));
    }
}

#[test]
fn jsonl_of_the_fixture_pairs_round_trips_as_spans() {
    let doc = fixture();
    let pairs = fixture_pairs(&doc);
    let lines: Vec<QaLine> = pairs.iter().map(QaLine::from_pair).collect();
    let text = write_qa_jsonl(&lines);
    let back: Vec<QaPair> = parse_qa_jsonl(&text)
        .expect("valid")
        .iter()
        .map(|l| l.resolve(&doc).expect("checked span"))
        .collect();
    assert_eq!(back, pairs);
}

// ---------------------------------------------------------------------------------------------
// The fast path: a document's terms found once (`DocumentTerms`), each chunk's taken from them.
// It must equal splitting every chunk's own text, term for term, and so `evaluate_prepared`
// must equal `evaluate`, value for value.

/// Pieces that exercise the word-boundary rules at a chunk's edge: letters, digits, mid-word
/// and mid-number punctuation, spaces, line ends, Extend / Format / ZWJ, regional indicators,
/// pictographs, Katakana, Han, Hebrew, ExtendNumLet, and stop words.
const PIECES: &[&str] = &[
    "a",
    "b",
    "X",
    "The",
    "the",
    "of",
    "'",
    ".",
    ",",
    ":",
    "3",
    "42",
    " ",
    " ",
    " ",
    "\n",
    "\r\n",
    "\t",
    "-",
    "_",
    "\"",
    "é",
    "e\u{301}",
    "\u{301}",
    "\u{200D}",
    "\u{AD}",
    "\u{1F1EB}",
    "\u{1F1F7}",
    "\u{1F600}",
    "\u{093F}",
    "क",
    "日",
    "本",
    "ア",
    "イ",
    "\u{05D0}",
    "\u{05F3}",
];

fn edge_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PIECES), 0..40).prop_map(|p| p.concat())
}

/// A chunk of `doc` over bytes `range`, its text its slice unless `own` is given.
fn chunk_of(range: Range<usize>, own: Option<String>) -> Chunk {
    Chunk {
        tokens: range.len(),
        length: range.len(),
        bytes: range,
        text: own,
        token_range: None,
        heading_path: Vec::new(),
        code_info: None,
        reason: Boundary::Sentence,
        flags: ChunkFlags::default(),
    }
}

/// A text and chunks over arbitrary char-boundary ranges of it (overlapping, out of order, a
/// few with their own text), and pairs whose questions reuse its pieces.
fn edge_case() -> impl Strategy<Value = (String, Chunks, Vec<QaPair>)> {
    (
        edge_text(),
        proptest::collection::vec((any::<usize>(), any::<usize>(), 0u8..8), 0..8),
        proptest::collection::vec((edge_text(), any::<usize>(), any::<usize>()), 0..4),
    )
        .prop_map(|(doc, cuts, qs)| {
            let bounds: Vec<usize> = doc
                .char_indices()
                .map(|(i, _)| i)
                .chain([doc.len()])
                .collect();
            let at = |x: usize| bounds[x % bounds.len()];
            let chunks = cuts
                .iter()
                .map(|&(x, y, own)| {
                    let (a, b) = (at(x).min(at(y)), at(x).max(at(y)));
                    let own = (own == 0).then(|| format!("# Heading\n{}", &doc[a..b]));
                    chunk_of(a..b, own)
                })
                .collect();
            let pairs = qs
                .into_iter()
                .map(|(question, x, y)| QaPair {
                    question: format!("{question} {}", &doc[..at(x)]),
                    answer: at(x).min(at(y))..at(x).max(at(y)),
                })
                .collect();
            let chunks = Chunks {
                strategy: StrategyId::Fixed,
                chunks,
                encoding: Encoding::Cl100kBase,
                document_tokens: doc.len(),
                budget: (8, Length::Characters),
                keeps: Keeps::Everything,
                overlap_clamped: false,
                overlap_ignored: false,
            };
            (doc, chunks, pairs)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_chunks_terms_from_the_document_equal_splitting_its_own_text(
        (doc, chunks, pairs) in edge_case(),
        lang in proptest::sample::select(&[Lang::En, Lang::Vi, Lang::Ru][..]),
    ) {
        let terms_once = DocumentTerms::new(&doc, lang);
        for c in &chunks.chunks {
            prop_assert_eq!(
                terms_once.chunk_terms(&doc, c),
                terms(&c.text(&doc), lang),
                "chunk {:?} of {:?}", c.bytes, doc
            );
        }
        let options = EvalOptions { lang, k: 2, ..EvalOptions::default() };
        prop_assert_eq!(
            evaluate_prepared(&doc, &terms_once, &chunks, &pairs, &options),
            evaluate(&doc, &chunks, &pairs, &options)
        );
    }
}

#[test]
fn evaluate_prepared_equals_evaluate_on_the_fixture_for_every_strategy() {
    let doc = fixture();
    let pairs = fixture_pairs(&doc);
    let options = EvalOptions::default();
    let terms_once = DocumentTerms::new(&doc, options.lang);
    let document = Document::new(&doc, Encoding::Cl100kBase);
    let mut compared = 0;
    for id in StrategyId::all() {
        for (size, overlap, unit) in [
            (64, 8, SizeUnit::Tokens),
            (300, 0, SizeUnit::Tokens),
            (500, 50, SizeUnit::Characters),
        ] {
            let settings = Settings {
                chunk_size: size,
                chunk_overlap: overlap,
                unit,
                encoding: Encoding::Cl100kBase,
            };
            let Ok(chunks) = chunker(id, &settings).and_then(|c| run_prepared(&*c, &document))
            else {
                continue;
            };
            for c in &chunks.chunks {
                assert_eq!(
                    terms_once.chunk_terms(&doc, c),
                    terms(&c.text(&doc), options.lang),
                    "{id} {size} {overlap} {unit:?}: chunk {:?}",
                    c.bytes
                );
            }
            assert_eq!(
                evaluate_prepared(&doc, &terms_once, &chunks, &pairs, &options),
                evaluate(&doc, &chunks, &pairs, &options),
                "{id} {size} {overlap} {unit:?}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 30, "{compared}");
    // Terms of another language are not used (the result is still evaluate's).
    let vi = EvalOptions {
        lang: Lang::Vi,
        ..options
    };
    let settings = Settings {
        chunk_size: 64,
        chunk_overlap: 0,
        unit: SizeUnit::Tokens,
        encoding: Encoding::Cl100kBase,
    };
    let chunks = run(
        &*chunker(StrategyId::Fixed, &settings).unwrap(),
        &doc,
        Encoding::Cl100kBase,
    )
    .unwrap();
    assert_eq!(
        evaluate_prepared(&doc, &terms_once, &chunks, &pairs, &vi),
        evaluate(&doc, &chunks, &pairs, &vi)
    );
}
