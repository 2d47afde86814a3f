//! Static (model2vec) sentence embeddings: a table of one vector per token; a text's vector is
//! the mean of the rows of its token ids, scaled to unit length when the model says so. The
//! model here is minishlab/potion-base-8M (`embeddings` F32 [29528, 256], a WordPiece
//! tokenizer).
//!
//! Every rule follows model2vec 0.10.0's `StaticModel.encode` (`model2vec/model.py`), which
//! `tests/static_reference.rs` runs on the same folder:
//! 1. **Characters** (`_encode_dispatch`): the text is cut to its first
//!    `max_length × median_token_length` characters (Unicode scalar values, as Python counts
//!    them), before any tokenizing. `median_token_length` is computed in `__init__`:
//!    `int(np.median([len(token) for token in tokens]))` over the vocabulary in id order, the
//!    `##` prefix counted.
//! 2. **Tokens** (`tokenize`): `tokenizer.encode_batch_fast(sentences, add_special_tokens=False)`
//!    — no `[CLS]` / `[SEP]`, but special tokens written in the text are their ids —, with the
//!    tokenizer's truncation set to `max_length` (`_set_max_length_in_tokenizer`:
//!    `enable_truncation(max_length)`, so the first `max_length` ids are kept); *then* every
//!    `[UNK]` id is removed (`_get_unk_token_id`: the id of the WordPiece model's `unk_token`).
//!    So a cut `[UNK]` still takes one of the `max_length` places.
//! 3. **Mean** (`_encode_batch`): the rows of the ids, averaged (`mean(axis=1)` in float32: a
//!    running float32 sum in token order, divided by the count); a text with no id left is the
//!    zero vector. Per-token `weights` (a tensor of the file, when present) multiply each row
//!    first (`_encode_helper`).
//! 4. **Normalisation** (`_encode_batch`): when `normalize`, `v / (‖v‖ + 1e-32)` in float32,
//!    so the zero vector stays zero; `‖v‖` is `np.linalg.norm`'s, whose sum of squares numpy
//!    adds pairwise (`pairwise_sum` here, in numpy's order).
//!
//! Summed in numpy's order, the vectors equal model2vec's bit for bit (measured on the test's
//! texts, `tests/static_reference.rs`).
//!
//! `max_length` is config.json's `max_length`: 512 when the key is absent
//! (`_loading_helper`, `DEFAULT_MAX_LENGTH`), no cut at all when it is `null`;
//! `normalize` is config.json's `normalize`, false when absent (`_DEFAULT_NORMALIZE`).
//! potion-base-8M's config has no `max_length` and `"normalize": true`: at most 3,072
//! characters (512 × a median of 6) and 512 tokens, unit vectors.
//!
//! The tokenizer is the core's exact WordPiece (`chunk_core::tokenizer::wordpiece`), read from a
//! `vocab.txt` that `scripts/ensure-models.sh` writes from the model's `tokenizer.json`. It
//! matches the BERT special tokens (`[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]`) written in the
//! text, which are potion-base-8M's added tokens; a model whose `tokenizer.json` adds others is
//! not read correctly by it.

use std::collections::HashSet;

use serde_json::Value;

use chunk_core::tokenizer::wordpiece::WordPiece;

use crate::ops::{axpy, dequantize_rows, quantize_rows};
use crate::safetensors::{LoadError, SafeTensors};

/// The token limit when config.json names none (model2vec 0.10.0, `model2vec/model.py`:
/// `DEFAULT_MAX_LENGTH`, used by `_loading_helper`).
pub const DEFAULT_MAX_LENGTH: usize = 512;

/// The name of the token table in a model2vec `model.safetensors` (model2vec 0.10.0,
/// `model2vec/persistence/persistence.py`, `load_pretrained`: `"embeddings"` for the model2vec
/// folder layout).
pub const TABLE: &str = "embeddings";

/// The per-row scales of an int8 [`TABLE`] (`F32`, [vocabulary size]), in the site's copy.
pub const TABLE_SCALE: &str = "embeddings_scale";

/// The files of a model2vec model folder.
#[derive(Debug, Clone, Copy)]
pub struct StaticFiles<'a> {
    /// `config.json` (`normalize`, `max_length`).
    pub config: &'a str,
    /// `vocab.txt`: the tokenizer's vocabulary, an entry a line in id order (written from
    /// `tokenizer.json` by `scripts/ensure-models.sh`).
    pub vocab: &'a str,
    /// `model.safetensors`: the table [`TABLE`] (F32, [vocabulary size, dimensions]) and, for
    /// some models, per-token `weights` (F32, [vocabulary size]).
    pub weights: &'a [u8],
}

