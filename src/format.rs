//! Locale number formats (10,000 / 12.3% in English; 10.000 / 12,3% in Vietnamese) through the
//! browser's `Intl.NumberFormat`, so grouping, decimal marks and percent spacing follow each
//! locale's own rules instead of hand-written ones.
//!
//! Formatters are created once per (language, style) and cached. Outside the browser (the
//! build-time prerender of the page, `crates/prerender`, which renders English, and native unit
//! tests) the numbers are written as `Intl.NumberFormat` writes them in English (`en-US`), in
//! every language: the prerendered page shows the digits the live page then shows.

use crate::i18n::locale::Lang;

/// How a number is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Style {
    /// Whole numbers with grouping: 11,408.
    Integer,
    /// A fraction shown as a percentage with one decimal: 0.1234 → 12.3%.
    Percent,
    /// Progress percentage without decimals: 0.42 → 42%.
    PercentWhole,
    /// A ratio with exactly two decimals: 1.449 → 1.45 (the bloat factor).
    Fixed2,
    /// A value with exactly four decimals: 0.123456 → 0.1235 (a semantic threshold).
    Fixed4,
    /// A fraction as a percentage with two significant digits: 0.000412 → 0.041%, 0.5 → 50%
    /// (span metrics, which are tiny for long chunks).
    PercentFine,
    /// US dollars with 2 decimals (amounts ≥ 1).
    Usd,
    /// US dollars with 3 significant digits (amounts < 1, e.g. $0.000228).
    UsdSmall,
}

/// Formats a count (tokens, chars, bytes, chunks) with the locale's digit grouping.
pub fn int(lang: Lang, n: impl Into<u128>) -> String {
    format(lang, Style::Integer, Num::Int(n.into()))
}

/// Formats a fraction (e.g. 0.1234) as a percentage with one decimal (12.3%).
pub fn percent(lang: Lang, fraction: f64) -> String {
    format(lang, Style::Percent, Num::Float(fraction))
}

/// Formats a progress fraction as a whole percentage (42%).
pub fn percent_whole(lang: Lang, fraction: f64) -> String {
    format(lang, Style::PercentWhole, Num::Float(fraction))
}

/// Formats a fraction in `[0, 1]` as a percentage with two significant digits (0.000412 →
/// 0.041%), so that small span metrics do not all read 0.0%.
pub fn percent_fine(lang: Lang, fraction: f64) -> String {
    format(lang, Style::PercentFine, Num::Float(fraction))
}

/// Formats a ratio with exactly two decimals (1.449 → "1.45" in English, "1,45" in Vietnamese).
pub fn fixed2(lang: Lang, x: f64) -> String {
    format(lang, Style::Fixed2, Num::Float(x))
}

/// Formats a value with exactly four decimals in the language's digits (0.1235; "0,1235" in
/// Vietnamese).
pub fn fixed4(lang: Lang, x: f64) -> String {
    format(lang, Style::Fixed4, Num::Float(x))
}

/// Formats an amount of US dollars: 2 decimals from $1, else 3 significant digits.
pub fn usd(lang: Lang, amount: f64) -> String {
    let style = if amount.abs() >= 1.0 || amount == 0.0 {
        Style::Usd
    } else {
        Style::UsdSmall
    };
    format(lang, style, Num::Float(amount))
}

#[derive(Clone, Copy)]
enum Num {
    Int(u128),
    Float(f64),
}

/// `Intl.NumberFormat("en-US")`'s forms of each style, for the native render. Rounding is
/// Rust's (half to even on the double's exact value, where `Intl` rounds half away from zero),
/// which differs only on an exact tie such as 0.125.
#[cfg(not(target_arch = "wasm32"))]
fn format(_lang: Lang, style: Style, n: Num) -> String {
    let x = match n {
        Num::Int(i) => return grouped(&i.to_string()),
        Num::Float(x) => x,
    };
    let sign = if x < 0.0 { "-" } else { "" };
    let x = x.abs();
    match style {
        Style::Integer => format!("{sign}{}", grouped(&format!("{x:.0}"))),
        Style::Percent => format!("{sign}{}%", grouped(&format!("{:.1}", x * 100.0))),
        Style::PercentWhole => format!("{sign}{}%", grouped(&format!("{:.0}", x * 100.0))),
        Style::PercentFine => format!("{sign}{}%", grouped(&significant(x * 100.0, 2))),
        Style::Fixed2 => format!("{sign}{}", grouped(&format!("{x:.2}"))),
        Style::Fixed4 => format!("{sign}{}", grouped(&format!("{x:.4}"))),
        Style::Usd => format!("{sign}${}", grouped(&format!("{x:.2}"))),
        Style::UsdSmall => format!("{sign}${}", grouped(&significant(x, 3))),
    }
}

/// `x` (≥ 0) with at most `digits` significant digits, without trailing zeros after the point.
#[cfg(not(target_arch = "wasm32"))]
fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (digits - 1 - x.log10().floor() as i32).max(0) as usize;
    let fixed = format!("{x:.decimals$}");
    if fixed.contains('.') {
        fixed
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        fixed
    }
}

