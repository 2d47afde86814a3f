//! A strategy's refusal ([`StrategyError`]) as owned data: a stable kind and named fields, so
//! that it can cross to the page (from the comparison worker) and be worded there in every
//! language with the same placeholders.

use crate::strategy::StrategyError;
use serde::{Deserialize, Serialize};

/// A [`StrategyError`] as data: `kind` names the variant, `fields` its values by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The variant, kebab-case: `"zero-chunk-size"`, `"overlap-refused"`,
    /// `"unit-unsupported"` (`unit` = `"tokens"`, `"characters"` or
    /// `"model"`), `"tokenizer-not-loaded"` (`vocab`), `"model-decode"`, `"text-refused"`,
    /// `"character-over-chunk-size"`, `"recursion-limit"`, `"parameter-refused"`,
    /// `"metadata-over-chunk-size"` (`metadata_length`, `chunk_size`, `byte_offset`),
    /// `"prefix-over-budget"` (`prefix_length`, `chunk_size`, `byte_offset`),
    /// `"embeddings-needed"` (`strategy`: a semantic strategy run without its embeddings),
    /// `"sentence-embeddings-failed"` (`message`: a semantic row or selection whose sentence
    /// embeddings could not be had, [`Refusal::sentence_embeddings_failed`]),
    /// `"embeddings-failed"` (`message`: a dense or hybrid row whose embeddings could not be
    /// had, [`Refusal::embeddings_failed`]).
    pub kind: String,
    /// The variant's values by field name (`"library"`, `"chunk_size"`, `"byte_offset"`, …),
    /// numbers in decimal, names as the core spells them.
    pub fields: Vec<(String, String)>,
    /// The English sentence ([`StrategyError`]'s `Display`), for logs and as a fallback.
    pub english: String,
}

impl Refusal {
    /// A dense or hybrid row that could not be ranked: the embedding model could not give its
    /// embeddings (`message`, English, from the embedding worker). Not a strategy's refusal:
    /// the row's BM25 twin still ranks.
    pub fn embeddings_failed(message: &str) -> Refusal {
        Refusal {
            kind: "embeddings-failed".into(),
            fields: vec![("message".into(), message.to_owned())],
            english: format!("the embeddings could not be had: {message}"),
        }
    }

    /// A semantic strategy that could not cut: the embedding model could not embed its
    /// sentences (`message`, English, from the embedding worker or the comparison worker).
    pub fn sentence_embeddings_failed(message: &str) -> Refusal {
        Refusal {
            kind: "sentence-embeddings-failed".into(),
            fields: vec![("message".into(), message.to_owned())],
            english: format!("the sentences could not be embedded: {message}"),
        }
    }

    /// The value of field `name`, if the refusal has it.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl From<&StrategyError> for Refusal {
    fn from(e: &StrategyError) -> Self {
        use StrategyError as E;
        let f = |pairs: &[(&str, String)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect()
        };
        let (kind, fields) = match e {
            E::Params(crate::params::ParamsError::ZeroChunkSize) => ("zero-chunk-size", Vec::new()),
            E::OverlapRefused {
                strategy,
                library,
                chunk_size,
                chunk_overlap,
            } => (
                "overlap-refused",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("library", (*library).to_owned()),
                    ("chunk_size", chunk_size.to_string()),
                    ("chunk_overlap", chunk_overlap.to_string()),
                ]),
            ),
            E::UnitUnsupported { strategy, unit } => (
                "unit-unsupported",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("unit", unit.code().to_owned()),
                ]),
            ),
            E::EmbeddingsNeeded { strategy } => (
                "embeddings-needed",
                f(&[("strategy", strategy.to_string())]),
            ),
            E::TokenizerNotLoaded { vocab } => (
                "tokenizer-not-loaded",
                f(&[("vocab", vocab.code().to_owned())]),
            ),
            E::ModelDecode {
                strategy,
                byte_offset,
            } => (
                "model-decode",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("byte_offset", byte_offset.to_string()),
                ]),
            ),
            E::TextRefused {
                strategy,
                library,
                byte_offset,
                found,
            } => (
                "text-refused",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("library", (*library).to_owned()),
                    ("byte_offset", byte_offset.to_string()),
                    ("found", (*found).to_owned()),
                ]),
            ),
            E::CharacterOverChunkSize {
                strategy,
                library,
                byte_offset,
                tokens,
                chunk_size,
            } => (
                "character-over-chunk-size",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("library", (*library).to_owned()),
                    ("byte_offset", byte_offset.to_string()),
                    ("tokens", tokens.to_string()),
                    ("chunk_size", chunk_size.to_string()),
                ]),
            ),
            E::RecursionLimit {
                strategy,
                library,
                byte_offset,
            } => (
                "recursion-limit",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("library", (*library).to_owned()),
                    ("byte_offset", byte_offset.to_string()),
                ]),
            ),
            E::ParameterRefused {
                strategy,
                parameter,
                detail,
            } => (
                "parameter-refused",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("parameter", (*parameter).to_owned()),
                    ("detail", (*detail).to_owned()),
                ]),
            ),
            E::MetadataOverChunkSize {
                strategy,
                library,
                metadata_length,
                chunk_size,
                byte_offset,
            } => (
                "metadata-over-chunk-size",
                f(&[
                    ("strategy", strategy.to_string()),
                    ("library", (*library).to_owned()),
                    ("metadata_length", metadata_length.to_string()),
                    ("chunk_size", chunk_size.to_string()),
                    ("byte_offset", byte_offset.to_string()),
                ]),
            ),
            E::PrefixOverBudget {
                prefix_length,
                chunk_size,
                byte_offset,
            } => (
                "prefix-over-budget",
                f(&[
                    ("prefix_length", prefix_length.to_string()),
                    ("chunk_size", chunk_size.to_string()),
                    ("byte_offset", byte_offset.to_string()),
                ]),
            ),
        };
        Refusal {
            kind: kind.to_owned(),
            fields,
            english: e.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, Settings, SizeUnit, StrategyId};
    use crate::tokenizer::Encoding;

    #[test]
    fn a_library_refusal_keeps_its_numbers_by_name() {
        let s = Settings {
            chunk_size: 100,
            chunk_overlap: 150,
            unit: SizeUnit::Characters,
            encoding: Encoding::Cl100kBase,
        };
        let err = chunker(StrategyId::LangchainRecursive, &s)
            .err()
            .expect("LangChain refuses an overlap over the size");
        let r = Refusal::from(&err);
        assert_eq!(r.kind, "overlap-refused");
        assert_eq!(r.field("chunk_size"), Some("100"));
        assert_eq!(r.field("chunk_overlap"), Some("150"));
        assert_eq!(r.field("library"), Some("langchain-text-splitters"));
        assert_eq!(r.field("strategy"), Some("langchain-recursive"));
        assert_eq!(r.field("nothing"), None);
        assert_eq!(r.english, err.to_string());
        let zero = Refusal::from(&StrategyError::Params(
            crate::params::ParamsError::ZeroChunkSize,
        ));
        assert_eq!(
            (zero.kind.as_str(), zero.fields.len()),
            ("zero-chunk-size", 0)
        );
    }
}