/// One text's static embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticEmbedding {
    /// The sentence vector ([`StaticEncoder::dim`] values; unit length when the model
    /// normalises, all zeros when no token was read).
    pub vector: Vec<f32>,
    /// The ids averaged: after both cuts, `[UNK]` removed.
    pub tokens_read: usize,
    /// Whether a cut left some of the text out: characters past
    /// [`StaticEncoder::char_limit`], or tokens past [`StaticEncoder::max_length`].
    pub truncated: bool,
}

/// A model2vec static model ready to embed texts (module docs for its rules).
#[derive(Debug, Clone)]
pub struct StaticEncoder {
    /// The token table, row-major: `rows × dim` values.
    table: Vec<f32>,
    dim: usize,
    /// Per-token factors, when the file has `weights`.
    token_weights: Option<Vec<f32>>,
    tokenizer: WordPiece,
    unk: u32,
    max_length: Option<usize>,
    median_token_length: usize,
    normalize: bool,
}

impl StaticEncoder {
    /// Loads a model folder's files.
    ///
    /// Errors: [`LoadError::Config`] when config.json is not a JSON object, its `normalize` is
    /// not a boolean or its `max_length` not a non-negative integer or `null`; when vocab.txt
    /// is empty, repeats an entry or has no `[UNK]`; when the file has a `mapping` tensor
    /// (vocabulary quantization, not supported). [`LoadError::Missing`] without the table
    /// [`TABLE`]; [`LoadError::Mismatch`] when the table is not F32 of shape `[vocabulary
    /// size, d > 0]` or `weights` not F32 `[vocabulary size]`; and the errors of
    /// [`SafeTensors::parse`].
    pub fn load(files: StaticFiles) -> Result<StaticEncoder, LoadError> {
        let config: Value = serde_json::from_str(files.config)
            .map_err(|e| LoadError::Config(format!("config.json: {e}")))?;
        let config = config
            .as_object()
            .ok_or_else(|| LoadError::Config("config.json is not an object".into()))?;
        let normalize = match config.get("normalize") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                return Err(LoadError::Config(format!(
                    "config.json: normalize is {v}, not a boolean"
                )))
            }
        };
        let max_length = match config.get("max_length") {
            None => Some(DEFAULT_MAX_LENGTH),
            Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| LoadError::Config(format!("config.json: max_length is {v}")))?,
            ),
        };

        let tokens: Vec<&str> = files.vocab.lines().map(str::trim_end).collect();
        let mut seen = HashSet::with_capacity(tokens.len());
        if let Some(dup) = tokens.iter().find(|t| !seen.insert(**t)) {
            return Err(LoadError::Config(format!(
                "vocab.txt: the entry {dup:?} appears twice"
            )));
        }
        let tokenizer = WordPiece::from_vocab(files.vocab)
            .map_err(|e| LoadError::Config(format!("vocab.txt: {e}")))?;
        let median_token_length = median_length(&tokens);

        let file = SafeTensors::parse(files.weights)?;
        if file.info("mapping").is_some() {
            return Err(LoadError::Config(
                "the model's vocabulary is quantized (tensor \"mapping\"), which is not supported"
                    .into(),
            ));
        }
        let info = file
            .info(TABLE)
            .ok_or_else(|| LoadError::Missing(TABLE.to_owned()))?;
        let rows = tokens.len();
        let dim = match info.shape[..] {
            [r, d] if r == rows && d > 0 => d,
            _ => {
                return Err(LoadError::Mismatch {
                    name: TABLE.to_owned(),
                    found: format!("{} {:?}", info.dtype, info.shape),
                    expected: format!("F32 [{rows}, d > 0] ({rows} vocabulary entries)"),
                })
            }
        };
        // An int8 table (the site's copy, `crate::site`): `I8` rows and one `F32` scale a row,
        // read back as the products `q × scale`, the table [`StaticEncoder::quantize_int8`]
        // holds.
        let table = if info.dtype == "I8" {
            let q = file.i8(TABLE, &[rows, dim])?;
            let scale = file.f32(TABLE_SCALE, &[rows])?;
            dequantize_rows(&q, &scale, dim)
        } else {
            file.f32(TABLE, &[rows, dim])?
        };
        let token_weights = match file.info("weights") {
            Some(_) => Some(file.f32("weights", &[rows])?),
            None => None,
        };
        Ok(StaticEncoder {
            table,
            dim,
            token_weights,
            unk: tokenizer.unk_id(),
            tokenizer,
            max_length,
            median_token_length,
            normalize,
        })
    }

    /// The vector's length (the table's columns; 256 for potion-base-8M).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The vocabulary's size (the table's rows; 29,528 for potion-base-8M).
    pub fn vocab_size(&self) -> usize {
        self.table.len() / self.dim
    }

    /// The most tokens read, `[UNK]` included (the cut comes before their removal); `None`
    /// when the model cuts nothing.
    pub fn max_length(&self) -> Option<usize> {
        self.max_length
    }

    /// `int(np.median(...))` of the vocabulary's lengths in characters, `##` included (6 for
    /// potion-base-8M).
    pub fn median_token_length(&self) -> usize {
        self.median_token_length
    }

    /// The most characters read: `max_length × median_token_length`, `None` when the model
    /// cuts nothing.
    pub fn char_limit(&self) -> Option<usize> {
        self.max_length
            .map(|m| m.saturating_mul(self.median_token_length))
    }

    /// Whether [`StaticEncoder::embed`] scales the vectors to unit length (config.json's
    /// `normalize`).
    pub fn normalizes(&self) -> bool {
        self.normalize
    }

    /// The memory the table (and weights) take, in bytes.
    pub fn bytes(&self) -> usize {
        (self.table.len() + self.token_weights.as_ref().map_or(0, Vec::len)) * 4
    }

    /// The table in int8 per row ([`quantize_rows`]): the values (rows × [`StaticEncoder::dim`])
    /// and one scale a row, what the site's copy stores as [`TABLE`] (`I8`) and
    /// [`TABLE_SCALE`]; [`StaticEncoder::load`] reads them back as
    /// [`StaticEncoder::quantize_int8`]'s table.
    pub fn int8_table(&self) -> (Vec<i8>, Vec<f32>) {
        quantize_rows(&self.table, self.dim)
    }

    /// The per-token weights, when the model has them (`weights`, one a vocabulary entry).
    pub fn token_weights(&self) -> Option<&[f32]> {
        self.token_weights.as_deref()
    }

    /// A copy whose table holds int8 values per row ([`quantize_rows`], the BERT weights' rule),
    /// kept as the `f32` products `q × scale`, so that a table read from int8 gives these same
    /// vectors bit for bit. The per-token weights stay as they are.
    pub fn quantize_int8(&self) -> StaticEncoder {
        let (q, scales) = self.int8_table();
        StaticEncoder {
            table: dequantize_rows(&q, &scales, self.dim),
            ..self.clone()
        }
    }

    /// The ids averaged for `text`: the character cut, the tokenizer, the token cut, then
    /// `[UNK]` removed (module docs, rules 1 and 2) — model2vec's `tokenize` on the cut text.
    pub fn ids(&self, text: &str) -> Vec<u32> {
        self.read(text).0
    }

    /// The ids and whether a cut left something out.
    fn read(&self, text: &str) -> (Vec<u32>, bool) {
        let (text, mut truncated) = match self.char_limit() {
            Some(limit) => match text.char_indices().nth(limit) {
                Some((at, _)) => (&text[..at], true),
                None => (text, false),
            },
            None => (text, false),
        };
        let mut ids = self.tokenizer.encode(text);
        if let Some(max) = self.max_length {
            if ids.len() > max {
                ids.truncate(max);
                truncated = true;
            }
        }
        ids.retain(|&id| id != self.unk);
        (ids, truncated)
    }

    /// The embedding of `text`, normalised as config.json says (model2vec's `encode(text)`).
    pub fn embed(&self, text: &str) -> StaticEmbedding {
        self.embed_with(text, self.normalize)
    }

    /// The embedding of `text`, normalised or not whatever config.json says (model2vec's
    /// `encode(text, normalize=...)`).
    pub fn embed_with(&self, text: &str, normalize: bool) -> StaticEmbedding {
        let (ids, truncated) = self.read(text);
        let mut sum = vec![0f32; self.dim];
        for &id in &ids {
            let at = id as usize * self.dim;
            // Every id is a line of vocab.txt, and the table has one row per line.
            let Some(row) = self.table.get(at..at + self.dim) else {
                continue;
            };
            // `sum += w · row` (w = 1 without weights: `1 · v` is `v` exactly), in wasm SIMD
            // where the build has it (`ops::axpy`, the same additions lane by lane).
            let w = match &self.token_weights {
                None => 1.0,
                Some(w) => w.get(id as usize).copied().unwrap_or(0.0),
            };
            axpy(&mut sum, w, row);
        }
        let mut vector = sum;
        if !ids.is_empty() {
            // numpy's float32 mean divides the float32 sum by the count in float64.
            let n = ids.len() as f64;
            vector
                .iter_mut()
                .for_each(|v| *v = (f64::from(*v) / n) as f32);
        }
        if normalize {
            let squares: Vec<f32> = vector.iter().map(|v| v * v).collect();
            let norm = pairwise_sum(&squares).sqrt() + 1e-32;
            vector.iter_mut().for_each(|v| *v /= norm);
        }
        StaticEmbedding {
            vector,
            tokens_read: ids.len(),
            truncated,
        }
    }
}

