//! The invariant gate of SPEC §6 for the chunking simulator and the chunking strategies, one
//! integration-test binary.
//!
//! - `no_hang`: the non-progress cases (E01, E12, overlap ≥ size, size 1, and for every
//!   strategy 20 KB runs of one character) run first, in a child process that the parent kills
//!   at a deadline: a hang fails fast instead of stalling the run. Every other test waits for
//!   it ([`no_hang::ensure`]).
//! - `sweep`: reconstruction (tokens and bytes) for every strategy × document × slider size ×
//!   slider overlap, simple tokenizer and cl100k_base; fixed windows against a reference.
//! - `edge_cases`: E06–E12 where a simulator strategy applies.
//! - `spec_figures`: every SPEC §4 figure of the default documents and presets.
//! - `strategies`: every strategy of `chunk_core::strategy` × document × sizes × overlaps, in
//!   tokens and characters: reconstruction, `keeps()`, budgets and true token counts for the
//!   product's own strategies; no panic and true measurements for the library ones.
//! - `recursive_reference`: the recursive strategy against a second, independent
//!   implementation, chunk for chunk.
//! - `own_edge_cases`: E01, E06, E07, E11, E12, E13 and E16 for the own strategies.
//! - `structure`: no fence-only, separator-led or badly cut code chunk from the own
//!   strategies (the structure report, `chunk_core::analysis::structure`).

#[path = "../common/figures.rs"]
mod figures;

#[path = "../common/open_tokenizers.rs"]
mod open_tokenizers;

/// The `keeps()` check of the differential test, shared.
#[path = "../differential/keeps.rs"]
mod keeps;

mod corpus;
mod edge_cases;
mod no_hang;
mod own_edge_cases;
mod recursive_reference;
mod spec_figures;
mod strategies;
mod structure;
mod sweep;
