//! Sentence embeddings as `sentence-transformers` computes them for a BERT model: the text
//! through the model's WordPiece tokenizer, truncated to `max_seq_length` tokens with `[CLS]`
//! and `[SEP]`, the encoder, then pooling (`1_Pooling/config.json`) and, when `modules.json`
//! lists `Normalize`, unit length.

use serde::Deserialize;

use chunk_core::tokenizer::wordpiece::WordPiece;

use crate::bert::{Bert, BertConfig};
use crate::safetensors::{LoadError, SafeTensors};

/// The files of a sentence-transformers model folder, as text (and the weights as bytes).
#[derive(Debug, Clone, Copy)]
pub struct ModelFiles<'a> {
    /// `config.json`.
    pub config: &'a str,
    /// `sentence_bert_config.json` (`max_seq_length`).
    pub sentence_bert_config: &'a str,
    /// `1_Pooling/config.json`.
    pub pooling: &'a str,
    /// `modules.json` (whether a `Normalize` module follows the pooling).
    pub modules: &'a str,
    /// `vocab.txt`.
    pub vocab: &'a str,
    /// `model.safetensors`.
    pub weights: &'a [u8],
}

/// How the token states become one vector (`1_Pooling/config.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// The mean over every token, `[CLS]` and `[SEP]` included (`pooling_mode_mean_tokens`).
    Mean,
    /// The `[CLS]` token's state (`pooling_mode_cls_token`).
    Cls,
}

#[derive(Deserialize)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
}

#[derive(Deserialize)]
struct SentenceBertConfig {
    max_seq_length: usize,
}

#[derive(Deserialize)]
struct Module {
    #[serde(rename = "type")]
    kind: String,
}

/// One text's embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedding {
    /// The sentence vector (`hidden_size` values; unit length when the model normalises).
    pub vector: Vec<f32>,
    /// The text's own tokens, before truncation (without `[CLS]` / `[SEP]`).
    pub text_tokens: usize,
    /// The tokens the model read, `[CLS]` and `[SEP]` included (at most `max_seq_length`).
    pub tokens_read: usize,
}

impl Embedding {
    /// Whether the model cut the text (some of its tokens were not read).
    pub fn truncated(&self) -> bool {
        self.text_tokens + 2 > self.tokens_read
    }
}

/// A sentence-transformers BERT model ready to embed texts.
#[derive(Debug, Clone)]
pub struct SentenceEncoder {
    bert: Bert,
    tokenizer: WordPiece,
    cls: u32,
    sep: u32,
    max_seq_length: usize,
    pooling: Pooling,
    normalize: bool,
}

impl SentenceEncoder {
    /// Loads a model folder's files.
    ///
    /// Errors: [`LoadError::Config`] for a configuration this encoder does not compute (a
    /// pooling other than mean or CLS alone, a `max_seq_length` over the model's positions or
    /// under 2, a vocabulary without `[CLS]` / `[SEP]` or with more entries than the model's
    /// word table), and the errors of
    /// [`BertConfig::from_json`], [`SafeTensors::parse`] and [`Bert::from_safetensors`].
    pub fn load(files: ModelFiles) -> Result<SentenceEncoder, LoadError> {
        let config = BertConfig::from_json(files.config)?;
        let bad = |e: serde_json::Error| LoadError::Config(e.to_string());
        let sentence: SentenceBertConfig =
            serde_json::from_str(files.sentence_bert_config).map_err(bad)?;
        let p: PoolingConfig = serde_json::from_str(files.pooling).map_err(bad)?;
        let modules: Vec<Module> = serde_json::from_str(files.modules).map_err(bad)?;
        let pooling = match (
            p.pooling_mode_mean_tokens,
            p.pooling_mode_cls_token,
            p.pooling_mode_max_tokens || p.pooling_mode_mean_sqrt_len_tokens,
        ) {
            (true, false, false) => Pooling::Mean,
            (false, true, false) => Pooling::Cls,
            _ => {
                return Err(LoadError::Config(
                    "the pooling is not mean or CLS alone".into(),
                ))
            }
        };
        let max_seq_length = sentence.max_seq_length;
        if !(2..=config.max_position_embeddings).contains(&max_seq_length) {
            return Err(LoadError::Config(format!(
                "max_seq_length {max_seq_length} is outside 2..={}",
                config.max_position_embeddings
            )));
        }
        let entries = files.vocab.lines().count();
        if entries > config.vocab_size {
            return Err(LoadError::Config(format!(
                "vocab.txt has {entries} entries, the model {}",
                config.vocab_size
            )));
        }
        let tokenizer = WordPiece::from_vocab(files.vocab)
            .map_err(|e| LoadError::Config(format!("vocab.txt: {e}")))?;
        let special = |t: &str| {
            tokenizer
                .special_id(t)
                .ok_or_else(|| LoadError::Config(format!("vocab.txt has no {t}")))
        };
        let (cls, sep) = (special("[CLS]")?, special("[SEP]")?);
        let weights = SafeTensors::parse(files.weights)?;
        Ok(SentenceEncoder {
            bert: Bert::from_safetensors(config, &weights)?,
            normalize: modules
                .iter()
                .any(|m| m.kind == "sentence_transformers.models.Normalize"),
            tokenizer,
            cls,
            sep,
            max_seq_length,
            pooling,
        })
    }