/// numpy's float32 sum along a contiguous axis, as `np.linalg.norm` takes it (numpy's
/// `pairwise_sum` in `loops_utils.h.src`, from 0): under 8 values one after the other; up to
/// 128 in 8 running sums added in a fixed tree, then the rest; more split in two at half the
/// length rounded down to a multiple of 8. The same order gives the same float32 result.
fn pairwise_sum(a: &[f32]) -> f32 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(0.0, |s, v| s + v)
    } else if n <= 128 {
        let mut r = [0f32; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            r.iter_mut().zip(block).for_each(|(s, v)| *s += v);
        }
        let tree = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        a[whole..].iter().fold(tree, |s, v| s + v)
    } else {
        let half = n / 2 - (n / 2) % 8;
        pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
    }
}

/// `int(np.median(lengths))` of the tokens' lengths in characters: the middle length, or the
/// mean of the two middle ones rounded down (0 for no token).
fn median_length(tokens: &[&str]) -> usize {
    let mut lengths: Vec<usize> = tokens.iter().map(|t| t.chars().count()).collect();
    lengths.sort_unstable();
    match lengths.len() {
        0 => 0,
        n if n % 2 == 1 => lengths[n / 2],
        n => (lengths[n / 2 - 1] + lengths[n / 2]) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A safetensors file of F32 tensors (name, shape, values), by the crate's own writer.
    fn safetensors(tensors: &[(&str, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
        let tensors: Vec<_> = tensors
            .iter()
            .map(|(name, shape, values)| {
                (
                    (*name).to_owned(),
                    shape.clone(),
                    crate::safetensors::Tensor::F32(values),
                )
            })
            .collect();
        crate::safetensors::write(&tensors, &std::collections::BTreeMap::new())
    }

    const VOCAB: &str = "[PAD]\n[UNK]\n[CLS]\n[SEP]\na\nb\ncc\n##c\n";

    /// Row i of the table: [i, 1].
    fn table() -> Vec<f32> {
        (0..8).flat_map(|i| [i as f32, 1.0]).collect()
    }

    fn model(config: &str, extra: Option<Vec<f32>>) -> Result<StaticEncoder, LoadError> {
        let mut tensors = vec![(TABLE, vec![8, 2], table())];
        if let Some(w) = extra {
            tensors.push(("weights", vec![8], w));
        }
        let bytes = safetensors(&tensors);
        StaticEncoder::load(StaticFiles {
            config,
            vocab: VOCAB,
            weights: &bytes,
        })
    }

    #[test]
    fn mean_unk_removal_and_the_config_defaults() {
        let m = model("{}", None).unwrap();
        assert_eq!((m.dim(), m.vocab_size()), (2, 8));
        // Lengths 1 1 2 3 5 5 5 5 ("##c" is 3): the median (3 + 5) / 2.
        assert_eq!(m.median_token_length(), 4);
        assert_eq!((m.max_length(), m.char_limit()), (Some(512), Some(2048)));
        assert!(!m.normalizes());
        // "a b zz": 4, 5, [UNK] removed.
        assert_eq!(m.ids("a b zz"), vec![4, 5]);
        let e = m.embed("a b zz");
        assert_eq!(
            (e.vector, e.tokens_read, e.truncated),
            (vec![4.5, 1.0], 2, false)
        );
        // Special tokens written in the text are ids; "ccc" is cc ##c.
        assert_eq!(m.ids("[CLS] ccc"), vec![2, 6, 7]);
        // Nothing left: the zero vector, normalised or not.
        for text in ["", "  \n", "zz [UNK]"] {
            let e = m.embed_with(text, true);
            assert_eq!((e.vector, e.tokens_read), (vec![0.0, 0.0], 0), "{text:?}");
        }
        let e = m.embed_with("a", true);
        let n = 17f32.sqrt();
        assert_eq!(e.vector, vec![4.0 / n, 1.0 / n]);
    }

    #[test]
    fn both_cuts_and_the_weights() {
        // max_length 3: 3 × 4 = 12 characters, then 3 ids, [UNK] counted in the 3.
        let m = model(r#"{"max_length": 3, "normalize": true}"#, None).unwrap();
        assert_eq!(m.char_limit(), Some(12));
        assert!(m.normalizes());
        // "a b a b a b " → 6 ids → 3.
        assert_eq!(m.read("a b a b a b a"), (vec![4, 5, 4], true));
        // "a zzzzzzzz b" → a [UNK] b: the characters cut, not the ids.
        assert_eq!(m.read("a zzzzzzzz b b"), (vec![4, 5], true));
        // a [UNK] b | b: the [UNK] took a place before its removal.
        assert_eq!(m.read("a zz b b"), (vec![4, 5], true));
        assert_eq!(m.read("ab"), (vec![], false)); // a, then no "##b": one [UNK]
        assert_eq!(m.read("a b a"), (vec![4, 5, 4], false));
        let none = model(r#"{"max_length": null}"#, None).unwrap();
        assert_eq!((none.max_length(), none.char_limit()), (None, None));
        assert_eq!(none.ids(&"a ".repeat(2000)).len(), 2000);
        // Weights multiply each row before the mean.
        let w = vec![0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 0.0, 0.0];
        let m = model("{}", Some(w)).unwrap();
        assert_eq!(m.embed("a b").vector, vec![14.0, 3.0]);
        assert_eq!(m.bytes(), (16 + 8) * 4);
    }

    #[test]
    fn pairwise_sum_in_numpys_order() {
        // Small integers: every order gives the same sum.
        let v: Vec<f32> = (1..=300).map(|i| i as f32).collect();
        for n in [0, 1, 7, 8, 9, 128, 129, 300] {
            assert_eq!(pairwise_sum(&v[..n]), (n * (n + 1) / 2) as f32, "{n}");
        }
        // 1 then fifteen times 2^-24: one after the other each small term vanishes (1 + 2^-24
        // rounds to 1); in 8 running sums seven of them pair up into 2^-23.
        let half = f32::EPSILON / 2.0;
        let mut v = vec![half; 16];
        v[0] = 1.0;
        assert_eq!(v.iter().sum::<f32>(), 1.0);
        assert_eq!(pairwise_sum(&v), 1.0 + 7.0 * f32::EPSILON);
    }

    #[test]
    fn bad_files_are_errors() {
        let bad = |config: &str| match model(config, None) {
            Err(LoadError::Config(e)) => e,
            other => panic!("{config}: {other:?}"),
        };
        assert!(bad("[]").contains("not an object"));
        assert!(bad(r#"{"normalize": 1}"#).contains("normalize"));
        assert!(bad(r#"{"max_length": -1}"#).contains("max_length"));
        assert!(bad("{").contains("config.json"));
        let load = |vocab: &str, tensors: &[(&str, Vec<usize>, Vec<f32>)]| {
            StaticEncoder::load(StaticFiles {
                config: "{}",
                vocab,
                weights: &safetensors(tensors),
            })
        };
        let t = || (TABLE, vec![8, 2], table());
        assert!(matches!(load("a\na\n", &[t()]), Err(LoadError::Config(e)) if e.contains("twice")));
        assert!(matches!(load("a\nb\n", &[t()]), Err(LoadError::Config(e)) if e.contains("[UNK]")));
        assert!(matches!(load(VOCAB, &[]), Err(LoadError::Missing(n)) if n == TABLE));
        assert!(matches!(
            load(VOCAB, &[(TABLE, vec![7, 2], vec![0.0; 14])]),
            Err(LoadError::Mismatch { .. })
        ));
        assert!(matches!(
            load(VOCAB, &[t(), ("weights", vec![7], vec![0.0; 7])]),
            Err(LoadError::Mismatch { .. })
        ));
        assert!(matches!(
            load(VOCAB, &[t(), ("mapping", vec![8], vec![0.0; 8])]),
            Err(LoadError::Config(e)) if e.contains("mapping")
        ));
        assert!(matches!(
            StaticEncoder::load(StaticFiles {
                config: "{}",
                vocab: VOCAB,
                weights: b"\x01"
            }),
            Err(LoadError::Truncated(_))
        ));
    }
}
