//! The embedding models' words (SPEC §7): the model catalog's messages ([`messages`]) and the
//! helpers that word a model's limit, tokenizer and vector format for the settings form, the
//! comparison table and the model panel (`crate::compare::model_panel`). The chosen model is
//! the context `crate::state::model::ModelSettings`. A lower layer: it reads the page's state
//! and the core, and no section of the page.

pub mod messages;

pub use crate::state::model::{
    provide, ModelResults, ModelSettings, OpenCount, OpenStatus, DEFAULT_MODEL,
};

use crate::model::messages::args as model_msg;
use chunk_core::analysis::LimitBasis;
use chunk_core::models::{EmbeddingModel, ModelTokenizer, VectorFormat};
use chunk_core::tokenizer::Encoding;

use crate::format;
use crate::i18n::Lang;
use messages::Mm;

/// The budget of a chunk's own text under `model`'s limit in tokens of `encoding`, as the
/// model panel's `out-model-limit` and the formula's over-limit count (no text) take it:
/// [`EmbeddingModel::chunk_budget`] (the limit less the special tokens and the required
/// prefix); `usize::MAX` (nothing is over) without a model or a confirmed limit. The
/// comparison's rows count the real chunks in the model's own tokens instead
/// (`chunk_core::limit::LimitCheck`).
pub fn chunk_budget(model: Option<&EmbeddingModel>, encoding: Encoding) -> usize {
    model
        .and_then(|m| m.chunk_budget(encoding))
        .unwrap_or(usize::MAX)
}

/// The word for a field named in [`EmbeddingModel::unconfirmed`] (the core's field names).
pub(crate) fn field_word(field: &str) -> Mm {
    match field {
        "max_input_tokens" => Mm::FieldLimit,
        "price_per_million_usd" => Mm::FieldPrice,
        _ => Mm::FieldDims,
    }
}

/// The words of a model's tokenizer (`WordPiece (bert-base-uncased)`, …).
pub(crate) fn tokenizer_name(t: ModelTokenizer) -> &'static str {
    match t {
        ModelTokenizer::Bpe(e) | ModelTokenizer::Proxy(e) => e.name(),
        other => other.open_vocab().map_or("", |v| v.label()),
    }
}

/// Why the counts are estimates for `model` when they are ([`EmbeddingModel::is_estimate`]),
/// counted with `encoding`: the vendor publishes no tokenizer, or the page does not ship the
/// model's own yet. `None` when the counts are the model's own.
pub fn estimate_hint(
    lang: Lang,
    model: &EmbeddingModel,
    encoding: Encoding,
    sized_in: chunk_core::strategy::SizeUnit,
) -> Option<String> {
    match model.tokenizer {
        _ if model.counts_exactly_with(encoding) => None,
        other if matches!(sized_in, chunk_core::strategy::SizeUnit::Model(_)) => Some(
            model_msg::HintOpenSized {
                tokenizer: tokenizer_name(other),
                encoding: encoding.name(),
            }
            .fill(lang),
        ),
        ModelTokenizer::Bpe(own) => Some(
            model_msg::HintMismatch {
                own: own.name(),
                encoding: encoding.name(),
            }
            .fill(lang),
        ),
        ModelTokenizer::Proxy(_) => Some(
            model_msg::HintProxy {
                provider: model.provider,
                encoding: encoding.name(),
            }
            .fill(lang),
        ),
        other => Some(
            model_msg::HintOpenDocument {
                tokenizer: tokenizer_name(other),
                encoding: encoding.name(),
            }
            .fill(lang),
        ),
    }
}

/// The `data-basis` code of a [`LimitBasis`]: `chunk-tokens`, `own`, `proxy` or `stand-in`.
pub fn limit_basis_code(basis: LimitBasis) -> &'static str {
    match basis {
        LimitBasis::ChunkTokens => "chunk-tokens",
        LimitBasis::Own => "own",
        LimitBasis::Proxy(_) => "proxy",
        LimitBasis::StandIn(_) => "stand-in",
    }
}

/// `"≈ "` before a figure counted with a stand-in or proxy tokenizer, nothing before an exact
/// one.
pub fn approx_mark(basis: LimitBasis) -> &'static str {
    if basis.is_exact() {
        ""
    } else {
        "≈ "
    }
}

