//! The fixed-token-window arithmetic of SPEC §2: from a document length, a chunk size and an
//! overlap (all in tokens) to chunk count, tokens embedded, overlap repeats and cost.
//!
//! All counts are integers. Token totals are `u128` so that no input the types accept can
//! overflow: with documents up to 10^12 tokens and any `chunk_size`, the largest product is
//! `(chunks − 1) × overlap < document × chunk_size ≤ 10^12 × 2^64`, far inside `u128`.

use crate::params::{clamp_overlap, ParamsError};
use std::fmt;

/// Characters per token used to estimate a token count from a character count: OpenAI's rule
/// of thumb for English text ("one token is about 4 characters"). Other languages, code and
/// numbers use more tokens per character, so any figure derived from it is only an estimate.
pub const CHARS_PER_TOKEN: u64 = 4;

/// A document length in tokens, either counted exactly or estimated from characters.
///
/// The estimate is kept in the type, not only in the UI, so that every figure computed from it
/// can say that it is an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocLength {
    /// An exact token count (from a real tokenizer, or typed in tokens by the user).
    Tokens(u64),
    /// `tokens = ⌈chars ÷ CHARS_PER_TOKEN⌉`, an estimate (see [`CHARS_PER_TOKEN`]).
    EstimatedFromChars {
        /// The character count given, in Unicode scalar values (chars).
        chars: u64,
        /// The estimated token count.
        tokens: u64,
    },
}

impl DocLength {
    /// Estimates tokens from a character count at [`CHARS_PER_TOKEN`] characters per token,
    /// rounding up so that a non-empty text never becomes 0 tokens.
    pub fn from_chars(chars: u64) -> Self {
        DocLength::EstimatedFromChars {
            chars,
            tokens: chars.div_ceil(CHARS_PER_TOKEN),
        }
    }

    /// The token count, exact or estimated.
    pub fn tokens(self) -> u64 {
        match self {
            DocLength::Tokens(t) | DocLength::EstimatedFromChars { tokens: t, .. } => t,
        }
    }

    /// True when the token count is an estimate from characters.
    pub fn is_estimate(self) -> bool {
        matches!(self, DocLength::EstimatedFromChars { .. })
    }
}

/// The inputs of the calculator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulaInput {
    /// Document length (tokens, exact or estimated).
    pub document: DocLength,
    /// Chunk size in tokens; must be ≥ 1.
    pub chunk_size: u64,
    /// Requested overlap between neighbouring chunks, in tokens. Values ≥ `chunk_size` are
    /// clamped to `chunk_size − 1` and flagged (see [`FormulaOutput::overlap_clamped`]).
    pub chunk_overlap: u64,
    /// Optional price in currency units (e.g. US dollars) per 1,000,000 embedded tokens; must be
    /// finite and ≥ 0.
    pub price_per_million: Option<f64>,
}

/// Every figure of SPEC §2 for one input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulaOutput {
    /// Whether the document length (and so every figure here) is an estimate.
    pub is_estimate: bool,
    /// Document length in tokens.
    pub document_tokens: u64,
    /// Chunk size as given, in tokens (in characters for [`compute_in_characters`], as are
    /// `chunk_overlap` and `stride`).
    pub chunk_size: u64,
    /// Overlap actually used (the request, or `chunk_size − 1` if clamped), in the unit of
    /// `chunk_size`.
    pub chunk_overlap: u64,
    /// True when the requested overlap was ≥ `chunk_size` and had to be lowered.
    pub overlap_clamped: bool,
    /// stride = chunk_size − chunk_overlap (≥ 1), in the unit of `chunk_size`.
    pub stride: u64,
    /// 0 for an empty document; 1 if document ≤ chunk_size; else 1 + ⌈(document − size) ÷ stride⌉.
    pub chunks: u64,
    /// document + (chunks − 1) × overlap, in tokens.
    pub total_tokens: u128,
    /// (chunks − 1) × overlap, in tokens: tokens embedded a second (or further) time.
    pub repeated_tokens: u128,
    /// repeated ÷ total, a fraction in [0, 1) (0 for an empty document).
    pub repeated_share: f64,
    /// repeated ÷ document, a fraction ≥ 0 (0 for an empty document).
    pub extra_over_document: f64,
    /// Length of the last chunk in tokens (the remainder; 0 for an empty document).
    pub last_chunk_tokens: u64,
    /// Tokens of one full window: `chunk_size` for token windows; for windows of characters
    /// ([`compute_in_characters`]) ⌈chunk_size ÷ [`CHARS_PER_TOKEN`]⌉, an estimate. What the
    /// model limit and the context fit compare.
    pub window_tokens: u64,
    /// total ÷ 1,000,000 × price, in the price's currency; `None` without a price.
    pub cost: Option<f64>,
}

