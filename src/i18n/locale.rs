//! The page's languages and the one fact of their number formats the parser and the formatter
//! share: the decimal mark. A leaf: `crate::i18n`, `crate::format` and `crate::parse` all read
//! it, and it reads none of them.

/// A UI language: the core's, which also picks the simulator's documents and stop words.
pub use chunk_core::Lang;

/// The decimal mark of a language as its `Intl.NumberFormat` writes it (CLDR): `.` in English,
/// `,` in Vietnamese, Indonesian, Russian and Polish.
pub fn decimal_mark(lang: Lang) -> char {
    match lang {
        Lang::En => '.',
        _ => ',',
    }
}
