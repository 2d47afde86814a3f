//! Figures computed from a strategy's measured chunks ([`crate::strategy::Chunks`]): the
//! comparison table's row ([`summary`]), the chunk-size histogram ([`histogram`]), the A/B
//! difference of two rows ([`ab`]), one row from a prepared document ([`row`]) and over a corpus ([`corpus`]), the rows of an export ([`export`]), where the chunks lie
//! in the document and what neighbours share, measured ([`layout`]), a refusal as data the
//! page can word ([`refusal`]), and the code that reproduces a library strategy with the
//! library ([`snippet`]), and the structure faults of a strategy's chunks ([`structure`]).

pub mod ab;
pub mod compare;
pub mod corpus;
pub mod export;
pub mod histogram;
pub mod layout;
pub mod protocol;
#[cfg(feature = "strategies")]
pub mod row;
/// A refusal as data: `crate::strategy::refusal`, also at this path.
pub use crate::strategy::refusal;
pub mod snippet;
pub mod structure;

pub use compare::{dropped_tokens, model_tokens, LimitBasis, LimitCheck, Summary};
#[cfg(feature = "strategies")]
pub use compare::{summary, summary_prepared, summary_prepared_reading};
