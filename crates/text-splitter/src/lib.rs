//! text-splitter 0.33.1 (MIT, see LICENSE.txt), with its semantic ranges searched by index
//! instead of scanned: see `SemanticSplitRanges` in `splitter.rs`.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod chunk_size;
mod splitter;
mod trim;

pub use chunk_size::{
    Characters, ChunkCapacity, ChunkCapacityError, ChunkConfig, ChunkConfigError, ChunkSizer,
    TryChunkSizer,
};
#[cfg(feature = "markdown")]
pub use splitter::MarkdownSplitter;
pub use splitter::{ChunkCharIndex, TextSplitter};
#[cfg(feature = "code")]
pub use splitter::{CodeSplitter, CodeSplitterError};
