//! The gate's documents, tokenized once per tokenizer (cl100k_base is the slow step).

use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::documents::{default_document, Preset};
use chunk_core::sim::{Prepared, TokenizerChoice};
use chunk_core::tokenizer::Encoding;
use chunk_core::Lang;
use std::sync::OnceLock;

/// One document of the gate.
pub struct Doc {
    pub name: String,
    pub text: &'static str,
}

/// The 12 gate documents of different character, then every preset in every language.
pub fn documents() -> Vec<Doc> {
    let mut docs: Vec<Doc> = [
        ("prose", include_str!("../../docs/gate_prose.txt")),
        ("list", include_str!("../../docs/gate_list.txt")),
        ("code", include_str!("../../docs/gate_code.txt")),
        ("markdown", include_str!("../../docs/gate_markdown.txt")),
        ("fences", include_str!("../../docs/gate_fences.txt")),
        ("cjk", include_str!("../../docs/gate_cjk.txt")),
        ("vietnamese", include_str!("../../docs/gate_vietnamese.txt")),
        ("russian", include_str!("../../docs/gate_russian.txt")),
        (
            "long sentence",
            include_str!("../../docs/gate_long_sentence.txt"),
        ),
        ("very short", include_str!("../../docs/gate_short.txt")),
        (
            "whitespace only",
            include_str!("../../docs/gate_whitespace.txt"),
        ),
        ("empty", ""),
        ("repeated", include_str!("../../docs/gate_repeated.txt")),
    ]
    .into_iter()
    .map(|(n, t)| Doc {
        name: n.to_string(),
        text: t,
    })
    .collect();
    for lang in Lang::ALL {
        docs.push(Doc {
            name: format!("manual {}", lang.code()),
            text: default_document(lang),
        });
    }
    for preset in [Preset::UnevenSentences, Preset::OneSentence] {
        for lang in [Lang::En, Lang::Vi] {
            docs.push(Doc {
                name: format!("{preset:?} {}", lang.code()),
                text: preset.text(lang),
            });
        }
    }
    docs
}

/// A document prepared under one tokenizer and one sentence rule.
pub struct PreparedDoc {
    pub name: String,
    pub text: &'static str,
    pub tokenizer: TokenizerChoice,
    pub rule: SentenceRule,
    pub prepared: Prepared,
}

/// The tokenizers the gate sweeps.
pub const TOKENIZERS: [TokenizerChoice; 2] = [
    TokenizerChoice::Simple,
    TokenizerChoice::Bpe(Encoding::Cl100kBase),
];

/// Every document × tokenizer × sentence rule, tokenized once per document and tokenizer,
/// shared by all tests of the binary.
pub fn prepared() -> &'static [PreparedDoc] {
    static CACHE: OnceLock<Vec<PreparedDoc>> = OnceLock::new();
    CACHE.get_or_init(|| {
        let mut out = Vec::new();
        for doc in documents() {
            for tokenizer in TOKENIZERS {
                let tokens = tokenizer.tokenize(doc.text);
                for rule in SentenceRule::ALL {
                    out.push(PreparedDoc {
                        name: doc.name.clone(),
                        text: doc.text,
                        tokenizer,
                        rule,
                        prepared: Prepared::from_tokens(doc.text, tokens.clone(), rule),
                    });
                }
            }
        }
        out
    })
}
