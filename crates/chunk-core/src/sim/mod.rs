//! The chunking simulator of SPEC §4: a small document, a tokenizer, a sentence rule and a
//! strategy (fixed windows or sentence packing), with the metrics, the query coverage and the
//! slider sweeps the page shows.
//!
//! Codemap:
//! - [`tokens`]: token byte spans ([`TokenSpans`]) from the simple tokenizer or a BPE encoding,
//!   and the byte range of a chunk of tokens;
//! - [`packing`]: sentence packing; [`chunking`]: both strategies behind [`chunk`];
//! - [`metrics`]: counts, bloat factor, split sentences, multiplicity, measured overlap;
//! - [`query`]: keywords and which chunk holds them; [`sweep`]: slider sweeps;
//! - [`prepared`]: a text tokenized and segmented once ([`Prepared`]);
//! - [`documents`]: default documents, queries and presets per UI language ([`crate::Lang`]).
//!
//! The sentence rules the simulator offers are in [`crate::segment::sentences`]; the UI
//! languages are [`crate::Lang`].
//!
//! Invariant (SPEC §6, checked by the gate in `tests/gate`): for every strategy, the chunks'
//! token ranges and byte ranges rebuild the document ([`crate::reconstruct`]).

pub mod chunking;
pub mod documents;
pub mod metrics;
pub mod packing;
pub mod prepared;
pub mod query;
pub mod sweep;
pub mod tokens;

pub use chunking::{chunk, Chunking, Strategy};
pub use metrics::Metrics;
pub use prepared::Prepared;
pub use query::{coverage, keywords, Coverage};
pub use tokens::{TokenSpans, TokenizerChoice, TokenizerComparison};
