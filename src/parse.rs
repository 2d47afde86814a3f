//! Parsing and validation of the calculator's text fields, as plain functions with no web
//! dependency, so they are unit-tested natively (`cargo test`).
//!
//! The page keeps every field as the string the user typed (never rewritten), and derives the
//! numbers from it here. A field that does not parse gets a [`FieldError`] shown beside it.

use chunk_core::formula::{DocLength, FormulaInput, CHARS_PER_TOKEN};
use chunk_core::params::clamp_overlap;

/// Largest document length accepted, in tokens: 10^12 (about 4 TB of English text). Beyond
/// this a figure is no longer a plausible document, and the core's `u128` totals are proven
/// safe up to here (see `chunk_core::formula`).
pub const MAX_DOC_TOKENS: u64 = 1_000_000_000_000;
/// Largest document length accepted, in chars: [`MAX_DOC_TOKENS`] × [`CHARS_PER_TOKEN`].
pub const MAX_DOC_CHARS: u64 = MAX_DOC_TOKENS * CHARS_PER_TOKEN;
/// Largest chunk size or overlap accepted, in tokens: 10^9. Embedding models take a few
/// thousand tokens (8,191 for OpenAI text-embedding-3-*), so anything above is a typo.
pub const MAX_CHUNK_TOKENS: u64 = 1_000_000_000;
/// Largest price accepted, in currency units per 1,000,000 tokens.
pub const MAX_PRICE: f64 = 1_000_000.0;

/// The unit of the document-length field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LengthUnit {
    /// The length is a token count (exact).
    #[default]
    Tokens,
    /// The length is a character count; tokens are estimated at [`CHARS_PER_TOKEN`].
    Chars,
}

impl LengthUnit {
    /// The `<option value>` used by the page: `"tokens"` or `"chars"`.
    pub fn code(self) -> &'static str {
        match self {
            LengthUnit::Tokens => "tokens",
            LengthUnit::Chars => "chars",
        }
    }

    /// Parses [`LengthUnit::code`]; anything else is `None`.
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "tokens" => Some(LengthUnit::Tokens),
            "chars" => Some(LengthUnit::Chars),
            _ => None,
        }
    }
}

/// Why a field's text was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldError {
    /// Nothing (or only spaces) was typed.
    Empty,
    /// The text is not a number.
    NotANumber,
    /// The number is below zero.
    Negative,
    /// A count was given with a fractional part.
    NotWhole,
    /// The number is above the field's maximum (the maximum is carried for the message).
    TooLarge {
        /// The largest accepted value.
        max: f64,
    },
    /// Chunk size 0: no window can hold a token.
    ZeroSize,
    /// A price such as "1,500" in English or "1.500" in Russian: one mark that is not the
    /// language's decimal mark, then exactly three digits, so it may group thousands (1500) or
    /// be a decimal point (1.5). Asked, not guessed.
    Ambiguous {
        /// The value if the mark groups thousands (1500).
        grouped: f64,
        /// The value if the mark is a decimal point (1.5).
        decimal: f64,
    },
}

pub use crate::i18n::locale::decimal_mark;

/// A price as the price field shows it in a language: the shortest decimal that reads back
/// as `price`, without grouping, with the language's decimal mark (0.02 → "0,02" in Polish).
pub fn price_text(lang: crate::i18n::locale::Lang, price: f64) -> String {
    price
        .to_string()
        .replace('.', &decimal_mark(lang).to_string())
}

/// The price field's text rewritten for another language's decimal mark ("0.02" → "0,02"), if
/// it is a plain decimal (digits and one mark, the old language's) that
/// [`parse_price`] reads the same in both languages; `None` to leave the field as typed.
pub fn relocalize_price(
    raw: &str,
    from: crate::i18n::locale::Lang,
    to: crate::i18n::locale::Lang,
) -> Option<String> {
    let t = raw.trim();
    let (old, new) = (decimal_mark(from), decimal_mark(to));
    let marks = t.chars().filter(|c| !c.is_ascii_digit()).count();
    if old == new || marks != 1 || !t.contains(old) {
        return None;
    }
    let moved = t.replace(old, &new.to_string());
    let before = parse_price(t, old).ok()??;
    (parse_price(&moved, new).ok()?? == before).then_some(moved)
}

