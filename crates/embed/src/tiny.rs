//! A tiny sentence-transformers BERT model with pseudo-random weights, for tests (this crate's
//! and the embedding engine's) that need a model without the published files: 8 wide, 2
//! heads, 2 layers, a feed-forward of 16, 16 positions, `max_seq_length` 8 (so a text of more
//! than 6 tokens is cut), mean pooling and normalisation as all-MiniLM-L6-v2, and a vocabulary
//! of 16 entries. Its vectors mean nothing; they are the same on every run and every platform.

use crate::safetensors::{self, Tensor};
use crate::sentence::ModelFiles;

/// The tiny model's files ([`TinyModel::files`]).
#[derive(Debug, Clone)]
pub struct TinyModel {
    /// `config.json`.
    pub config: String,
    /// `sentence_bert_config.json`.
    pub sentence_bert_config: String,
    /// `1_Pooling/config.json`.
    pub pooling: String,
    /// `modules.json`.
    pub modules: String,
    /// `vocab.txt`: 16 entries (the five BERT special tokens, then a few words).
    pub vocab: String,
    /// `model.safetensors`: fp32 weights.
    pub weights: Vec<u8>,
}

/// The tiny model's width ([`TinyModel`]).
pub const TINY_DIM: usize = 8;

impl Default for TinyModel {
    fn default() -> Self {
        Self::new()
    }
}

impl TinyModel {
    /// The model, its weights drawn from a fixed linear congruential sequence in −0.5…0.5
    /// (layer-norm gains around 1).
    pub fn new() -> TinyModel {
        let (h, inter, positions, vocab_size, layers) = (TINY_DIM, 16, 16, 16, 2);
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut draw = |n: usize, centre: f32| -> Vec<f32> {
            (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    centre + ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
                })
                .collect()
        };
        let mut tensors: Vec<(String, Vec<usize>, Vec<f32>)> = vec![
            (
                "embeddings.word_embeddings.weight".into(),
                vec![vocab_size, h],
                draw(vocab_size * h, 0.0),
            ),
            (
                "embeddings.position_embeddings.weight".into(),
                vec![positions, h],
                draw(positions * h, 0.0),
            ),
            (
                "embeddings.token_type_embeddings.weight".into(),
                vec![2, h],
                draw(2 * h, 0.0),
            ),
            ("embeddings.LayerNorm.weight".into(), vec![h], draw(h, 1.0)),
            ("embeddings.LayerNorm.bias".into(), vec![h], draw(h, 0.0)),
        ];
        for l in 0..layers {
            let p = format!("encoder.layer.{l}");
            for (name, out, input) in [
                ("attention.self.query", h, h),
                ("attention.self.key", h, h),
                ("attention.self.value", h, h),
                ("attention.output.dense", h, h),
                ("intermediate.dense", inter, h),
                ("output.dense", h, inter),
            ] {
                tensors.push((
                    format!("{p}.{name}.weight"),
                    vec![out, input],
                    draw(out * input, 0.0),
                ));
                tensors.push((format!("{p}.{name}.bias"), vec![out], draw(out, 0.0)));
            }
            for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
                tensors.push((format!("{p}.{norm}.weight"), vec![h], draw(h, 1.0)));
                tensors.push((format!("{p}.{norm}.bias"), vec![h], draw(h, 0.0)));
            }
        }
        let views: Vec<(String, Vec<usize>, Tensor)> = tensors
            .iter()
            .map(|(name, shape, values)| (name.clone(), shape.clone(), Tensor::F32(values)))
            .collect();
        let weights = safetensors::write(&views, &Default::default());
        TinyModel {
            config: format!(
                r#"{{"hidden_size": {h}, "num_hidden_layers": {layers}, "num_attention_heads": 2,
"intermediate_size": {inter}, "max_position_embeddings": {positions}, "vocab_size": {vocab_size},
"type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu"}}"#
            ),
            sentence_bert_config: r#"{"max_seq_length": 8, "do_lower_case": false}"#.into(),
            pooling: r#"{"word_embedding_dimension": 8, "pooling_mode_mean_tokens": true}"#.into(),
            modules: r#"[{"idx": 0, "type": "sentence_transformers.models.Transformer"},
{"idx": 1, "type": "sentence_transformers.models.Pooling"},
{"idx": 2, "type": "sentence_transformers.models.Normalize"}]"#
                .into(),
            vocab: [
                "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "dog", "a", "and",
                "sat", "on", "mat", "##s", ".", "!",
            ]
            .map(|t| format!("{t}\n"))
            .concat(),
            weights,
        }
    }

    /// The files, borrowed, as [`crate::sentence::SentenceEncoder::load`] takes them.
    pub fn files(&self) -> ModelFiles<'_> {
        ModelFiles {
            config: &self.config,
            sentence_bert_config: &self.sentence_bert_config,
            pooling: &self.pooling,
            modules: &self.modules,
            vocab: &self.vocab,
            weights: &self.weights,
        }
    }
}
