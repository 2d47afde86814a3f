//! A BERT encoder (Hugging Face `transformers`' `BertModel`, post-layer-norm, absolute
//! positions), the architecture of all-MiniLM-L6-v2 and the bge-*-en-v1.5 models.
//!
//! The forward pass, as `modeling_bert.py` computes it for one sequence without padding:
//! 1. `h = LayerNorm(word[ids] + position[0..n] + token_type[0])`;
//! 2. each layer: `q, k, v = h·Wqᵀ+bq, …`; per head (`hidden / heads` wide),
//!    `softmax(q·kᵀ / √d)·v`; `a = LayerNorm(h + ctx·Woᵀ + bo)`;
//!    `h = LayerNorm(a + GELU(a·Wiᵀ + bi)·W2ᵀ + b2)`.
//!
//! The pooler (`pooler.dense`) is not used: the sentence models pool the last hidden states
//! themselves ([`crate::sentence`]).
//!
//! The weights are read by their `transformers` names ([`Bert::from_safetensors`]), as the
//! models publish them (`F32`) or as [`Bert::tensors`] lists an int8 copy: a linear layer's or
//! the word table's `….weight` as `I8` with its per-row scales beside it as `F32`
//! `….weight_scale` (`[rows]`, `weight ≈ I8 × scale` row by row), everything else `F32`.

use serde::Deserialize;

use crate::ops::{self, Linear};
use crate::safetensors::{LoadError, SafeTensors, Tensor};

/// The fields of a model's `config.json` that the forward pass needs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BertConfig {
    /// Width of the hidden states (384 for MiniLM-L6).
    pub hidden_size: usize,
    /// Number of layers (6 for MiniLM-L6).
    pub num_hidden_layers: usize,
    /// Attention heads a layer (12 for MiniLM-L6).
    pub num_attention_heads: usize,
    /// Width of the feed-forward layer (1536 for MiniLM-L6).
    pub intermediate_size: usize,
    /// Rows of the position table: the longest sequence, in tokens, `[CLS]` and `[SEP]` included.
    pub max_position_embeddings: usize,
    /// Rows of the word table.
    pub vocab_size: usize,
    /// Rows of the token-type table.
    pub type_vocab_size: usize,
    /// ε of every layer normalisation.
    pub layer_norm_eps: f64,
    /// The feed-forward activation; only `"gelu"` (the error-function form) is supported.
    pub hidden_act: String,
    /// Only `"absolute"` is supported (the default when absent).
    #[serde(default = "absolute")]
    pub position_embedding_type: String,
}

fn absolute() -> String {
    "absolute".into()
}

impl BertConfig {
    /// Reads `config.json`.
    ///
    /// Errors: [`LoadError::Config`] when the JSON lacks a field, or names an activation or
    /// position embedding this encoder does not compute, or the heads do not divide the width,
    /// or the width, the feed-forward width or a table is 0.
    pub fn from_json(json: &str) -> Result<BertConfig, LoadError> {
        let c: BertConfig =
            serde_json::from_str(json).map_err(|e| LoadError::Config(e.to_string()))?;
        if c.hidden_act != "gelu" {
            return Err(LoadError::Config(format!(
                "hidden_act {:?} (only \"gelu\" is computed)",
                c.hidden_act
            )));
        }
        if c.position_embedding_type != "absolute" {
            return Err(LoadError::Config(format!(
                "position_embedding_type {:?} (only \"absolute\" is computed)",
                c.position_embedding_type
            )));
        }
        if [
            c.hidden_size,
            c.intermediate_size,
            c.vocab_size,
            c.type_vocab_size,
        ]
        .contains(&0)
        {
            return Err(LoadError::Config(format!(
                "hidden_size {}, intermediate_size {}, vocab_size {} and type_vocab_size {} \
                 must not be 0",
                c.hidden_size, c.intermediate_size, c.vocab_size, c.type_vocab_size
            )));
        }
        if c.num_attention_heads == 0 || !c.hidden_size.is_multiple_of(c.num_attention_heads) {
            return Err(LoadError::Config(format!(
                "{} heads do not divide hidden_size {}",
                c.num_attention_heads, c.hidden_size
            )));
        }
        Ok(c)
    }
}

/// A layer normalisation's parameters.
#[derive(Debug, Clone)]
struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

/// One encoder layer.
#[derive(Debug, Clone)]
struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    intermediate: Linear,
    output: Linear,
    output_norm: Norm,
}