/// A price without the currency written around it, as copied from a pricing page ("$0.02",
/// "US$ 0.02", "usd 0.02", "0.02 USD", "0,02 $"); other text is left for the number check.
fn strip_dollars(raw: &str) -> &str {
    // Case-insensitive prefix / suffix, on ASCII marks only (so slicing stays on boundaries).
    fn strip_prefix<'a>(t: &'a str, mark: &str) -> Option<&'a str> {
        t.get(..mark.len())
            .filter(|p| p.eq_ignore_ascii_case(mark))
            .map(|_| &t[mark.len()..])
    }
    fn strip_suffix<'a>(t: &'a str, mark: &str) -> Option<&'a str> {
        let at = t.len().checked_sub(mark.len())?;
        t.get(at..)
            .filter(|s| s.eq_ignore_ascii_case(mark))
            .map(|_| &t[..at])
    }
    let t = raw.trim();
    let t = ["US$", "USD", "$"]
        .iter()
        .find_map(|c| strip_prefix(t, c))
        .unwrap_or(t)
        .trim_start();
    ["US$", "USD", "$"]
        .iter()
        .find_map(|c| strip_suffix(t, c))
        .unwrap_or(t)
        .trim_end()
}

/// "1,500" when `decimal` is '.' (or "1.500" when it is ','): one mark that is not the
/// decimal mark, one to three leading digits (not starting with 0) and exactly three after
/// it. Gives both readings.
fn ambiguous_grouping(raw: &str, decimal: char) -> Option<FieldError> {
    let t: String = raw.chars().filter(|&c| !is_space(c) && c != '_').collect();
    let t = t.strip_prefix('+').unwrap_or(&t);
    let other = if decimal == '.' { ',' } else { '.' };
    let (int, frac) = t.split_once(other)?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let shaped = digits(int) && int.len() <= 3 && !int.starts_with('0') && frac.len() == 3;
    if !(shaped && digits(frac)) {
        return None;
    }
    let grouped = float(&format!("{int}{frac}"))?;
    let decimal = float(&format!("{int}.{frac}"))?;
    Some(FieldError::Ambiguous { grouped, decimal })
}

/// `body` read as a decimal float in Rust's syntax (digits, at most one `.`, an optional
/// exponent: `0.02`, `1e4`, `5.`), or `None` when it is not one. Infinity for a number too
/// large for an `f64`, as Rust reads it.
///
/// In the page's wasm module this is the browser's own reading (ECMAScript's `parseFloat`)
/// after the same syntax check. The standard requires the nearest `f64`, as Rust gives, up to
/// 20 significant digits and allows one unit in the last place past them; the engines round
/// every length correctly (Chromium is tested below). Doing so means that the
/// module the first visit waits for does not carry Rust's float parser, whose table of powers
/// of five alone is 10 KB that gzip cannot shrink. Natively (the prerender, the unit tests) it
/// is Rust's `str::parse`; a browser test (`tests/numbers.rs`) checks that the two agree, bit
/// for bit.
pub fn float(body: &str) -> Option<f64> {
    if !float_syntax(body) {
        return None;
    }
    #[cfg(target_arch = "wasm32")]
    {
        // `parseFloat` reads the longest number at the start; the whole of `body` is one.
        let v = js_sys::parse_float(body);
        (!v.is_nan()).then_some(v)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        body.parse().ok()
    }
}