/// Why [`compute`] refused an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormulaError {
    /// `chunk_size` was 0: no window can hold a token ([`ParamsError::ZeroChunkSize`]).
    Params(ParamsError),
    /// The price was negative, NaN or infinite.
    InvalidPrice,
    /// The cost does not fit a finite `f64` (a price near `f64::MAX` times many tokens).
    CostOverflow,
}

impl fmt::Display for FormulaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormulaError::Params(ParamsError::ZeroChunkSize) => {
                f.write_str("chunk_size must be at least 1 token")
            }
            FormulaError::InvalidPrice => f.write_str("price must be a finite number ≥ 0"),
            FormulaError::CostOverflow => f.write_str("the cost is too large to compute"),
        }
    }
}

impl std::error::Error for FormulaError {}

impl From<ParamsError> for FormulaError {
    fn from(e: ParamsError) -> Self {
        FormulaError::Params(e)
    }
}

/// Number of fixed windows of `chunk_size` tokens with stride `stride` over `document` tokens:
/// 0 if empty, 1 if it fits, else 1 + ⌈(document − chunk_size) ÷ stride⌉ (SPEC §2).
///
/// `stride` must be ≥ 1 and `chunk_size` ≥ 1.
pub fn chunk_count(document: u64, chunk_size: u64, stride: u64) -> u64 {
    if document == 0 {
        0
    } else if document <= chunk_size {
        1
    } else {
        1 + (document - chunk_size).div_ceil(stride)
    }
}

/// Computes every SPEC §2 figure for fixed token windows.
///
/// Worked example (SPEC §2): 10,000 tokens, size 512, overlap 64 → 23 chunks, 11,408 tokens
/// embedded, 1,408 repeats (12.3 % of the total, 14.1 % over the document), last chunk 144.
///
/// # Errors
/// [`FormulaError::Params`] if `chunk_size == 0`; [`FormulaError::InvalidPrice`] if the
/// price is negative or not finite; [`FormulaError::CostOverflow`] if the cost is not finite.
/// An overlap ≥ size is not an error: it is clamped and flagged.
pub fn compute(input: FormulaInput) -> Result<FormulaOutput, FormulaError> {
    if input.chunk_size == 0 {
        return Err(FormulaError::Params(ParamsError::ZeroChunkSize));
    }
    check_price(input.price_per_million)?;
    let document = input.document.tokens();
    let (overlap, overlap_clamped) = clamp_overlap(input.chunk_size, input.chunk_overlap);
    let stride = input.chunk_size - overlap;
    let chunks = chunk_count(document, input.chunk_size, stride);
    let repeated = u128::from(chunks.saturating_sub(1)) * u128::from(overlap);
    let total = u128::from(document) + repeated;
    let last_chunk_tokens = if chunks == 0 {
        0
    } else {
        document - (chunks - 1) * stride
    };
    let (repeated_share, extra_over_document) = if document == 0 {
        (0.0, 0.0)
    } else {
        (
            repeated as f64 / total as f64,
            repeated as f64 / document as f64,
        )
    };
    let cost = cost_of(total, input.price_per_million)?;
    Ok(FormulaOutput {
        is_estimate: input.document.is_estimate(),
        document_tokens: document,
        chunk_size: input.chunk_size,
        chunk_overlap: overlap,
        overlap_clamped,
        stride,
        chunks,
        total_tokens: total,
        repeated_tokens: repeated,
        repeated_share,
        extra_over_document,
        last_chunk_tokens,
        window_tokens: input.chunk_size,
        cost,
    })
}

