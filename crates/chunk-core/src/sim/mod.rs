//! The chunking simulator of SPEC §4: a small document, a tokenizer, a sentence rule and a
//! strategy (fixed windows or sentence packing), with the metrics, the query coverage and the
//! slider sweeps the page shows.
//!
//! Codemap:
//! - [`tokens`]: token byte spans ([`TokenSpans`]) from the simple tokenizer or a BPE encoding,
//!   and the byte range of a chunk of tokens;
//! - [`sentences`]: sentence byte spans (the original terminator rule, UAX #29) and the token
//!   range each sentence covers;
//! - [`packing`]: sentence packing; [`chunking`]: both strategies behind [`chunk`];
//! - [`metrics`]: counts, bloat factor, split sentences, multiplicity, measured overlap;
//! - [`query`]: keywords and which chunk holds them; [`sweep`]: slider sweeps;
//! - [`prepared`]: a text tokenized and segmented once ([`Prepared`]);
//! - [`lang`], [`documents`]: UI languages, default documents, queries and presets.
//!
//! Invariant (SPEC §6, checked by the gate in `tests/gate`): for every strategy, the chunks'
//! token ranges and byte ranges rebuild the document ([`crate::reconstruct`]).

pub mod chunking;
pub mod documents;
pub mod lang;
pub mod metrics;
pub mod packing;
pub mod prepared;
pub mod query;
pub mod sentences;
pub mod sweep;
pub mod tokens;

pub use chunking::{chunk, ChunkError, Chunking, Strategy};
pub use lang::Lang;
pub use metrics::Metrics;
pub use prepared::Prepared;
pub use query::{coverage, keywords, Coverage};
pub use sentences::SentenceRule;
pub use tokens::{TokenSpans, TokenizerChoice, TokenizerComparison};