/// True when `s` is a float literal as Rust's `f64::from_str` reads one, without its
/// `inf`/`nan` words: an optional sign, digits with at most one `.` (at least one digit), then
/// optionally `e` or `E`, an optional sign and at least one digit.
fn float_syntax(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(at) => (&s[..at], Some(&s[at + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac) && int.len() + frac.len() > 0,
        None => !mantissa.is_empty() && digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// True for the space characters people paste inside numbers (space, no-break space,
/// narrow no-break space, thin space).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | '\t')
}

/// True when `s` is digits grouped by threes with one separator `sep`, e.g. `10,000` or
/// `1.234.567`. A first group starting with `0` (`0.025`) is never a thousands group, and with
/// `min_groups` 2 a single separator (`1.000`) is not taken as one either.
fn is_grouped(s: &str, sep: char, min_groups: usize) -> bool {
    let mut parts = s.split(sep);
    let first = parts.next().unwrap_or("");
    let mut groups = 0;
    let rest_ok = parts.all(|p| {
        groups += 1;
        p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit())
    });
    groups >= min_groups.max(1)
        && rest_ok
        && (1..=3).contains(&first.len())
        && !first.starts_with('0')
        && first.bytes().all(|b| b.is_ascii_digit())
}

/// How a field reads a lone separator between digit groups of three, such as `1.000`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Separator {
    /// A count: `1.000` and `10,000` group thousands (both locales' habits).
    Grouping,
    /// A decimal amount (a price): one separator is the decimal point (`0.130`, `1.000`);
    /// only two or more groups (`1,000,000`) are read as thousands.
    Decimal,
}