/// [`compute`] for windows of characters (the page's unit `characters`, without a text):
/// `chunk_size` and `chunk_overlap` are in characters, the windows are counted over the
/// document's characters (its character count when typed in characters, else its tokens ×
/// [`CHARS_PER_TOKEN`]), and every token figure is the characters it covers ÷
/// [`CHARS_PER_TOKEN`], rounded up: an estimate (`is_estimate`), since no text says how many
/// tokens those characters are. `chunks`, `chunk_size`, `chunk_overlap`, `stride` and
/// `document_tokens` keep their meaning; `last_chunk_tokens`, `total_tokens` and
/// `repeated_tokens` are estimated tokens; the cost follows `total_tokens`.
///
/// # Errors
/// As [`compute`]: a zero `chunk_size`, a price that is negative, NaN or infinite, a cost
/// too large.
pub fn compute_in_characters(input: FormulaInput) -> Result<FormulaOutput, FormulaError> {
    check_price(input.price_per_million)?;
    let (chars, document_tokens) = match input.document {
        DocLength::EstimatedFromChars { chars, tokens } => (chars, tokens),
        DocLength::Tokens(t) => (t.saturating_mul(CHARS_PER_TOKEN), t),
    };
    let windows = compute(FormulaInput {
        document: DocLength::Tokens(chars),
        price_per_million: None,
        ..input
    })?;
    let tokens = |c: u128| c.div_ceil(u128::from(CHARS_PER_TOKEN));
    let total_tokens = tokens(windows.total_tokens);
    let cost = cost_of(total_tokens, input.price_per_million)?;
    Ok(FormulaOutput {
        is_estimate: true,
        document_tokens,
        total_tokens,
        repeated_tokens: tokens(windows.repeated_tokens),
        last_chunk_tokens: tokens(windows.last_chunk_tokens.into()) as u64,
        window_tokens: input.chunk_size.div_ceil(CHARS_PER_TOKEN),
        cost,
        ..windows
    })
}

/// [`FormulaError::InvalidPrice`] for a price that is negative, NaN or infinite.
fn check_price(price_per_million: Option<f64>) -> Result<(), FormulaError> {
    match price_per_million {
        Some(p) if !p.is_finite() || p < 0.0 => Err(FormulaError::InvalidPrice),
        _ => Ok(()),
    }
}

