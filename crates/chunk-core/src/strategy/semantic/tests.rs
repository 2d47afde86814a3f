//! The semantic strategies with made-up vectors: the rules' edges (no sentence, one, few, no
//! punctuation, one 1 MB word), the size cap of the product's own, and what each refuses.

use super::*;
use crate::strategy::{test_settings, Boundary, SizeUnit};
use crate::tokenizer::TokenCounter;
use proptest::prelude::*;

/// A made-up embedding: how often each of a few topic words and each letter class occurs.
fn fake(text: &str) -> Vec<f32> {
    let lower = text.to_lowercase();
    let mut v: Vec<f32> = ["cat", "dog", "ship", "sea", "code", "rust"]
        .iter()
        .map(|w| lower.matches(w).count() as f32)
        .collect();
    v.push(lower.chars().filter(|c| "aeiou".contains(*c)).count() as f32 * 0.01);
    v.push(lower.chars().filter(|c| c.is_ascii_digit()).count() as f32 * 0.01);
    v.push(0.001);
    v
}

fn with_fake(chunker: SemanticChunker, text: &str) -> SemanticChunker {
    let mut v = Vectors::new();
    for t in chunker.embedding_texts(text).unwrap() {
        let e = fake(&t);
        v.insert(t, e);
    }
    chunker.with_vectors(Arc::new(v))
}

fn own(size: usize, unit: SizeUnit) -> SemanticChunker {
    let s = test_settings(size, 0, unit);
    SemanticChunker::new(StrategyId::Semantic, &s)
        .unwrap()
        .unwrap()
}

fn two_topics() -> String {
    let cats = "The cat sat on the mat. A cat likes a warm mat. Every cat naps all day. ";
    let ships = "The ship left the sea port. A ship needs a calm sea. The sea was rough. ";
    format!("{}{}", cats.repeat(3), ships.repeat(3))
}

fn texts_of(pieces: &[Piece], text: &str) -> Vec<String> {
    pieces
        .iter()
        .map(|p| {
            p.text
                .clone()
                .unwrap_or_else(|| text[p.bytes.clone()].to_string())
        })
        .collect()
}

#[test]
fn without_vectors_every_semantic_strategy_refuses_and_says_which() {
    let text = two_topics();
    for id in StrategyId::semantic() {
        let c = SemanticChunker::new(id, &test_settings(512, 0, SizeUnit::Tokens))
            .unwrap()
            .unwrap();
        assert_eq!(
            c.split(&text),
            Err(StrategyError::EmbeddingsNeeded { strategy: id }),
            "{id}"
        );
        assert!(!c.embedding_texts(&text).unwrap().is_empty(), "{id}");
        assert!(id.needs_embeddings() && !StrategyId::all().any(|s| s == id));
    }
    assert_eq!(StrategyId::semantic().count(), 4);
    assert!(SemanticChunker::new(
        StrategyId::Recursive,
        &test_settings(9, 0, SizeUnit::Tokens)
    )
    .is_none());
}

#[test]
fn the_topic_shift_is_cut_and_said() {
    let text = two_topics();
    let c = with_fake(own(512, SizeUnit::Tokens), &text);
    let (pieces, curve) = c.split_with_curve(&text).unwrap();
    // Windows take a sentence on each side, so the distance peaks within a sentence of the
    // shift (the made-up vectors count words).
    let shift = text.find("The ship").unwrap();
    let near = |b: usize| b.abs_diff(shift) <= 30;
    assert!(
        pieces
            .iter()
            .any(|p| near(p.bytes.end) && p.reason == Boundary::TopicShift),
        "{pieces:?}"
    );
    assert_eq!(pieces.last().unwrap().reason, Boundary::EndOfText);
    assert_eq!(curve.kind, CurveKind::Distance);
    assert!(curve.points.iter().any(|p| p.cut && near(p.byte)));
    // Cut points and pieces agree.
    for p in curve.points.iter().filter(|p| p.cut) {
        assert!(pieces.iter().any(|q| q.bytes.end == p.byte));
    }
    // The threshold is the 95th percentile of the values: within their range, with at most
    // one point in twenty (and one more for the interpolation) strictly above it.
    let values: Vec<f64> = curve.points.iter().map(|p| p.value).collect();
    let t = curve.threshold.unwrap();
    let (lo, hi) = values
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    assert!(lo <= t && t <= hi);
    let above = values.iter().filter(|&&v| v > t).count();
    assert!(
        above >= 1 && above <= values.len() / 20 + 1,
        "{above} of {}",
        values.len()
    );
}

