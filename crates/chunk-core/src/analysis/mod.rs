//! Figures computed from a strategy's measured chunks ([`crate::strategy::Chunks`]): the
//! comparison table's row ([`summary`]), the rows of an export ([`export`]), and the code that
//! reproduces a library strategy with the library ([`snippet`]).

pub mod compare;
pub mod export;
pub mod snippet;

pub use compare::{summary, summary_prepared, Summary};