/// The cost of `total` tokens at `price_per_million` (`None` without a price);
/// [`FormulaError::CostOverflow`] when it is not a finite number.
fn cost_of(total: u128, price_per_million: Option<f64>) -> Result<Option<f64>, FormulaError> {
    let cost = price_per_million.map(|p| total as f64 / 1_000_000.0 * p);
    match cost {
        Some(c) if !c.is_finite() => Err(FormulaError::CostOverflow),
        _ => Ok(cost),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Character windows: LangChain's default 1000 / 200 over 40,000 characters is 50 windows
    /// of characters (the same count as tokens at the same numbers), each figure in tokens
    /// the characters ÷ 4.
    #[test]
    fn character_windows_count_characters_and_estimate_tokens() {
        let out = compute_in_characters(FormulaInput {
            document: DocLength::from_chars(40_000),
            chunk_size: 1000,
            chunk_overlap: 200,
            price_per_million: Some(0.02),
        })
        .expect("valid");
        assert_eq!((out.chunks, out.stride, out.chunk_size), (50, 800, 1000));
        assert!(out.is_estimate);
        assert_eq!(out.document_tokens, 10_000);
        // 40,000 + 49 × 200 = 49,800 characters embedded.
        assert_eq!(out.total_tokens, 12_450);
        assert_eq!(out.repeated_tokens, 2_450);
        assert_eq!(out.last_chunk_tokens, 200, "800 characters");
        assert_eq!(out.window_tokens, 250, "1000 characters");
        assert!((out.cost.unwrap() - 12_450.0 / 1e6 * 0.02).abs() < 1e-12);
        // Typed in tokens: 10,000 tokens are taken as 40,000 characters, the count kept.
        let typed = compute_in_characters(FormulaInput {
            document: DocLength::Tokens(10_000),
            chunk_size: 1000,
            chunk_overlap: 200,
            price_per_million: None,
        })
        .expect("valid");
        assert_eq!((typed.chunks, typed.document_tokens), (50, 10_000));
        assert!(typed.is_estimate && typed.cost.is_none());
        // 7 characters: one window, 2 tokens.
        let tiny = compute_in_characters(FormulaInput {
            document: DocLength::from_chars(7),
            chunk_size: 1000,
            chunk_overlap: 0,
            price_per_million: None,
        })
        .expect("valid");
        assert_eq!(
            (tiny.chunks, tiny.total_tokens, tiny.last_chunk_tokens),
            (1, 2, 2)
        );
        // The price is checked as `compute` checks it.
        for price in [-1.0, f64::NAN, f64::INFINITY] {
            let bad = FormulaInput {
                document: DocLength::from_chars(7),
                chunk_size: 10,
                chunk_overlap: 0,
                price_per_million: Some(price),
            };
            assert_eq!(compute_in_characters(bad), Err(FormulaError::InvalidPrice));
        }
        // The model limit compares a window's tokens: 1000 characters are 250, under 256.
        assert_eq!(crate::models::windows_over_limit(&out, 256), 0);
        assert_eq!(crate::models::windows_over_limit(&out, 249), 49);
    }

    fn run(doc: u64, size: u64, overlap: u64) -> FormulaOutput {
        compute(FormulaInput {
            document: DocLength::Tokens(doc),
            chunk_size: size,
            chunk_overlap: overlap,
            price_per_million: Some(0.02),
        })
        .expect("valid input")
    }

    #[test]
    fn spec_worked_example() {
        let o = run(10_000, 512, 64);
        assert_eq!(o.chunks, 23);
        assert_eq!(o.stride, 448);
        assert_eq!(o.total_tokens, 11_408);
        assert_eq!(o.repeated_tokens, 1_408);
        assert_eq!((o.repeated_share * 1000.0).round(), 123.0);
        assert_eq!((o.extra_over_document * 1000.0).round(), 141.0);
        assert_eq!(o.last_chunk_tokens, 144);
        assert!(!o.overlap_clamped);
        let cost = o.cost.expect("price given");
        assert!((cost - 0.00022816).abs() < 1e-12, "{cost}");
    }

    #[test]
    fn empty_and_small_documents() {
        let o = run(0, 512, 64);
        assert_eq!((o.chunks, o.total_tokens, o.last_chunk_tokens), (0, 0, 0));
        assert_eq!(o.repeated_share, 0.0);
        let o = run(512, 512, 64);
        assert_eq!(
            (o.chunks, o.total_tokens, o.last_chunk_tokens),
            (1, 512, 512)
        );
        let o = run(513, 512, 64);
        assert_eq!(
            (o.chunks, o.total_tokens, o.last_chunk_tokens),
            (2, 577, 65)
        );
    }

    #[test]
    fn overlap_at_or_above_size_is_clamped_and_flagged() {
        let o = run(11, 2, 2);
        assert!(o.overlap_clamped);
        assert_eq!((o.chunk_overlap, o.stride, o.chunks), (1, 1, 10));
        let o = run(11, 5, 500);
        assert!(o.overlap_clamped);
        assert_eq!((o.chunk_overlap, o.stride, o.chunks), (4, 1, 7));
        let o = run(11, 1, 1);
        assert_eq!((o.chunk_overlap, o.stride, o.chunks), (0, 1, 11));
    }

    #[test]
    fn errors_are_reported() {
        let mut i = FormulaInput {
            document: DocLength::Tokens(10),
            chunk_size: 0,
            chunk_overlap: 0,
            price_per_million: None,
        };
        assert_eq!(
            compute(i),
            Err(FormulaError::Params(ParamsError::ZeroChunkSize))
        );
        i.chunk_size = 4;
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            i.price_per_million = Some(bad);
            assert_eq!(compute(i), Err(FormulaError::InvalidPrice));
        }
        // 10,000 tokens at size 512, overlap 511: about 4.9 million tokens embedded.
        i.document = DocLength::Tokens(10_000);
        i.chunk_size = 512;
        i.chunk_overlap = 511;
        i.price_per_million = Some(1e308);
        assert_eq!(compute(i), Err(FormulaError::CostOverflow));
    }

    #[test]
    fn huge_documents_do_not_overflow() {
        let o = run(1_000_000_000_000, 2, 1);
        assert_eq!(o.chunks, 999_999_999_999);
        assert_eq!(o.total_tokens, 1_999_999_999_998);
        let o = run(1_000_000_000_000, u64::MAX, u64::MAX - 1);
        assert_eq!(o.chunks, 1);
        let o = run(u64::MAX, u64::MAX / 2, u64::MAX / 2 - 1);
        assert_eq!(o.stride, 1);
        assert_eq!(o.chunks, 1 + (u64::MAX - u64::MAX / 2));
        assert_eq!(
            o.total_tokens,
            u128::from(u64::MAX) + u128::from(o.chunks - 1) * u128::from(u64::MAX / 2 - 1)
        );
    }

    #[test]
    fn chars_estimate_is_marked_and_rounds_up() {
        assert_eq!(
            DocLength::from_chars(40_000),
            DocLength::EstimatedFromChars {
                chars: 40_000,
                tokens: 10_000
            }
        );
        assert_eq!(DocLength::from_chars(1).tokens(), 1);
        assert_eq!(DocLength::from_chars(0).tokens(), 0);
        let o = compute(FormulaInput {
            document: DocLength::from_chars(40_000),
            chunk_size: 512,
            chunk_overlap: 64,
            price_per_million: None,
        })
        .expect("valid");
        assert!(o.is_estimate);
        assert_eq!(o.chunks, 23);
        assert_eq!(o.cost, None);
    }
}
