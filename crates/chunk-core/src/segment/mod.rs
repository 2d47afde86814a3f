//! Segmentation of a document into structural units (byte ranges), for strategies to pack.

pub mod markdown;
pub mod sentences;