    /// The same model with int8 linear layers ([`Bert::quantize_int8`]).
    pub fn quantize_int8(&self) -> SentenceEncoder {
        SentenceEncoder {
            bert: self.bert.quantize_int8(),
            ..self.clone()
        }
    }

    /// The encoder.
    pub fn bert(&self) -> &Bert {
        &self.bert
    }

    /// The longest input, in tokens, `[CLS]` and `[SEP]` included.
    pub fn max_seq_length(&self) -> usize {
        self.max_seq_length
    }

    /// The ids the model reads for `text`: `[CLS]`, the text's first `max_seq_length − 2`
    /// tokens, `[SEP]` (Hugging Face's truncation `longest_first` of one sequence), and the
    /// number of the text's tokens before the cut.
    pub fn input_ids(&self, text: &str) -> (Vec<u32>, usize) {
        let ids = self.tokenizer.encode(text);
        let keep = ids.len().min(self.max_seq_length - 2);
        let mut input = Vec::with_capacity(keep + 2);
        input.push(self.cls);
        input.extend_from_slice(&ids[..keep]);
        input.push(self.sep);
        (input, ids.len())
    }

    /// The embedding of `text` (an empty text is `[CLS] [SEP]`, as the library embeds it).
    pub fn embed(&self, text: &str) -> Embedding {
        let (ids, text_tokens) = self.input_ids(text);
        let h = self.bert.config().hidden_size;
        let states = self.bert.forward(&ids);
        let mut vector = match self.pooling {
            Pooling::Cls => states[..h].to_vec(),
            Pooling::Mean => {
                let mut sum = vec![0f64; h];
                for row in states.chunks_exact(h) {
                    for (s, v) in sum.iter_mut().zip(row) {
                        *s += f64::from(*v);
                    }
                }
                let n = ids.len() as f64;
                sum.iter().map(|s| (s / n) as f32).collect()
            }
        };
        if self.normalize {
            normalize(&mut vector);
        }
        Embedding {
            vector,
            text_tokens,
            tokens_read: ids.len(),
        }
    }
}

/// Scales `v` to unit length, as `torch.nn.functional.normalize` does (a length under 10⁻¹²
/// is taken as 10⁻¹², so a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let norm = v
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt()
        .max(1e-12);
    for x in v {
        *x = (f64::from(*x) / norm) as f32;
    }
}

/// The cosine of two vectors, in f64: the core's, which the dense retriever ranks by.
pub use chunk_core::retrieval::dense::cosine;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_and_normalize() {
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 2.0]), 0.0);
        assert!((cosine(&[1.0, 1.0], &[2.0, 2.0]) - 1.0).abs() < 1e-12);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
        let mut v = [3.0, 4.0];
        normalize(&mut v);
        assert_eq!(v, [0.6, 0.8]);
        let mut z = [0.0, 0.0];
        normalize(&mut z);
        assert_eq!(z, [0.0, 0.0]);
    }
}