/// The word-embedding table: `vocab_size × hidden_size`, fp32 as published or int8 per row
/// (symmetric, `row ≈ q × scale`), which is most of a small model's bytes (30,522 × 384 × 4 B =
/// 46.9 MB of all-MiniLM-L6-v2's 90.3 MB).
#[derive(Debug, Clone)]
enum Table {
    F32(Vec<f32>),
    Int8 { q: Vec<i8>, scale: Vec<f32> },
}

impl Table {
    fn row(&self, id: usize, width: usize, out: &mut Vec<f32>) {
        match self {
            Table::F32(w) => out.extend_from_slice(&w[id * width..(id + 1) * width]),
            Table::Int8 { q, scale } => {
                let s = scale[id];
                out.extend(
                    q[id * width..(id + 1) * width]
                        .iter()
                        .map(|v| f32::from(*v) * s),
                );
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Table::F32(w) => 4 * w.len(),
            Table::Int8 { q, scale } => q.len() + 4 * scale.len(),
        }
    }
}

/// A weight as read: fp32, or int8 rows with their scales.
enum Weight {
    F32(Vec<f32>),
    Int8 { q: Vec<i8>, scale: Vec<f32> },
}

/// A weight as held, borrowed for [`Bert::tensors`].
enum WeightRef<'a> {
    F32(&'a [f32]),
    Int8 { q: &'a [i8], scale: &'a [f32] },
}

/// The encoder with its weights.
#[derive(Debug, Clone)]
pub struct Bert {
    config: BertConfig,
    word: Table,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
}

impl Bert {
    /// The encoder of `config` with the weights of a safetensors file, named as
    /// `transformers` saves a `BertModel` (`embeddings.word_embeddings.weight`,
    /// `encoder.layer.{i}.attention.self.query.weight`, …), with or without a leading `bert.`.
    /// The linear layers' and the word table's weights may be `F32` or, as [`Bert::tensors`]
    /// writes them, `I8` with their `….weight_scale` (module docs); the rest is `F32`.
    ///
    /// Errors: [`LoadError::Missing`] or [`LoadError::Mismatch`] for a tensor that is absent
    /// or not of the configuration's shape and one of those types.
    pub fn from_safetensors(config: BertConfig, st: &SafeTensors) -> Result<Bert, LoadError> {
        let prefix = if st.info("bert.embeddings.word_embeddings.weight").is_some() {
            "bert."
        } else {
            ""
        };
        let h = config.hidden_size;
        let get = |name: &str, shape: &[usize]| st.f32(&format!("{prefix}{name}"), shape);
        // A weight `out × input`, F32 or I8 with its scales.
        let weight = |name: &str, out: usize, input: usize| -> Result<Weight, LoadError> {
            let full = format!("{prefix}{name}");
            if st.info(&full).is_some_and(|i| i.dtype == "I8") {
                Ok(Weight::Int8 {
                    q: st.i8(&full, &[out, input])?,
                    scale: st.f32(&format!("{full}_scale"), &[out])?,
                })
            } else {
                Ok(Weight::F32(st.f32(&full, &[out, input])?))
            }
        };
        let norm = |name: &str| -> Result<Norm, LoadError> {
            Ok(Norm {
                gamma: get(&format!("{name}.weight"), &[h])?,
                beta: get(&format!("{name}.bias"), &[h])?,
            })
        };
        let linear = |name: &str, out: usize, input: usize| -> Result<Linear, LoadError> {
            let b = get(&format!("{name}.bias"), &[out])?;
            Ok(match weight(&format!("{name}.weight"), out, input)? {
                Weight::F32(w) => Linear::F32 { w, b, input },
                Weight::Int8 { q, scale } => Linear::Int8 { q, scale, b, input },
            })
        };
        let i = config.intermediate_size;
        let layers = (0..config.num_hidden_layers)
            .map(|l| -> Result<Layer, LoadError> {
                let p = format!("encoder.layer.{l}");
                Ok(Layer {
                    query: linear(&format!("{p}.attention.self.query"), h, h)?,
                    key: linear(&format!("{p}.attention.self.key"), h, h)?,
                    value: linear(&format!("{p}.attention.self.value"), h, h)?,
                    attention_out: linear(&format!("{p}.attention.output.dense"), h, h)?,
                    attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                    intermediate: linear(&format!("{p}.intermediate.dense"), i, h)?,
                    output: linear(&format!("{p}.output.dense"), h, i)?,
                    output_norm: norm(&format!("{p}.output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Bert {
            word: match weight("embeddings.word_embeddings.weight", config.vocab_size, h)? {
                Weight::F32(w) => Table::F32(w),
                Weight::Int8 { q, scale } => Table::Int8 { q, scale },
            },
            position: get(
                "embeddings.position_embeddings.weight",
                &[config.max_position_embeddings, h],
            )?,
            token_type: get(
                "embeddings.token_type_embeddings.weight",
                &[config.type_vocab_size, h],
            )?,
            embedding_norm: norm("embeddings.LayerNorm")?,
            layers,
            config,
        })
    }

    /// Every weight as [`Bert::from_safetensors`] reads it back, without the `bert.` prefix:
    /// (name, shape, values). An int8 weight is its `I8` rows then its `….weight_scale`
    /// (`F32`, one a row); the order is the embeddings, then each layer's tensors.
    pub fn tensors(&self) -> Vec<(String, Vec<usize>, Tensor<'_>)> {
        type Out<'a> = Vec<(String, Vec<usize>, Tensor<'a>)>;
        fn weight<'a>(out: &mut Out<'a>, name: String, rows: usize, w: WeightRef<'a>) {
            match w {
                WeightRef::F32(w) => {
                    out.push((name, vec![rows, w.len() / rows.max(1)], Tensor::F32(w)))
                }
                WeightRef::Int8 { q, scale } => {
                    let scale_name = format!("{name}_scale");
                    out.push((name, vec![rows, q.len() / rows.max(1)], Tensor::I8(q)));
                    out.push((scale_name, vec![rows], Tensor::F32(scale)));
                }
            }
        }
        fn norm<'a>(out: &mut Out<'a>, name: &str, n: &'a Norm) {
            let h = n.gamma.len();
            out.push((format!("{name}.weight"), vec![h], Tensor::F32(&n.gamma)));
            out.push((format!("{name}.bias"), vec![h], Tensor::F32(&n.beta)));
        }
        let c = &self.config;
        let h = c.hidden_size;
        let mut out: Out<'_> = Vec::new();
        let word = match &self.word {
            Table::F32(w) => WeightRef::F32(w),
            Table::Int8 { q, scale } => WeightRef::Int8 { q, scale },
        };
        weight(
            &mut out,
            "embeddings.word_embeddings.weight".into(),
            c.vocab_size,
            word,
        );
        out.push((
            "embeddings.position_embeddings.weight".into(),
            vec![c.max_position_embeddings, h],
            Tensor::F32(&self.position),
        ));
        out.push((
            "embeddings.token_type_embeddings.weight".into(),
            vec![c.type_vocab_size, h],
            Tensor::F32(&self.token_type),
        ));
        norm(&mut out, "embeddings.LayerNorm", &self.embedding_norm);
        for (l, layer) in self.layers.iter().enumerate() {
            let p = format!("encoder.layer.{l}");
            for (name, lin) in [
                ("attention.self.query", &layer.query),
                ("attention.self.key", &layer.key),
                ("attention.self.value", &layer.value),
                ("attention.output.dense", &layer.attention_out),
                ("intermediate.dense", &layer.intermediate),
                ("output.dense", &layer.output),
            ] {
                let (w, b) = match lin {
                    Linear::F32 { w, b, .. } => (WeightRef::F32(w), b),
                    Linear::Int8 { q, scale, b, .. } => (WeightRef::Int8 { q, scale }, b),
                };
                weight(&mut out, format!("{p}.{name}.weight"), b.len(), w);
                out.push((format!("{p}.{name}.bias"), vec![b.len()], Tensor::F32(b)));
            }
            norm(
                &mut out,
                &format!("{p}.attention.output.LayerNorm"),
                &layer.attention_norm,
            );
            norm(
                &mut out,
                &format!("{p}.output.LayerNorm"),
                &layer.output_norm,
            );
        }
        out
    }

    /// The configuration.
    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// A copy whose linear layers and word table have int8 weights, per row
    /// ([`ops::quantize_rows`]); the position and token-type tables, the biases and the
    /// layer normalisations stay fp32.
    pub fn quantize_int8(&self) -> Bert {
        let mut q = self.clone();
        if let Table::F32(w) = &self.word {
            let (rows, scale) = ops::quantize_rows(w, self.config.hidden_size);
            q.word = Table::Int8 { q: rows, scale };
        }
        for l in &mut q.layers {
            for lin in [
                &mut l.query,
                &mut l.key,
                &mut l.value,
                &mut l.attention_out,
                &mut l.intermediate,
                &mut l.output,
            ] {
                *lin = lin.quantize_int8();
            }
        }
        q
    }

    /// The weights' size in bytes as held (tables, norms and linear layers).
    pub fn bytes(&self) -> usize {
        let norm = |n: &Norm| 4 * (n.gamma.len() + n.beta.len());
        self.word.bytes()
            + 4 * (self.position.len() + self.token_type.len())
            + norm(&self.embedding_norm)
            + self
                .layers
                .iter()
                .map(|l| {
                    [
                        &l.query,
                        &l.key,
                        &l.value,
                        &l.attention_out,
                        &l.intermediate,
                        &l.output,
                    ]
                    .iter()
                    .map(|lin| lin.bytes())
                    .sum::<usize>()
                        + norm(&l.attention_norm)
                        + norm(&l.output_norm)
                })
                .sum::<usize>()
    }

    /// The last hidden states of `ids` (one sequence, `[CLS]` and `[SEP]` included, token
    /// type 0, no padding): `ids.len() × hidden_size`, row-major.
    ///
    /// Panics when `ids` is longer than `max_position_embeddings` or holds an id outside the
    /// vocabulary: callers truncate and tokenize with the model's own vocabulary first
    /// ([`crate::sentence::SentenceEncoder`]).
    #[cfg_attr(
        all(feature = "simd128", target_arch = "wasm32"),
        target_feature(enable = "simd128")
    )]
    pub fn forward(&self, ids: &[u32]) -> Vec<f32> {
        let c = &self.config;
        let (h, n) = (c.hidden_size, ids.len());
        assert!(
            n <= c.max_position_embeddings,
            "{n} tokens, over the model's {} positions",
            c.max_position_embeddings
        );
        let eps = c.layer_norm_eps as f32;
        let mut x = Vec::with_capacity(n * h);
        for (pos, &id) in ids.iter().enumerate() {
            let id = id as usize;
            assert!(id < c.vocab_size, "token id {id} outside the vocabulary");
            let start = x.len();
            self.word.row(id, h, &mut x);
            let p = &self.position[pos * h..(pos + 1) * h];
            let t = &self.token_type[..h];
            for ((v, a), b) in x[start..].iter_mut().zip(p).zip(t) {
                *v += a + b;
            }
        }
        ops::layer_norm(
            &mut x,
            &self.embedding_norm.gamma,
            &self.embedding_norm.beta,
            eps,
        );
        let heads = c.num_attention_heads;
        let d = h / heads;
        let scale = 1.0 / (d as f32).sqrt();
        let (mut q, mut k, mut v) = (Vec::new(), Vec::new(), Vec::new());
        let (mut ctx, mut tmp, mut inter) = (vec![0f32; n * h], Vec::new(), Vec::new());
        let mut scores = vec![0f32; n];
        for layer in &self.layers {
            layer.query.apply(&x, &mut q);
            layer.key.apply(&x, &mut k);
            layer.value.apply(&x, &mut v);
            for head in 0..heads {
                let cols = head * d..(head + 1) * d;
                for i in 0..n {
                    let qi = &q[i * h..][cols.clone()];
                    for (j, s) in scores.iter_mut().enumerate() {
                        *s = ops::dot(qi, &k[j * h..][cols.clone()]) * scale;
                    }
                    ops::softmax(&mut scores);
                    let out = &mut ctx[i * h..][cols.clone()];
                    out.fill(0.0);
                    for (j, &p) in scores.iter().enumerate() {
                        ops::axpy(out, p, &v[j * h..][cols.clone()]);
                    }
                }
            }
            layer.attention_out.apply(&ctx, &mut tmp);
            for (t, xv) in tmp.iter_mut().zip(&x) {
                *t += xv;
            }
            ops::layer_norm(
                &mut tmp,
                &layer.attention_norm.gamma,
                &layer.attention_norm.beta,
                eps,
            );
            std::mem::swap(&mut x, &mut tmp);
            layer.intermediate.apply(&x, &mut inter);
            ops::gelu(&mut inter);
            layer.output.apply(&inter, &mut tmp);
            for (t, xv) in tmp.iter_mut().zip(&x) {
                *t += xv;
            }
            ops::layer_norm(
                &mut tmp,
                &layer.output_norm.gamma,
                &layer.output_norm.beta,
                eps,
            );
            std::mem::swap(&mut x, &mut tmp);
        }
        x
    }
}
