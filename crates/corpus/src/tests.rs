use super::*;

fn config(unit: &str, model: Option<&str>, strategies: &[&str]) -> Result<Config, ConfigError> {
    let strategies: Vec<String> = strategies.iter().map(|s| s.to_string()).collect();
    Config::new(64, 8, unit, "cl100k_base", model, None, &strategies)
}

#[test]
fn settings_are_checked_and_name_what_is_accepted() {
    assert_eq!(
        Config::new(0, 0, "tokens", "cl100k_base", None, None, &[]).unwrap_err(),
        ConfigError::ChunkSize(0)
    );
    assert!(matches!(config("words", None, &[]), Err(ConfigError::Unit(u)) if u == "words"));
    assert!(matches!(
        config("model", Some("openai-text-embedding-3-small"), &[]),
        Err(ConfigError::UnitNeedsOpenModel(m)) if m == "openai-text-embedding-3-small"
    ));
    let err = config("tokens", None, &["semantic"]).unwrap_err();
    assert_eq!(err, ConfigError::NeedsEmbeddings("semantic".into()));
    let err = config("tokens", None, &["langchain"])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("langchain-recursive") && err.contains("chonkie-token"),
        "{err}"
    );
    let err = config("tokens", Some("gpt-9"), &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("openai-text-embedding-3-small"), "{err}");
    assert!(matches!(
        Config::new(64, 0, "tokens", "p50k", None, None, &[]),
        Err(ConfigError::Encoding(_))
    ));
    assert!(matches!(
        Config::new(64, 0, "tokens", "cl100k_base", None, Some(f64::NAN), &[]),
        Err(ConfigError::Price(_))
    ));
    assert!(matches!(
        config("characters", None, &["langchain-token"]),
        Err(ConfigError::Unsupported { .. })
    ));
}

#[test]
fn the_price_is_the_given_one_else_the_models_else_the_calculators() {
    let price = |model, price| {
        Config::new(64, 0, "tokens", "cl100k_base", model, price, &[])
            .unwrap()
            .price_per_million
    };
    assert_eq!(price(None, None), DEFAULT_PRICE_PER_MILLION);
    assert_eq!(
        models::model("openai-text-embedding-3-small").and_then(|m| m.price_per_million_usd),
        Some(DEFAULT_PRICE_PER_MILLION),
        "the page's default price is its default model's"
    );
    assert_eq!(price(Some("openai-text-embedding-3-large"), None), 0.13);
    assert_eq!(price(Some("openai-text-embedding-3-large"), Some(1.5)), 1.5);
    let twice = config("tokens", None, &["fixed", "semchunk", "fixed"]).unwrap();
    assert_eq!(twice.strategies, [StrategyId::Fixed, StrategyId::Semchunk]);
    let all = config("tokens", None, &[]).unwrap();
    assert_eq!(all.storage_bytes(22), None, "no model, no dimensions");
    let minilm = config("tokens", Some("all-minilm-l6-v2"), &[]).unwrap();
    assert_eq!(minilm.storage_bytes(22), Some(22 * 384 * 4));
    assert_eq!(all.strategies, StrategyId::all().collect::<Vec<_>>());
}

const TEXTS: [&str; 3] = [
    "# Title\n\nA first paragraph. It has two sentences.\n\n## Part\n\nMore text here, and more.",
    "",
    "Один абзац по-русски. Zdanie po polsku! 日本語の文。\n\n```rust\nfn main() {}\n```\n",
];

