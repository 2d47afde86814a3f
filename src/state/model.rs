//! The model section's contexts: [`ModelSettings`] (the chosen model and the panel's fields,
//! written by the section's inputs and by a settings link) and [`ModelResults`] (the open
//! model's own count, written by the comparison's wiring). A leaf: the comparison and the model
//! panel both read it, and it reads neither.

use chunk_core::models::{model, EmbeddingModel, VectorFormat, CONTEXT_WINDOWS};
use chunk_core::tokenizer::open::OpenVocab;
use leptos::prelude::*;

/// The model chosen when the page opens: text-embedding-3-small, whose tokenizer (cl100k_base)
/// and price (0.02) are the calculator's defaults.
pub const DEFAULT_MODEL: &str = "openai-text-embedding-3-small";

/// The section's inputs, written only by its own fields.
#[derive(Clone, Copy)]
pub struct ModelSettings {
    /// The chosen model (`None`: another model, tokenizer and price set by hand).
    pub model: RwSignal<Option<&'static EmbeddingModel>>,
    /// Top-k, as typed.
    pub top_k: RwSignal<String>,
    /// The LLM's context window in tokens, as typed.
    pub window: RwSignal<String>,
    /// Prompt tokens, as typed.
    pub prompt: RwSignal<String>,
    /// Tokens kept for the answer, as typed.
    pub reserve: RwSignal<String>,
    /// Dimensions per vector, as typed (set to the model's default when a model is chosen).
    pub dimensions: RwSignal<String>,
    /// How vector values are stored.
    pub format: RwSignal<VectorFormat>,
    /// Documents like this one in the corpus, as typed.
    pub documents: RwSignal<String>,
}

/// Creates and provides the context, with [`DEFAULT_MODEL`] chosen.
pub fn provide() -> ModelSettings {
    let chosen = model(DEFAULT_MODEL);
    let dims = chosen.and_then(|m| m.default_dimensions()).unwrap_or(1_536);
    let settings = ModelSettings {
        model: RwSignal::new(chosen),
        top_k: RwSignal::new("5".into()),
        window: RwSignal::new(CONTEXT_WINDOWS[2].to_string()),
        prompt: RwSignal::new("500".into()),
        reserve: RwSignal::new("1000".into()),
        dimensions: RwSignal::new(dims.to_string()),
        format: RwSignal::new(VectorFormat::Float32),
        documents: RwSignal::new("1000".into()),
    };
    provide_context(settings);
    provide_context(ModelResults {
        open_count: RwSignal::new(None),
    });
    settings
}

/// What the comparison worker reports about the chosen model: written only by
/// `crate::jobs`, read by the model panel.
#[derive(Clone, Copy)]
pub struct ModelResults {
    /// The chosen open model's count of the text with its own tokenizer (`None`: no such
    /// model, no text, or the worker not ready).
    pub open_count: RwSignal<Option<OpenCount>>,
}

/// The chosen open model's count of the text with its own tokenizer
/// ([`chunk_core::tokenizer::open`]), as the comparison worker reports it: written only by
/// `crate::jobs` (the request and the replies), read by `crate::compare::model_panel::ModelPanel`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenCount {
    /// The job of the `open-count` request.
    pub job: u32,
    /// The vocabulary counted with.
    pub vocab: OpenVocab,
    /// Where the count is.
    pub status: OpenStatus,
}

/// Where an [`OpenCount`] is.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenStatus {
    /// Sent; the worker has not answered yet.
    Pending,
    /// The worker is fetching the vocabulary file.
    Loading,
    /// The text's tokens (without the model's special tokens) and the worker's time in ms.
    Counted {
        /// Tokens.
        tokens: u64,
        /// Milliseconds.
        millis: f64,
    },
    /// The file could not be fetched or read (English, from the worker).
    Failed(String),
}