#[test]
fn own_semantic_edges_keep_every_byte_under_the_size() {
    let word_mb = "a".repeat(1 << 20);
    let no_punctuation = "word and another word ".repeat(2000);
    let one_sentence = "Only one sentence here".to_string();
    for (name, text, size, unit) in [
        ("empty", String::new(), 64, SizeUnit::Tokens),
        ("one sentence", one_sentence, 64, SizeUnit::Tokens),
        ("no punctuation", no_punctuation, 64, SizeUnit::Tokens),
        ("whitespace", " \n\t ".to_string(), 64, SizeUnit::Tokens),
        ("1 MB of one word", word_mb, 512, SizeUnit::Tokens),
        (
            "two topics in characters",
            two_topics(),
            40,
            SizeUnit::Characters,
        ),
    ] {
        let c = with_fake(own(size, unit), &text);
        let pieces = c.split(&text).unwrap();
        let length = test_settings(size, 0, unit).length();
        let mut at = 0;
        for p in &pieces {
            assert_eq!(p.bytes.start, at, "{name}");
            assert!(p.text.is_none(), "{name}");
            assert!(
                length.count(&text[p.bytes.clone()]) <= size,
                "{name}: over {size}"
            );
            at = p.bytes.end;
        }
        assert_eq!(at, text.len(), "{name}");
        assert_eq!(pieces.is_empty(), text.is_empty(), "{name}");
    }
}

#[test]
fn zero_vectors_are_no_topic_shift_for_llamaindex_and_a_distance_of_one_for_our_own() {
    let text = two_topics();
    let s = test_settings(512, 0, SizeUnit::Tokens);
    let zeros = |c: SemanticChunker| {
        let mut v = Vectors::new();
        for t in c.embedding_texts(&text).unwrap() {
            v.insert(t, vec![0.0f32; 4]);
        }
        c.with_vectors(Arc::new(v))
    };
    // LlamaIndex: every distance NaN, so NumPy's percentile is NaN and nothing is above it.
    let llama = zeros(
        SemanticChunker::new(StrategyId::LlamaindexSemantic, &s)
            .unwrap()
            .unwrap(),
    );
    let (pieces, curve) = llama.split_with_curve(&text).unwrap();
    assert_eq!(pieces.len(), 1);
    assert!(curve.threshold.unwrap().is_nan());
    // Ours: every distance 1, none above the 95th percentile (1): one chunk under the size.
    let own = zeros(own(512, SizeUnit::Tokens));
    let (pieces, curve) = own.split_with_curve(&text).unwrap();
    assert_eq!(pieces.len(), 1);
    assert!(curve.points.iter().all(|p| p.value == 1.0));
}

#[test]
fn chonkie_keeps_a_few_sentences_whole_and_cuts_groups_by_size() {
    let s = test_settings(8, 0, SizeUnit::Tokens);
    let c = SemanticChunker::new(StrategyId::ChonkieSemantic, &s)
        .unwrap()
        .unwrap();
    // Three sentences (the similarity window) or fewer: one chunk, whatever its size.
    let few = "The first sentence is here. The second sentence is here too. A third one.";
    let c3 = with_fake(c.clone(), few);
    assert_eq!(c3.embedding_texts(few).unwrap(), Vec::<String>::new());
    assert_eq!(
        texts_of(&c3.split(few).unwrap(), few),
        vec![few.to_string()]
    );
    // Blank: nothing.
    assert!(c.split(" \n ").unwrap().is_empty());
    // More: groups over 8 tokens are cut between sentences (no sentence is split).
    let text = two_topics();
    let pieces = with_fake(c, &text).split(&text).unwrap();
    assert!(pieces.len() > 3);
    assert_eq!(texts_of(&pieces, &text).concat(), text);
}