#[test]
fn a_corpus_is_its_texts_rows_summed_in_any_order() {
    let c = config("tokens", Some("all-minilm-l6-v2"), &[]).unwrap();
    let limit = c.limit();
    let reports: Vec<TextReport> = TEXTS.iter().map(|t| compare_text(t, &c, &limit)).collect();
    let mut whole = Corpus::default();
    for r in &reports {
        whole.add(r);
    }
    let mut back = Corpus::default();
    let mut front = Corpus::default();
    back.add(&reports[2]);
    back.add(&reports[1]);
    front.add(&reports[0]);
    front.merge(&back);
    assert_eq!(whole.files, 3);
    assert_eq!(
        whole.bytes,
        TEXTS.iter().map(|t| t.len() as u64).sum::<u64>()
    );
    for ((s, a), (t, b)) in whole.rows.iter().zip(&front.rows) {
        assert_eq!(s, t);
        assert_eq!(a.total_tokens, b.total_tokens);
        assert_eq!(a.sizes, b.sizes);
        assert_eq!(a.p95_tokens(), b.p95_tokens());
    }
    for (strategy, row) in &whole.rows {
        let chunks: usize = reports
            .iter()
            .map(|r| {
                match &r
                    .rows
                    .iter()
                    .find(|x| x.strategy == *strategy)
                    .unwrap()
                    .outcome
                {
                    Outcome::Figures { summary, .. } => summary.chunks,
                    Outcome::Refused { .. } => 0,
                }
            })
            .sum();
        assert_eq!(row.chunks, chunks as u64, "{strategy}");
        assert_eq!(row.sizes.values().sum::<u64>(), row.chunks, "{strategy}");
        assert_eq!(row.files + row.refused_files, 3, "{strategy}");
    }
    // The model reads its own WordPiece tokens: the basis says the model's own tokenizer.
    let fixed = &whole
        .rows
        .iter()
        .find(|(s, _)| *s == StrategyId::Fixed)
        .unwrap()
        .1;
    assert_eq!(fixed.max_input_tokens, 256);
    assert!(matches!(
        fixed.limit_basis,
        Some(chunk_core::analysis::LimitBasis::Own)
    ));
}

#[test]
fn chunk_rows_are_the_export_rows_and_slice_the_text() {
    let c = config("tokens", None, &["langchain-recursive"]).unwrap();
    let text = TEXTS[2].repeat(20);
    let out = chunk_rows(
        &text,
        &[StrategyId::Recursive, StrategyId::LangchainToken],
        &c,
        None,
    );
    let rows = out[0].1.as_ref().unwrap();
    assert!(rows.len() > 1);
    let joined: String = rows
        .iter()
        .map(|r| &text[r.byte_start..r.byte_end])
        .collect();
    assert_eq!(
        joined, text,
        "the product's recursive splitter keeps every byte in order"
    );
    for r in rows {
        assert_eq!(r.tokens, Encoding::Cl100kBase.tokenizer().count(&r.text));
        assert!(r.tokens <= 64);
        assert_eq!(r.page_start, None);
    }
    assert_eq!(out[1].0, StrategyId::LangchainToken);
    let refused = chunk_rows(
        "x",
        &[StrategyId::LangchainToken],
        &Config::new(8, 9, "tokens", "cl100k_base", None, None, &[]).unwrap(),
        None,
    );
    assert_eq!(refused[0].1.as_ref().unwrap_err().kind, "overlap-refused");
}

#[test]
fn page_starts_are_checked() {
    assert_eq!(page_map(&[]), Ok(None));
    assert!(page_map(&[0, 10, 10, 40]).unwrap().is_some());
    assert_eq!(page_map(&[5, 3]), Err(ConfigError::PageStarts(vec![5, 3])));
    let c = config("tokens", None, &["fixed"]).unwrap();
    let text = TEXTS[0].repeat(30);
    let pages = page_map(&[0, text.len() / 2]).unwrap();
    let rows = chunk_rows(&text, &[StrategyId::Fixed], &c, pages.as_ref());
    let rows = rows[0].1.as_ref().unwrap();
    assert_eq!(rows[0].page_start, Some(1));
    assert_eq!(rows.last().unwrap().page_end, Some(2));
}

#[test]
fn sizing_in_a_models_tokens_installs_its_tokenizer() {
    let c = Config::new(
        32,
        0,
        "model",
        "cl100k_base",
        Some("all-minilm-l6-v2"),
        None,
        &["langchain-recursive".into()],
    )
    .unwrap();
    let text = TEXTS[0].repeat(10);
    let rows = chunk_rows(&text, &[StrategyId::LangchainRecursive], &c, None);
    let rows = rows[0].1.as_ref().unwrap();
    let bert = chunk_core::tokenizer::open::OpenVocab::BertUncased
        .loaded()
        .unwrap();
    for r in rows {
        assert!(bert.count(&r.text) <= 32, "{:?}", r.text);
    }
}
