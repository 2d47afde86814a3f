//! Locale number formats (10,000 / 12.3% in English; 10.000 / 12,3% in Vietnamese) through the
//! browser's `Intl.NumberFormat`, so grouping, decimal marks and percent spacing follow each
//! locale's own rules instead of hand-written ones.
//!
//! Formatters are created once per (language, style) and cached. Outside the browser (native
//! unit tests of other modules) a plain, locale-free rendering is used; it is never shown.

use crate::i18n::Lang;

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

#[cfg(not(target_arch = "wasm32"))]
fn format(_lang: Lang, style: Style, n: Num) -> String {
    match (style, n) {
        (_, Num::Int(i)) => i.to_string(),
        (Style::Percent, Num::Float(f)) => format!("{:.1}%", f * 100.0),
        (Style::PercentWhole, Num::Float(f)) => format!("{:.0}%", f * 100.0),
        (Style::Fixed2, Num::Float(f)) => format!("{f:.2}"),
        (Style::PercentFine, Num::Float(f)) => format!("{}%", f * 100.0),
        (_, Num::Float(f)) => format!("${f}"),
    }
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