#[test]
fn langchain_splits_sentences_as_re_split_does() {
    let cases: [(&str, &[&str]); 5] = [
        ("", &[""]),
        ("A. B.  C?\nD", &["A.", "B.", "C?", "D"]),
        ("A. ", &["A.", ""]),
        ("Mr.Smith. x", &["Mr.Smith.", "x"]),
        ("a.\u{a0}b!\u{1f}c", &["a.", "b!", "c"]),
    ];
    for (text, want) in cases {
        let got: Vec<&str> = LangchainSemantic::sentences(text)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(got, want, "{text:?}");
    }
    // One sentence: the text itself, unembedded; two sentences with gradient: each.
    let s = test_settings(512, 0, SizeUnit::Tokens);
    let lc = LangchainSemantic {
        breakpoint: BreakpointThresholdType::Gradient(95.0),
        ..LangchainSemantic::new(&s).unwrap()
    };
    let c = SemanticChunker::of(lc, &s);
    assert_eq!(c.embedding_texts("One. Two.\n\nx").unwrap().len(), 3);
    let two = "One.\n\nTwo.";
    assert_eq!(texts_of(&c.split(two).unwrap(), two), vec!["One.", "Two."]);
}

#[test]
fn langchain_joins_a_chunks_sentences_with_one_space() {
    let text = two_topics().replace(". ", ".\n\n");
    let s = test_settings(512, 0, SizeUnit::Tokens);
    let c = with_fake(
        SemanticChunker::new(StrategyId::LangchainSemantic, &s)
            .unwrap()
            .unwrap(),
        &text,
    );
    let pieces = c.split(&text).unwrap();
    assert!(pieces.len() >= 2);
    for p in &pieces {
        let own = p.text.as_deref().unwrap_or(&text[p.bytes.clone()]);
        assert!(!own.contains('\n'), "{own:?}");
    }
    assert_eq!(c.keeps(), Keeps::SentencesJoinedWithSpace);
}

#[test]
fn llamaindex_one_sentence_is_one_chunk_and_blank_is_an_empty_one() {
    let s = test_settings(512, 0, SizeUnit::Tokens);
    let c = SemanticChunker::new(StrategyId::LlamaindexSemantic, &s)
        .unwrap()
        .unwrap();
    let one = "  Only one sentence here.";
    let c1 = with_fake(c.clone(), one);
    // NLTK's first span starts at 0: the leading spaces are in the sentence.
    assert_eq!(c1.embedding_texts(one).unwrap(), vec![one]);
    assert_eq!(texts_of(&c1.split(one).unwrap(), one), vec![one]);
    assert_eq!(texts_of(&c.split("").unwrap(), ""), vec![""]);
}

