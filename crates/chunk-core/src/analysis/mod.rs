//! Figures computed from a strategy's measured chunks ([`crate::strategy::Chunks`]): the
//! comparison table's row ([`summary`]), and the rows of an export ([`export`]).

pub mod compare;
pub mod export;

pub use compare::{summary, Summary};
