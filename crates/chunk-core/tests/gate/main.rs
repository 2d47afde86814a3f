//! The invariant gate of SPEC §6 for the chunking simulator, one integration-test binary.
//!
//! - `no_hang`: the non-progress cases (E01, E12, overlap ≥ size, size 1) run first, in a child
//!   process that the parent kills at a deadline: a hang fails fast instead of stalling the run.
//!   Every other test waits for it ([`no_hang::ensure`]).
//! - `sweep`: reconstruction (tokens and bytes) for every strategy × document × slider size ×
//!   slider overlap, simple tokenizer and cl100k_base; fixed windows against a reference.
//! - `edge_cases`: E06–E12 where a simulator strategy applies.
//! - `spec_figures`: every SPEC §4 figure of the default documents and presets.

#[path = "../common/figures.rs"]
mod figures;

mod corpus;
mod edge_cases;
mod no_hang;
mod spec_figures;
mod sweep;