#[test]
fn the_sizes_and_parameters_libraries_refuse_are_refused() {
    let zero = test_settings(0, 0, SizeUnit::Tokens);
    for id in StrategyId::semantic() {
        assert!(matches!(
            SemanticChunker::new(id, &zero).unwrap(),
            Err(StrategyError::Params(_))
        ));
    }
    let s = test_settings(64, 0, SizeUnit::Tokens);
    let bad = ChonkieSemantic {
        threshold: 1.0,
        ..ChonkieSemantic::new(&s).unwrap()
    };
    assert!(matches!(
        SemanticChunker::of(bad, &s).embedding_texts("x"),
        Err(StrategyError::ParameterRefused {
            parameter: "threshold",
            ..
        })
    ));
    // chonkie counts tiktoken tokens: a special-token string is refused as tiktoken raises.
    let c = SemanticChunker::new(StrategyId::ChonkieSemantic, &s)
        .unwrap()
        .unwrap();
    assert!(matches!(
        c.embedding_texts("a <|endoftext|> b"),
        Err(StrategyError::TextRefused { byte_offset: 2, .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The product's own: every byte kept, in order, no chunk over the size, on any text of
    /// sentences, words and marks, but a chunk of one character that alone is more tokens
    /// than the size (a size of 1 or 2 and `猫`: characters are not cut).
    #[test]
    fn own_semantic_never_exceeds_the_size(
        words in proptest::collection::vec("[a-z]{1,12}|cat|ship|sea|[.!?]|\n|\n\n|  |é|猫", 0..400),
        size in 1usize..80,
        characters in any::<bool>(),
    ) {
        let text = words.join(" ");
        let unit = if characters { SizeUnit::Characters } else { SizeUnit::Tokens };
        let c = with_fake(own(size, unit), &text);
        let pieces = c.split(&text).unwrap();
        let length = test_settings(size, 0, unit).length();
        let mut at = 0;
        for p in &pieces {
            prop_assert_eq!(p.bytes.start, at);
            let chunk = &text[p.bytes.clone()];
            prop_assert!(length.count(chunk) <= size || chunk.chars().count() == 1);
            at = p.bytes.end;
        }
        prop_assert_eq!(at, text.len());
    }
}

#[test]
fn embedding_tokens_and_the_curve_from_a_document_equal_counting_each_call_alone() {
    // Sentences apart by one space, by line breaks, by several spaces (LangChain's joined
    // windows are then the slice, or a new string), CJK and a code line.
    let text = format!(
        "{}Sea.\n\nShip  ahead!  The port is far?\tA dog barks.\r\n海は広い。船が来る。\n\
         fn main() {{ let cat = 1; }}\nThe end. ",
        two_topics()
    );
    let settings = test_settings(40, 0, SizeUnit::Tokens);
    let document = Document::new(&text, settings.encoding);
    let bpe = settings.encoding.tokenizer();
    for id in StrategyId::semantic() {
        let c = with_fake(SemanticChunker::new(id, &settings).unwrap().unwrap(), &text);
        let calls = c.embedding_calls(&text).unwrap();
        let alone: usize = calls.iter().map(|t| bpe.count(t)).sum();
        assert_eq!(
            c.embedding_tokens(&document),
            Ok((calls.len(), alone)),
            "{id}"
        );
        // One cut gives the chunks of run_prepared and the curve of curve().
        let (chunks, curve) = c.run_with_curve(&document).unwrap();
        assert_eq!(
            chunks,
            crate::strategy::run_prepared(&c, &document).unwrap(),
            "{id}"
        );
        assert_eq!(curve, c.curve(&text).unwrap(), "{id}");
    }
}

#[test]
fn another_threshold_cuts_the_same_embeddings_elsewhere_and_a_bad_one_is_refused() {
    let text = two_topics();
    let settings = test_settings(512, 0, SizeUnit::Tokens);
    for id in StrategyId::semantic() {
        let default = SemanticChunker::new(id, &settings).unwrap().unwrap();
        let low = Breakpoints {
            percentile: 10.0,
            chonkie_threshold: 0.99,
        };
        let tried = SemanticChunker::with_breakpoints(id, &settings, low)
            .unwrap()
            .unwrap();
        // The same texts to embed: a new threshold never embeds again.
        assert_eq!(
            tried.embedding_texts(&text),
            default.embedding_texts(&text),
            "{id}"
        );
        let (a, b) = (with_fake(default, &text), with_fake(tried, &text));
        assert!(
            b.split(&text).unwrap().len() >= a.split(&text).unwrap().len(),
            "{id}"
        );
        for bad in [-1.0, 100.5, f64::NAN] {
            let b = Breakpoints {
                percentile: bad,
                chonkie_threshold: bad,
            };
            let refused = SemanticChunker::with_breakpoints(id, &settings, b)
                .unwrap()
                .and_then(|c| c.embedding_texts(&text));
            assert!(
                matches!(refused, Err(StrategyError::ParameterRefused { strategy, .. }) if strategy == id),
                "{id} {bad}: {refused:?}"
            );
        }
    }
    // The product's own cuts more at a low percentile on the two topics.
    let c = |p| {
        let b = Breakpoints {
            percentile: p,
            ..Breakpoints::default()
        };
        let c = SemanticChunker::with_breakpoints(StrategyId::Semantic, &settings, b)
            .unwrap()
            .unwrap();
        with_fake(c, &text).split(&text).unwrap().len()
    };
    assert!(c(10.0) > c(95.0), "{} {}", c(10.0), c(95.0));
}
