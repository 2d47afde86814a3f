//! Segmentation of a document into structural units (byte ranges), for strategies to pack.

pub mod markdown;
pub mod sentences;

/// Marks that close the clause or sentence before them: a window never starts with one right
/// after text (the token-budget strategy's cut points; the structure report's separator-led chunk,
/// [`crate::analysis::structure`]).
pub(crate) const CLOSING: [char; 12] = ['.', ',', ';', ':', '!', '?', ')', ']', '}', '»', '”', '’'];