/// True unless a space or `_` stands between two digits without exactly three digits after it:
/// "10 000" and "1 234 567" group thousands, "0 02" or "1 5" are no number (read as 2 or 15,
/// a price would be off a hundredfold).
fn spaces_group_threes(raw: &str) -> bool {
    let chars: Vec<char> = raw.trim().chars().collect();
    let is_sep = |c: char| is_space(c) || c == '_';
    let mut i = 0;
    while i < chars.len() {
        if is_sep(chars[i]) && i > 0 && chars[i - 1].is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && is_sep(chars[j]) {
                j += 1;
            }
            let digits = chars[j..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 && digits != 3 {
                return false;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    true
}

/// Normalises a typed number to Rust's float syntax, or says why it is not one.
///
/// Accepts spaces and `_` as digit separators; `,` or `.` as thousands separators when they
/// group digits by threes (`10,000`, `10.000`; see [`Separator`]); otherwise one `,` or `.` as
/// the decimal point (`0,02`); a leading `-` or `−` (U+2212) is reported as
/// [`FieldError::Negative`]; a second sign (`+-5`) is not a number.
fn normalise(raw: &str, separator: Separator) -> Result<String, FieldError> {
    if !spaces_group_threes(raw) {
        return Err(FieldError::NotANumber);
    }
    let s: String = raw
        .trim()
        .chars()
        .filter(|&c| !is_space(c) && c != '_')
        .collect();
    if s.is_empty() {
        return Err(FieldError::Empty);
    }
    let (negative, body) = match s.strip_prefix(['-', '\u{2212}']) {
        Some(rest) => (true, rest.to_string()),
        None => (false, s.strip_prefix('+').unwrap_or(&s).to_string()),
    };
    if body.starts_with(['+', '-', '\u{2212}']) {
        return Err(FieldError::NotANumber);
    }
    let min_groups = match separator {
        Separator::Grouping => 1,
        Separator::Decimal => 2,
    };
    let body = if is_grouped(&body, ',', min_groups) {
        body.replace(',', "")
    } else if is_grouped(&body, '.', min_groups) {
        body.replace('.', "")
    } else if body.contains('.') && body.contains(',') {
        // Both marks: the last one is the decimal point, the other groups digits.
        let dot_last = body.rfind('.') > body.rfind(',');
        if dot_last {
            body.replace(',', "")
        } else {
            body.replace('.', "").replace(',', ".")
        }
    } else {
        body.replace(',', ".")
    };
    let valid = !body.is_empty()
        && body.bytes().any(|b| b.is_ascii_digit())
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    let Some(value) = float(&body).filter(|_| valid) else {
        return Err(FieldError::NotANumber);
    };
    if negative && value != 0.0 {
        return Err(FieldError::Negative);
    }
    Ok(body)
}

/// Parses a whole, non-negative count no larger than `max` (e.g. `"10,000"` → 10000).
///
/// # Errors
/// [`FieldError::Empty`], [`FieldError::NotANumber`], [`FieldError::Negative`],
/// [`FieldError::NotWhole`] (`"1.5"`) or [`FieldError::TooLarge`].
pub fn parse_count(raw: &str, max: u64) -> Result<u64, FieldError> {
    let body = normalise(raw, Separator::Grouping)?;
    let too_large = FieldError::TooLarge { max: max as f64 };
    if let Ok(n) = body.parse::<u64>() {
        return if n > max { Err(too_large) } else { Ok(n) };
    }
    // Not a plain integer: a float such as "512.0", "1e4" or a huge number.
    let v = float(&body).ok_or(FieldError::NotANumber)?;
    if !v.is_finite() || v > max as f64 {
        Err(too_large)
    } else if v.fract() != 0.0 {
        Err(FieldError::NotWhole)
    } else {
        Ok(v as u64)
    }
}

/// Parses the optional price per 1,000,000 tokens (US dollars) typed in a language whose
/// decimal mark is `decimal` ([`decimal_mark`]): empty means "no price" (`Ok(None)`). A dollar
/// sign or "USD" around the number is allowed ("$0.02", as copied from a pricing page). Either
/// mark is read as the decimal point when it cannot group thousands ("0.02" and "0,02" in
/// every language); one that could ("1,500" in English) is [`FieldError::Ambiguous`].
///
/// # Errors
/// [`FieldError::NotANumber`], [`FieldError::Negative`], [`FieldError::Ambiguous`] or
/// [`FieldError::TooLarge`] (above [`MAX_PRICE`]).
pub fn parse_price(raw: &str, decimal: char) -> Result<Option<f64>, FieldError> {
    if raw.chars().all(is_space) {
        return Ok(None);
    }
    // Something was typed: a currency sign alone, or only separators, is not a price.
    let raw = strip_dollars(raw);
    if let Some(question) = ambiguous_grouping(raw, decimal) {
        return Err(question);
    }
    let body = match normalise(raw, Separator::Decimal) {
        Err(FieldError::Empty) => return Err(FieldError::NotANumber),
        other => other?,
    };
    let v = float(&body).ok_or(FieldError::NotANumber)?;
    if !v.is_finite() || v > MAX_PRICE {
        return Err(FieldError::TooLarge { max: MAX_PRICE });
    }
    Ok(Some(v))
}

/// Parses a decimal number at least 0 with either decimal mark (`1.2`, `1,2`), as the price
/// field does, with no maximum (the caller checks its own range).
///
/// # Errors
/// [`FieldError::Empty`], [`FieldError::NotANumber`] (also for infinity) or
/// [`FieldError::Negative`].
pub fn parse_decimal(raw: &str) -> Result<f64, FieldError> {
    let body = normalise(raw, Separator::Decimal)?;
    let v = float(&body).ok_or(FieldError::NotANumber)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(FieldError::NotANumber)
    }
}

/// The calculator's fields exactly as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct RawInputs {
    /// Document length field.
    pub doc_length: String,
    /// Unit of the document length field.
    pub unit: LengthUnit,
    /// Chunk size field (tokens).
    pub chunk_size: String,
    /// Overlap field (tokens).
    pub chunk_overlap: String,
    /// Price field (per 1,000,000 tokens; may be empty).
    pub price: String,
    /// The decimal mark of the page's language ([`decimal_mark`]), which decides how an
    /// ambiguous price such as "1,500" is read.
    pub decimal_mark: char,
}

impl Default for RawInputs {
    /// The page's defaults: 10,000 tokens, size 512, overlap 64, price 0.02 (the list price
    /// of OpenAI text-embedding-3-small per 1M tokens, used as an example).
    fn default() -> Self {
        RawInputs {
            doc_length: "10000".into(),
            unit: LengthUnit::Tokens,
            chunk_size: "512".into(),
            chunk_overlap: "64".into(),
            price: "0.02".into(),
            decimal_mark: '.',
        }
    }
}

/// The result of checking every field: one optional error per field, and the formula input
/// when every field that matters is valid.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Error of the document-length field (shown even when a text overrides it).
    pub doc_length: Option<FieldError>,
    /// Error of the chunk-size field.
    pub chunk_size: Option<FieldError>,
    /// Error of the overlap field.
    pub chunk_overlap: Option<FieldError>,
    /// Error of the price field.
    pub price: Option<FieldError>,
    /// The formula input, when the fields it needs are valid (document, chunk size, overlap;
    /// with no price when the price field is empty or wrong).
    pub input: Option<FormulaInput>,
    /// The chunk size in tokens, when valid (for the clamping notice).
    pub size_value: Option<u64>,
    /// The overlap as requested, in tokens, when it parsed (for the clamping notice).
    pub requested_overlap: Option<u64>,
}