/// A plain decimal (`1234567.5`) with its whole part grouped by thousands (`1,234,567.5`).
#[cfg(not(target_arch = "wasm32"))]
fn grouped(plain: &str) -> String {
    let (whole, fraction) = plain.split_at(plain.find('.').unwrap_or(plain.len()));
    let mut out = String::with_capacity(plain.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out + fraction
}

#[cfg(target_arch = "wasm32")]
fn format(lang: Lang, style: Style, n: Num) -> String {
    use js_sys::{Array, Intl, JsString};
    use std::cell::RefCell;
    use std::collections::HashMap;
    use wasm_bindgen::JsValue;

    thread_local! {
        // Building an Intl.NumberFormat is far slower than using one, and the preview formats
        // many numbers per render, so each formatter is built once.
        static CACHE: RefCell<HashMap<(Lang, Style), js_sys::Function>> = RefCell::new(HashMap::new());
    }

    fn build(lang: Lang, style: Style) -> js_sys::Function {
        let opts = Intl::NumberFormatOptions::new();
        match style {
            Style::Integer => opts.set_maximum_fraction_digits(0),
            Style::Percent => {
                opts.set_style(Intl::NumberFormatStyle::Percent);
                opts.set_minimum_fraction_digits(1);
                opts.set_maximum_fraction_digits(1);
            }
            Style::PercentWhole => {
                opts.set_style(Intl::NumberFormatStyle::Percent);
                opts.set_maximum_fraction_digits(0);
            }
            Style::PercentFine => {
                opts.set_style(Intl::NumberFormatStyle::Percent);
                opts.set_maximum_significant_digits(2);
            }
            Style::Fixed2 => {
                opts.set_minimum_fraction_digits(2);
                opts.set_maximum_fraction_digits(2);
            }
            Style::Fixed4 => {
                opts.set_minimum_fraction_digits(4);
                opts.set_maximum_fraction_digits(4);
            }
            Style::Usd => {
                opts.set_style(Intl::NumberFormatStyle::Currency);
                opts.set_currency("USD");
                opts.set_minimum_fraction_digits(2);
                opts.set_maximum_fraction_digits(2);
            }
            Style::UsdSmall => {
                opts.set_style(Intl::NumberFormatStyle::Currency);
                opts.set_currency("USD");
                opts.set_maximum_significant_digits(3);
            }
        }
        let locales = Array::of1(&JsString::from(lang.locale()));
        Intl::NumberFormat::new(&locales, &opts).format()
    }

    let f = CACHE.with(|c| {
        c.borrow_mut()
            .entry((lang, style))
            .or_insert_with(|| build(lang, style))
            .clone()
    });
    let value: JsValue = match n {
        // BigInt keeps counts above 2^53 exact.
        Num::Int(i) => js_sys::BigInt::from(i).into(),
        Num::Float(x) => JsValue::from_f64(x),
    };
    f.call1(&JsValue::NULL, &value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| match n {
            Num::Int(i) => i.to_string(),
            Num::Float(x) => x.to_string(),
        })
}

/// "page 3" or "pages 3–4": the pages of a PDF a chunk spans (1-based, first ≤ last).
pub fn chunk_pages(lang: Lang, first: usize, last: usize) -> String {
    let n = |x: usize| int(lang, x as u128);
    if first == last {
        crate::i18n::args::ChunkPage { page: &n(first) }.fill(lang)
    } else {
        crate::i18n::args::ChunkPages {
            first: &n(first),
            last: &n(last),
        }
        .fill(lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The native forms are `Intl.NumberFormat("en-US")`'s (as the live page shows them in
    /// English; the end-to-end test `prerender.test.mjs` compares the prerendered page with it).
    #[test]
    fn native_numbers_are_written_as_in_english() {
        let en = Lang::En;
        assert_eq!(int(en, 0u32), "0");
        assert_eq!(int(en, 999u32), "999");
        assert_eq!(int(en, 1_000u32), "1,000");
        assert_eq!(int(en, 141_312_000u32), "141,312,000");
        assert_eq!(percent(en, 0.1408), "14.1%");
        assert_eq!(percent(en, 12.5), "1,250.0%");
        assert_eq!(percent_whole(en, 0.42), "42%");
        assert_eq!(percent_fine(en, 0.000412), "0.041%");
        assert_eq!(percent_fine(en, 0.5), "50%");
        assert_eq!(percent_fine(en, 0.0996), "10%");
        assert_eq!(percent_fine(en, 0.0), "0%");
        assert_eq!(fixed2(en, 1.449), "1.45");
        assert_eq!(fixed2(en, 1234.5), "1,234.50");
        assert_eq!(usd(en, 0.00022816), "$0.000228");
        assert_eq!(usd(en, 0.22816), "$0.228");
        assert_eq!(usd(en, 0.1), "$0.1");
        assert_eq!(usd(en, 0.0), "$0.00");
        assert_eq!(usd(en, 1234.5), "$1,234.50");
        assert_eq!(usd(en, -2.0), "-$2.00");
    }
}