/// The `vector-format` option value of `f` (also its key in the settings link).
pub(crate) fn format_code(f: VectorFormat) -> &'static str {
    match f {
        VectorFormat::Float32 => "float32",
        VectorFormat::Float16 => "float16",
        VectorFormat::Int8 => "int8",
        VectorFormat::Binary => "binary",
    }
}

/// The comparison table's note on the limit: which model truncates chunks over which input
/// limit (in its own tokens, with what it adds), and that the counts are estimates where the
/// vendor publishes no tokenizer.
pub fn limit_note(lang: Lang, model: Option<&EmbeddingModel>) -> String {
    match model.and_then(|m| m.max_input_tokens.map(|l| (m, l))) {
        Some((m, limit)) => {
            let note = model_msg::LimitNote {
                limit: &format::int(lang, limit as u64),
                model: m.name,
            }
            .fill(lang);
            // Every chunk is counted with the model's own tokenizer, except where the vendor
            // publishes none.
            if m.tokenizer.is_exact() {
                note
            } else {
                format!("{note} {}", messages::text(lang, Mm::LimitEstimate))
            }
        }
        None => match model {
            Some(m) => model_msg::LimitUnknown { model: m.name }.fill(lang),
            None => messages::text(lang, Mm::NoLimitNote).to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::models::{model, MODELS};

    #[test]
    fn the_default_model_is_the_calculators_defaults() {
        let m = model(DEFAULT_MODEL).expect("in the table");
        assert_eq!(
            m.tokenizer,
            ModelTokenizer::Bpe(chunk_core::tokenizer::Encoding::Cl100kBase)
        );
        assert_eq!(m.price_per_million_usd, Some(0.02));
        assert_eq!(crate::parse::RawInputs::default().price, "0.02");
        assert_eq!(chunk_budget(Some(m), Encoding::Cl100kBase), 8_191);
        assert_eq!(chunk_budget(None, Encoding::Cl100kBase), usize::MAX);
        let tokens = chunk_core::strategy::SizeUnit::Tokens;
        assert_eq!(
            estimate_hint(Lang::En, m, Encoding::Cl100kBase, tokens),
            None
        );
        let mismatch =
            estimate_hint(Lang::En, m, Encoding::O200kBase, tokens).expect("an estimate");
        assert!(mismatch.contains("cl100k_base") && mismatch.contains("o200k_base"));
        // An open model: the note says which tokenizer cuts the chunks.
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let bert = chunk_core::strategy::SizeUnit::Model(
            chunk_core::tokenizer::open::OpenVocab::BertUncased,
        );
        let sized = estimate_hint(Lang::En, bge, Encoding::Cl100kBase, bert).expect("a note");
        assert!(sized.contains("cuts the chunks"), "{sized}");
        let not = estimate_hint(Lang::En, bge, Encoding::Cl100kBase, tokens).expect("a note");
        assert!(
            not.contains("are cut and measured with cl100k_base"),
            "{not}"
        );
    }

    #[test]
    fn every_unconfirmed_field_has_a_word() {
        for m in MODELS {
            for f in m.unconfirmed {
                assert!(
                    ["max_input_tokens", "price_per_million_usd", "dimensions"].contains(f),
                    "{}: {f}",
                    m.id
                );
            }
        }
        assert_eq!(field_word("price_per_million_usd"), Mm::FieldPrice);
    }

    #[test]
    fn the_limit_note_names_the_model_and_its_budget_in_every_language() {
        let mini = model("all-minilm-l6-v2").expect("all-MiniLM-L6-v2 is in the table");
        let voyage = model("voyage-3-5").expect("voyage-3.5 is in the table");
        for lang in Lang::ALL {
            // Counted with its own WordPiece: exact, against its whole input of 256.
            let t = limit_note(lang, Some(mini));
            assert!(t.contains("256") && t.contains(mini.name), "{lang:?}: {t}");
            let estimate = messages::text(lang, Mm::LimitEstimate);
            assert!(!t.contains(estimate), "{lang:?}: {t}");
            // A vendor without a public tokenizer: a proxy, said to be an estimate.
            assert!(
                limit_note(lang, Some(voyage)).contains(estimate),
                "{lang:?}"
            );
            assert!(!limit_note(lang, None).contains('{'));
        }
    }
}