impl Checked {
    /// `(requested, used)` overlap in tokens when the requested overlap is not below the chunk
    /// size and must be clamped (reported even while another field, e.g. the price, is bad).
    pub fn clamped_overlap(&self) -> Option<(u64, u64)> {
        let (size, requested) = (self.size_value?, self.requested_overlap?);
        let (used, clamped) = clamp_overlap(size, requested);
        clamped.then_some((requested, used))
    }
}

/// Checks every field. `text_document`, when a text is present, replaces the document-length
/// field (whose error is still reported, but no longer blocks the result).
pub fn check(raw: &RawInputs, text_document: Option<DocLength>) -> Checked {
    let doc = match raw.unit {
        LengthUnit::Tokens => parse_count(&raw.doc_length, MAX_DOC_TOKENS).map(DocLength::Tokens),
        LengthUnit::Chars => parse_count(&raw.doc_length, MAX_DOC_CHARS).map(DocLength::from_chars),
    };
    let size = parse_count(&raw.chunk_size, MAX_CHUNK_TOKENS).and_then(|s| {
        if s == 0 {
            Err(FieldError::ZeroSize)
        } else {
            Ok(s)
        }
    });
    let overlap = parse_count(&raw.chunk_overlap, MAX_CHUNK_TOKENS);
    let price = parse_price(&raw.price, raw.decimal_mark);
    let document = text_document.or(doc.ok());
    // The price is optional: a bad one blanks only the cost (its error is shown beside it),
    // never the chunks and tokens, which do not depend on it.
    let input = match (document, size, overlap) {
        (Some(document), Ok(chunk_size), Ok(chunk_overlap)) => Some(FormulaInput {
            document,
            chunk_size,
            chunk_overlap,
            price_per_million: price.ok().flatten(),
        }),
        _ => None,
    };
    Checked {
        doc_length: doc.err(),
        chunk_size: size.err(),
        chunk_overlap: overlap.err(),
        price: price.err(),
        input,
        size_value: size.ok(),
        requested_overlap: overlap.ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::formula::compute;

    #[test]
    fn float_syntax_is_rusts() {
        // Every string of up to five characters over the characters a normalised number may
        // hold: the syntax check accepts exactly what Rust's float parser accepts.
        let alphabet = ['0', '7', '.', 'e', 'E', '+', '-'];
        let mut strings = vec![String::new()];
        let mut checked = 0;
        for _ in 0..5 {
            strings = strings
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            for s in &strings {
                assert_eq!(float_syntax(s), s.parse::<f64>().is_ok(), "{s:?}");
                assert_eq!(float(s), s.parse::<f64>().ok(), "{s:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 7 + 49 + 343 + 2_401 + 16_807);
        assert!(!float_syntax("") && !float_syntax("inf") && !float_syntax("NaN"));
    }

    #[test]
    fn counts_accept_separators_and_whole_floats() {
        assert_eq!(parse_count("10000", MAX_DOC_TOKENS), Ok(10_000));
        assert_eq!(parse_count(" 10,000 ", MAX_DOC_TOKENS), Ok(10_000));
        assert_eq!(parse_count("10.000", MAX_DOC_TOKENS), Ok(10_000));
        assert_eq!(parse_count("1 234 567", MAX_DOC_TOKENS), Ok(1_234_567));
        assert_eq!(parse_count("1\u{a0}000", MAX_DOC_TOKENS), Ok(1_000));
        assert_eq!(parse_count("512.0", MAX_DOC_TOKENS), Ok(512));
        assert_eq!(parse_count("1e4", MAX_DOC_TOKENS), Ok(10_000));
        assert_eq!(parse_count("+7", MAX_DOC_TOKENS), Ok(7));
        assert_eq!(parse_count("0", MAX_DOC_TOKENS), Ok(0));
        assert_eq!(parse_count("-0", MAX_DOC_TOKENS), Ok(0));
    }

    #[test]
    fn counts_report_each_kind_of_bad_input() {
        assert_eq!(parse_count("", 10), Err(FieldError::Empty));
        assert_eq!(parse_count("   ", 10), Err(FieldError::Empty));
        assert_eq!(parse_count("abc", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("12abc", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("1..2", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("-", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("NaN", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("inf", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("-5", 10), Err(FieldError::Negative));
        assert_eq!(parse_count("\u{2212}5", 10), Err(FieldError::Negative));
        assert_eq!(parse_count("1.5", 10), Err(FieldError::NotWhole));
        assert_eq!(parse_count("1,5", 10), Err(FieldError::NotWhole));
        // A first group starting with 0 is a decimal, never thousands.
        assert_eq!(parse_count("0.025", 10), Err(FieldError::NotWhole));
        assert_eq!(parse_count("0,130", 1000), Err(FieldError::NotWhole));
        // A second sign is not a number (it was once read as 0).
        assert_eq!(parse_count("+-5", 10), Err(FieldError::NotANumber));
        assert_eq!(parse_count("-+5", 10), Err(FieldError::NotANumber));
        assert_eq!(
            parse_count("11", 10),
            Err(FieldError::TooLarge { max: 10.0 })
        );
        assert_eq!(
            parse_count("99999999999999999999999", MAX_DOC_TOKENS),
            Err(FieldError::TooLarge {
                max: MAX_DOC_TOKENS as f64
            })
        );
        assert_eq!(
            parse_count("1e400", MAX_DOC_TOKENS),
            Err(FieldError::TooLarge {
                max: MAX_DOC_TOKENS as f64
            })
        );
    }

    /// A price typed on the English page.
    fn parse_price_en(raw: &str) -> Result<Option<f64>, FieldError> {
        parse_price(raw, '.')
    }

    #[test]
    fn prices_copied_with_their_currency_are_read() {
        for raw in [
            "$0.02", " $ 0.02 ", "US$0.02", "USD 0.02", "0.02 USD", "0.02$", "$0,02",
        ] {
            assert_eq!(parse_price(raw, '.'), Ok(Some(0.02)), "{raw}");
            assert_eq!(parse_price(raw, ','), Ok(Some(0.02)), "{raw}");
        }
        assert_eq!(parse_price("usd 0.02", '.'), Ok(Some(0.02)));
        assert_eq!(parse_price("0.02 US$", '.'), Ok(Some(0.02)));
        // Something typed that holds no number is not "no price".
        for raw in ["$", "$ $", "USD", "_", "$_"] {
            assert_eq!(parse_price(raw, '.'), Err(FieldError::NotANumber), "{raw}");
        }
        assert_eq!(parse_price("  ", '.'), Ok(None));
        // Spaces group thousands only: "0 02" is not 2.
        assert_eq!(parse_price("0 02", '.'), Err(FieldError::NotANumber));
        assert_eq!(parse_price("1\u{a0}000,5", ','), Ok(Some(1000.5)));
        assert_eq!(
            parse_count("1 5", MAX_DOC_TOKENS),
            Err(FieldError::NotANumber)
        );
        assert_eq!(parse_count("1_000", MAX_DOC_TOKENS), Ok(1000));
        assert_eq!(parse_price("€0.02", '.'), Err(FieldError::NotANumber));
        assert_eq!(parse_price("$$0.02", '.'), Err(FieldError::NotANumber));
        assert_eq!(parse_price("-$0.02", '.'), Err(FieldError::NotANumber));
        assert_eq!(parse_price("$-0.02", '.'), Err(FieldError::Negative));
    }

    #[test]
    fn a_mark_that_may_group_thousands_is_asked_about() {
        let asked = FieldError::Ambiguous {
            grouped: 1500.0,
            decimal: 1.5,
        };
        // English: the comma groups thousands or is a continental decimal comma.
        assert_eq!(parse_price("1,500", '.'), Err(asked));
        assert_eq!(parse_price("$1,500", '.'), Err(asked));
        assert_eq!(parse_price("+1,500", '.'), Err(asked));
        assert_eq!(parse_price("$+1,500", '.'), Err(asked));
        assert_eq!(parse_price("1.500", '.'), Ok(Some(1.5)));
        // Russian, Polish, Vietnamese, Indonesian: the point is the one asked about.
        assert_eq!(parse_price("1.500", ','), Err(asked));
        assert_eq!(parse_price("1,500", ','), Ok(Some(1.5)));
        // Not ambiguous: a leading 0, other than three decimals, both marks, two groups.
        for (raw, want) in [
            ("0,025", 0.025),
            ("1,5", 1.5),
            ("1,5000", 1.5),
            ("1,000.50", 1000.5),
            ("1,000,000", 1_000_000.0),
            ("1500", 1500.0),
        ] {
            assert_eq!(parse_price(raw, '.'), Ok(Some(want)), "{raw}");
        }
        assert_eq!(parse_price("1.000.000", ','), Ok(Some(1_000_000.0)));
    }

    #[test]
    fn the_price_field_follows_the_languages_decimal_mark() {
        use crate::i18n::locale::Lang;
        assert_eq!(price_text(Lang::Pl, 0.02), "0,02");
        assert_eq!(price_text(Lang::En, 0.13), "0.13");
        assert_eq!(price_text(Lang::Ru, 2.0), "2");
        assert_eq!(
            relocalize_price("0.02", Lang::En, Lang::Ru),
            Some("0,02".into())
        );
        assert_eq!(
            relocalize_price(" 0,02 ", Lang::Vi, Lang::En),
            Some("0.02".into())
        );
        assert_eq!(
            relocalize_price("1,500", Lang::Ru, Lang::En),
            Some("1.500".into())
        );
        // Left as typed: the same mark, another mark, grouping, a currency, a meaning that
        // would change ("0,125" on the English page is 0.125; "0.125" in Russian too, but
        // "1,500" is asked about), something that is not a price.
        assert_eq!(relocalize_price("0,02", Lang::Ru, Lang::Pl), None);
        assert_eq!(relocalize_price("0,02", Lang::En, Lang::Ru), None);
        assert_eq!(relocalize_price("1,000.5", Lang::En, Lang::Ru), None);
        assert_eq!(relocalize_price("$0.02", Lang::En, Lang::Ru), None);
        assert_eq!(relocalize_price("12", Lang::En, Lang::Ru), None);
        assert_eq!(relocalize_price("abc", Lang::En, Lang::Ru), None);
        assert_eq!(relocalize_price("", Lang::En, Lang::Ru), None);
    }

    #[test]
    fn prices_are_optional_and_accept_a_decimal_comma() {
        assert_eq!(parse_price_en(""), Ok(None));
        assert_eq!(parse_price_en("0.02"), Ok(Some(0.02)));
        assert_eq!(parse_price_en("0,02"), Ok(Some(0.02)));
        assert_eq!(parse_price_en("1,000.50"), Ok(Some(1000.5)));
        assert_eq!(parse_price_en("1.000,50"), Ok(Some(1000.5)));
        assert_eq!(parse_price_en("0"), Ok(Some(0.0)));
        assert_eq!(parse_price_en("-0.02"), Err(FieldError::Negative));
        assert_eq!(parse_price("$0.02", '.'), Ok(Some(0.02)));
        // Three decimals are decimals in a price, in either notation.
        assert_eq!(parse_price_en("0.025"), Ok(Some(0.025)));
        assert_eq!(parse_price_en("0,025"), Ok(Some(0.025)));
        assert_eq!(parse_price_en("0.130"), Ok(Some(0.13)));
        assert_eq!(parse_price_en("1.000"), Ok(Some(1.0)));
        assert_eq!(parse_price_en("1,000,000"), Ok(Some(1_000_000.0)));
        assert_eq!(parse_price_en("+-5"), Err(FieldError::NotANumber));
        assert_eq!(
            parse_price_en("2000000"),
            Err(FieldError::TooLarge { max: MAX_PRICE })
        );
    }

    #[test]
    fn defaults_give_the_spec_worked_example() {
        let c = check(&RawInputs::default(), None);
        assert_eq!(
            (c.doc_length, c.chunk_size, c.chunk_overlap, c.price),
            (None, None, None, None)
        );
        let out = compute(c.input.expect("defaults are valid")).expect("valid");
        assert_eq!(
            (
                out.chunks,
                out.total_tokens,
                out.repeated_tokens,
                out.last_chunk_tokens
            ),
            (23, 11_408, 1_408, 144)
        );
        assert!(!out.is_estimate);
    }

    #[test]
    fn size_zero_blocks_the_result_a_bad_price_only_the_cost() {
        let raw = RawInputs {
            chunk_size: "0".into(),
            ..RawInputs::default()
        };
        let c = check(&raw, None);
        assert_eq!(c.chunk_size, Some(FieldError::ZeroSize));
        assert_eq!(c.chunk_overlap, None);
        assert!(c.input.is_none());

        let raw = RawInputs {
            price: "abc".into(),
            ..RawInputs::default()
        };
        let c = check(&raw, None);
        assert_eq!(c.price, Some(FieldError::NotANumber));
        // The price is optional: a bad one does not block the chunks, only the cost.
        assert_eq!(
            c.input.map(|i| (i.chunk_size, i.price_per_million)),
            Some((512, None))
        );
    }

    #[test]
    fn overlap_at_or_above_size_is_not_a_field_error() {
        let raw = RawInputs {
            chunk_overlap: "600".into(),
            ..RawInputs::default()
        };
        let c = check(&raw, None);
        assert_eq!(c.chunk_overlap, None);
        assert_eq!(c.requested_overlap, Some(600));
        assert_eq!(c.clamped_overlap(), Some((600, 511)));
        let bad_price = check(
            &RawInputs {
                price: "abc".into(),
                ..raw.clone()
            },
            None,
        );
        // A bad price is reported and blanks only the cost.
        assert_eq!(bad_price.price, Some(FieldError::NotANumber));
        let input = bad_price.input.expect("the price is optional");
        assert_eq!(input.price_per_million, None);
        assert_eq!(compute(input).expect("valid").cost, None);
        assert_eq!(bad_price.clamped_overlap(), Some((600, 511)));
        assert_eq!(check(&RawInputs::default(), None).clamped_overlap(), None);
        let out = compute(c.input.expect("valid")).expect("valid");
        assert!(out.overlap_clamped);
        assert_eq!(out.chunk_overlap, 511);
    }

    #[test]
    fn characters_give_an_estimate_and_text_overrides_the_field() {
        let raw = RawInputs {
            doc_length: "40000".into(),
            unit: LengthUnit::Chars,
            ..RawInputs::default()
        };
        let c = check(&raw, None);
        let input = c.input.expect("valid");
        assert!(input.document.is_estimate());
        assert_eq!(input.document.tokens(), 10_000);

        let raw = RawInputs {
            doc_length: "oops".into(),
            ..RawInputs::default()
        };
        let c = check(&raw, Some(DocLength::Tokens(42)));
        assert_eq!(c.doc_length, Some(FieldError::NotANumber));
        assert_eq!(
            c.input.expect("text replaces the field").document.tokens(),
            42
        );
    }

    #[test]
    fn unit_codes_round_trip() {
        for u in [LengthUnit::Tokens, LengthUnit::Chars] {
            assert_eq!(LengthUnit::from_code(u.code()), Some(u));
        }
        assert_eq!(LengthUnit::from_code("words"), None);
    }
}
