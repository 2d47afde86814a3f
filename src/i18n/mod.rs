//! The catalogs' machinery ([`catalog!`], [`fill`], plural rules) and the page's own catalog:
//! the strings of the calculator, the text box, the preview and the FAQ, one [`Key`] per
//! message, in English, Vietnamese, Indonesian, Russian and Polish (the simulator, the
//! comparison, the retrieval check, the models and the settings link have their own).
//!
//! Each language is one function with an exhaustive `match` over [`Key`] (no `_` arm), so a
//! message missing in any language is a compile error. Parameters are written `{name}` in the
//! text and declared with the key (`ShowMore { n }`); each message with parameters is shown
//! through its struct in `args` (`args::ShowMore { n: "5" }.fill(lang)`), so a wrong or missing
//! parameter does not compile. Numbers are formatted by the caller (see `format`) first.
//!
//! A noun after a count takes the count's plural form, written as in ICU MessageFormat:
//! `{n, plural, one {# token} other {# tokens}}`, where `#` stands for the formatted count.
//! [`fill`] picks the case with the browser's `Intl.PluralRules` for the language (CLDR's
//! cardinal rules: Russian and Polish have `one`, `few` and `many` for whole numbers,
//! Vietnamese and Indonesian only `other`), so "1 токен, 2 токена, 5 токенов, 21 токен".

use std::collections::BTreeSet;

pub mod bundle;
pub mod locale;

pub use locale::Lang;

/// A CLDR plural category of a cardinal number, as `Intl.PluralRules.select` names them.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Plural {
    /// `zero` (none of the page's languages uses it for whole numbers).
    Zero,
    /// `one`: English 1; Russian 1, 21, 31, …, 101 (not 11); Polish 1 only.
    One,
    /// `two` (none of the page's languages uses it).
    Two,
    /// `few`: Russian and Polish 2–4, 22–24, … (not 12–14).
    Few,
    /// `many`: Russian 0, 5–20, 25–30, …; Polish the same and also 21, 31, …, 101 (every whole
    /// number other than 1 not `few`).
    Many,
    /// `other`: everything else; every whole number in Vietnamese and Indonesian, fractions in
    /// Russian and Polish. Every plural message must have this case.
    Other,
}

/// The plural categories that whole numbers fall into in `lang`, by CLDR's cardinal rules:
/// a plural message in `lang` must give a case for each (besides `other`).
pub fn whole_number_categories(lang: Lang) -> &'static [Plural] {
    match lang {
        Lang::En => &[Plural::One, Plural::Other],
        Lang::Vi | Lang::Id => &[Plural::Other],
        Lang::Ru | Lang::Pl => &[Plural::One, Plural::Few, Plural::Many],
    }
}

/// The plural category of the whole number `n` in `lang` by CLDR's cardinal rules (CLDR 46,
/// `plurals.xml`, with the integer operands i = n, v = 0):
/// - en: `one` if i = 1 and v = 0, else `other`;
/// - vi, id: always `other`;
/// - ru: `one` if i % 10 = 1 and i % 100 ≠ 11; `few` if i % 10 ∈ 2..4 and i % 100 ∉ 12..14;
///   else `many`;
/// - pl: `one` if i = 1; `few` as ru; else `many`.
///
/// The page asks the browser's `Intl.PluralRules` ([`plural`]); this is its stand-in outside a
/// browser, and a wasm test checks that both agree on every number below 10,000.
pub fn cldr_plural(lang: Lang, n: u64) -> Plural {
    let few = (2..=4).contains(&(n % 10)) && !(12..=14).contains(&(n % 100));
    match lang {
        Lang::En if n == 1 => Plural::One,
        Lang::En | Lang::Vi | Lang::Id => Plural::Other,
        Lang::Ru if n % 10 == 1 && n % 100 != 11 => Plural::One,
        Lang::Pl if n == 1 => Plural::One,
        Lang::Ru | Lang::Pl if few => Plural::Few,
        Lang::Ru | Lang::Pl => Plural::Many,
    }
}

/// The plural category of the whole number `n` in `lang`: `Intl.PluralRules` of the
/// language's locale (one per language, built once), or [`cldr_plural`] outside a browser or
/// if the browser answers a name it does not know.
pub fn plural(lang: Lang, n: u64) -> Plural {
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(p) = intl_plural(lang, n) {
            return p;
        }
    }
    cldr_plural(lang, n)
}

/// `Intl.PluralRules(locale).select(n)` as a [`Plural`], or `None` if the browser's answer is
/// not a category name.
#[cfg(target_arch = "wasm32")]
pub fn intl_plural(lang: Lang, n: u64) -> Option<Plural> {
    use js_sys::{Array, Intl, JsString, Object};
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        // Building an Intl.PluralRules costs far more than asking it; each is built once.
        static RULES: RefCell<HashMap<Lang, Intl::PluralRules>> = RefCell::new(HashMap::new());
    }
    let name = RULES.with(|rules| {
        let mut rules = rules.borrow_mut();
        let rule = rules.entry(lang).or_insert_with(|| {
            Intl::PluralRules::new(&Array::of1(&JsString::from(lang.locale())), &Object::new())
        });
        String::from(rule.select(n as f64))
    });
    name.parse().ok()
}

/// One piece of a parsed message template.
#[derive(Debug, PartialEq)]
enum Piece<'a> {
    /// Text shown as it is.
    Text(&'a str),
    /// `{name}`: the parameter's value.
    Param(&'a str),
    /// `#` inside a plural case: the count's value.
    Count,
    /// `{name, plural, one {…} other {…}}`: the case for the parameter's count.
    Plural {
        name: &'a str,
        cases: Vec<(Plural, Vec<Piece<'a>>)>,
    },
}

/// Parses a template into pieces. Anything that is not a well-formed `{name}` or plural block
/// (a JSON line a message shows, `{n }`, `{}`) is text.
fn parse(template: &str) -> Vec<Piece<'_>> {
    let (pieces, _) = parse_from(template, 0, 0);
    pieces
}

/// Plural blocks nest at most this deep (the catalogs nest none); a deeper one is text, so a
/// malformed template can neither overflow the stack nor take exponential time re-parsing
/// unclosed blocks.
const MAX_PLURAL_DEPTH: usize = 3;

/// Parses from byte `at` up to the end, or (inside a plural case, `depth` > 0) up to its
/// closing `}`; returns the pieces and the byte after them. Every delimiter is ASCII, so every
/// slice falls on a character boundary.
fn parse_from(t: &str, mut at: usize, depth: usize) -> (Vec<Piece<'_>>, usize) {
    let in_case = depth > 0;
    let bytes = t.as_bytes();
    let mut pieces = Vec::new();
    let mut text_from = at;
    while at < bytes.len() {
        let b = bytes[at];
        if in_case && (b == b'}' || b == b'#') {
            if text_from < at {
                pieces.push(Piece::Text(&t[text_from..at]));
            }
            if b == b'}' {
                return (pieces, at);
            }
            pieces.push(Piece::Count);
            at += 1;
            text_from = at;
            continue;
        }
        if b == b'{' {
            if let Some((piece, end)) = parse_placeholder(t, at, depth) {
                if text_from < at {
                    pieces.push(Piece::Text(&t[text_from..at]));
                }
                pieces.push(piece);
                at = end;
                text_from = at;
                continue;
            }
        }
        at += 1;
    }
    if text_from < bytes.len() {
        pieces.push(Piece::Text(&t[text_from..]));
    }
    (pieces, bytes.len())
}

/// A `{name}` or `{name, plural, cat {…} …}` starting at the `{` at byte `at`, with the byte
/// after its closing `}`; `None` if what starts there is not one.
fn parse_placeholder(t: &str, at: usize, depth: usize) -> Option<(Piece<'_>, usize)> {
    let bytes = t.as_bytes();
    let word = |from: usize| {
        let len = bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        (&t[from..from + len], from + len)
    };
    let skip_space = |mut i: usize| {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        i
    };
    let (name, mut i) = word(at + 1);
    if name.is_empty() {
        return None;
    }
    match bytes.get(i) {
        Some(b'}') => return Some((Piece::Param(name), i + 1)),
        Some(b',') => {}
        _ => return None,
    }
    i = skip_space(i + 1);
    let (kind, next) = word(i);
    if kind != "plural" || bytes.get(next) != Some(&b',') || depth >= MAX_PLURAL_DEPTH {
        return None;
    }
    i = next + 1;
    let mut cases = Vec::new();
    loop {
        i = skip_space(i);
        if bytes.get(i) == Some(&b'}') {
            return (!cases.is_empty()).then_some((Piece::Plural { name, cases }, i + 1));
        }
        let (category, next) = word(i);
        let category: Plural = category.parse().ok()?;
        i = skip_space(next);
        if bytes.get(i) != Some(&b'{') {
            return None;
        }
        let (pieces, end) = parse_from(t, i + 1, depth + 1);
        if bytes.get(end) != Some(&b'}') {
            return None;
        }
        cases.push((category, pieces));
        i = end + 1;
    }
}

/// Fills `template` in `lang`: each `{name}` becomes its value from `args`, each plural block
/// the case for its parameter's count (its value's ASCII digits read as a whole number, so a
/// count formatted with grouping such as "1 234" or "1,234" is read right; a value without
/// digits takes `other`), with `#` the value as given. A parameter missing from `args` is left
/// as written; a plural block whose count is missing takes its `other` case with `#` empty.
pub fn fill(lang: Lang, template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    render(lang, &parse(template), args, None, &mut out);
    out
}

fn render(
    lang: Lang,
    pieces: &[Piece<'_>],
    args: &[(&str, &str)],
    count: Option<&str>,
    out: &mut String,
) {
    let value = |name: &str| args.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Count => out.push_str(count.unwrap_or("#")),
            Piece::Param(name) => match value(name) {
                Some(v) => out.push_str(v),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
            Piece::Plural { name, cases } => {
                let shown = value(name).unwrap_or("");
                let category = whole_number(lang, shown).map_or(Plural::Other, |n| plural(lang, n));
                let case = cases
                    .iter()
                    .find(|(c, _)| *c == category)
                    .or_else(|| cases.iter().find(|(c, _)| *c == Plural::Other))
                    .unwrap_or(&cases[0]);
                render(lang, &case.1, args, Some(shown), out);
            }
        }
    }
}

/// The whole number a formatted count stands for: its ASCII digits in order (the grouping
/// marks of any locale skipped), or `None` — so `other` — if it has none or holds `lang`'s
/// decimal mark (a fraction: "1,5 токена"). Beyond 18 digits only the last 18 are kept, plus
/// 10¹⁸, which keeps what the plural rules read (n mod 100, n = 1).
fn whole_number(lang: Lang, shown: &str) -> Option<u64> {
    if shown.contains(locale::decimal_mark(lang)) {
        return None;
    }
    let digits: Vec<u8> = shown.bytes().filter(u8::is_ascii_digit).collect();
    let keep = digits.len().min(18);
    let tail: u64 = std::str::from_utf8(&digits[digits.len() - keep..])
        .ok()?
        .parse()
        .ok()?;
    Some(if digits.len() > 18 {
        tail + 1_000_000_000_000_000_000
    } else {
        tail
    })
}

/// The `{parameters}` of a template: each `{name}` (one word of ASCII letters, digits and `_`,
/// so a mistyped `{Count}` is a parameter the test compares) and each plural block's count,
/// also inside its cases; other braces, such as a JSON line a message shows
/// (`{"question": …}`), are text.
pub fn placeholders(template: &str) -> BTreeSet<&str> {
    fn walk<'a>(pieces: &[Piece<'a>], into: &mut BTreeSet<&'a str>) {
        for piece in pieces {
            match piece {
                Piece::Param(name) => {
                    into.insert(name);
                }
                Piece::Plural { name, cases } => {
                    into.insert(name);
                    for (_, case) in cases {
                        walk(case, into);
                    }
                }
                Piece::Text(_) | Piece::Count => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(&parse(template), &mut names);
    names
}

/// What is wrong with the plural blocks of a message written in `lang`: a block without an
/// `other` case, without a case for a category of the language's whole numbers
/// ([`whole_number_categories`]), or with a category the language never uses; `None` if
/// nothing. Checked for every message by each catalog's test.
pub fn plural_problem(lang: Lang, template: &str) -> Option<String> {
    fn walk(lang: Lang, pieces: &[Piece<'_>]) -> Option<String> {
        for piece in pieces {
            if let Piece::Text(t) = piece {
                if t.contains(", plural,") {
                    return Some(format!(
                        "a plural block that does not parse, shown as text: {t}"
                    ));
                }
            }
            if let Piece::Plural { name, cases } = piece {
                let has: BTreeSet<Plural> = cases.iter().map(|(c, _)| *c).collect();
                let needed = whole_number_categories(lang);
                if !has.contains(&Plural::Other) {
                    return Some(format!("{{{name}, plural}} has no `other` case"));
                }
                if let Some(missing) = needed.iter().find(|c| !has.contains(c)) {
                    return Some(format!("{{{name}, plural}} has no `{missing:?}` case"));
                }
                if let Some(extra) = has
                    .iter()
                    .find(|c| **c != Plural::Other && !needed.contains(c))
                {
                    return Some(format!("{{{name}, plural}} has a `{extra:?}` case, unused"));
                }
                for (_, case) in cases {
                    if let Some(p) = walk(lang, case) {
                        return Some(p);
                    }
                }
            }
        }
        None
    }
    walk(lang, &parse(template))
}

/// A message with its parameters, ready to be shown in a language: the structs of each
/// catalog's `args` module (one per message with `{parameters}`, a field per parameter, so a
/// message cannot be shown with a parameter missing, misnamed or extra: it does not compile).
pub trait Message {
    /// The message in `lang` with every parameter filled (see [`fill`]).
    fn fill(&self, lang: Lang) -> String;
}

/// Declares a message catalog: its key enum `$name` (documented by `$doc`) with one variant
/// per message, `ALL` (every key) and `params` (each message's parameters, as declared);
/// `text(lang, key)`, the text of a message without parameters, from the calling module's
/// `en`, `vi`, `id`, `ru` or `pl` (one exhaustive `match` each, so a message missing in a
/// language does not compile); a module `args` with one struct per message that has
/// parameters (`Key { name, other }` declares them), named as its key, whose fields are the
/// parameters' formatted values and whose `fill(lang)` ([`Message`]) gives the filled text; and
/// a test that every message is written in every language with exactly its declared
/// [`placeholders`] and well-formed plural blocks. Used by every catalog of the page.
macro_rules! catalog {
    ($doc:literal, $name:ident { $( $k:ident $( { $($p:ident),+ $(,)? } )? ),* $(,)? }) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum $name { $($k),* }
        impl $name {
            /// Every key, for completeness tests.
            pub const ALL: &'static [$name] = &[$($name::$k),*];

            /// The names of the message's parameters, as declared (empty for a plain text).
            pub fn params(self) -> &'static [&'static str] {
                match self { $( $name::$k => &[ $($( stringify!($p) ),+)? ] ),* }
            }
        }

        /// This catalog as the language bundles see it ([`crate::i18n::bundle`]).
        pub const CATALOG: $crate::i18n::bundle::Catalog = $crate::i18n::bundle::Catalog {
            id: module_path!(),
            keys: &[$(stringify!($k)),*],
            params: &[$( &[ $($( stringify!($p) ),+)? ] ),*],
            #[cfg(linked_languages)]
            template: |lang, i| template(lang, $name::ALL[i]).1,
        };

        /// The template of `key` in `lang`, `{parameters}` unfilled, with the language it is
        /// in (whose plural rules fill it). In the page's wasm module only English is compiled
        /// in: another language's template comes from its fetched bundle, and is the English
        /// one until that bundle has arrived (`bundle::shown`).
        fn template(lang: $crate::i18n::Lang, key: $name) -> ($crate::i18n::Lang, &'static str) {
            use $crate::i18n::Lang;
            match lang {
                Lang::En => (lang, en(key)),
                #[cfg(linked_languages)]
                Lang::Vi => (lang, vi(key)),
                #[cfg(linked_languages)]
                Lang::Id => (lang, id(key)),
                #[cfg(linked_languages)]
                Lang::Ru => (lang, ru(key)),
                #[cfg(linked_languages)]
                Lang::Pl => (lang, pl(key)),
                #[cfg(not(linked_languages))]
                other => match $crate::i18n::bundle::template(other, module_path!(), key as usize) {
                    Some(t) => (other, t),
                    None => (Lang::En, en(key)),
                },
            }
        }

        /// The text of `key` in `lang`. A message with parameters is shown through its
        /// struct in `args` instead (debug builds assert it).
        pub fn text(lang: $crate::i18n::Lang, key: $name) -> &'static str {
            debug_assert!(
                key.params().is_empty(),
                "{key:?} has parameters: show it with its `args` struct"
            );
            template(lang, key).1
        }

        /// The messages with parameters: one struct per message, named as its key, with one
        /// field per parameter (its value already formatted for the language).
        #[allow(missing_docs)]
        pub mod args {
            $( $(
                #[doc = concat!("The parameters of `", stringify!($name), "::", stringify!($k), "`.")]
                #[derive(Clone, Copy, Debug)]
                pub struct $k<'a> { $( pub $p: &'a str ),+ }

                impl $k<'_> {
                    /// The message in `lang`, filled (in English, by English plural rules,
                    /// while `lang`'s messages have not arrived).
                    pub fn fill(&self, lang: $crate::i18n::Lang) -> String {
                        let (lang, template) = super::template(lang, super::$name::$k);
                        $crate::i18n::fill(
                            lang,
                            template,
                            &[ $( (stringify!($p), self.$p) ),+ ],
                        )
                    }
                }

                impl $crate::i18n::Message for $k<'_> {
                    fn fill(&self, lang: $crate::i18n::Lang) -> String {
                        $k::fill(self, lang)
                    }
                }
            )? )*
        }

        #[cfg(test)]
        #[test]
        fn every_message_is_written_in_every_language_with_its_declared_parameters() {
            use $crate::i18n::{placeholders, Lang};
            for &key in $name::ALL {
                let declared: std::collections::BTreeSet<&str> =
                    key.params().iter().copied().collect();
                for lang in Lang::ALL {
                    let (shown, t) = template(lang, key);
                    assert_eq!(shown, lang, "{key:?} not compiled in for {lang:?}");
                    assert!(!t.trim().is_empty(), "{key:?} empty in {lang:?}");
                    assert_eq!(placeholders(t), declared, "{key:?} parameters in {lang:?}: {t}");
                    if let Some(problem) = $crate::i18n::plural_problem(lang, t) {
                        panic!("{key:?} in {lang:?}: {problem}: {t}");
                    }
                }
            }
        }
    };
}
pub(crate) use catalog;

catalog!(
    "One message of the catalog.",
    Key {
        Title,
        Tagline,
        Privacy,
        PanelsLoading,
        PanelsUnavailable,
        PanelsRetry,
        LanguageLabel,
        LanguageUnavailable { name, reason, shown },
        LanguageFailedStatus { status },
        LanguageFailedNetwork,
        LanguageFailedFile,
        SettingsHeading,
        DocLengthLabel,
        UnitLabel,
        UnitTokens,
        UnitChars,
        DocLengthFromText { tokens },
        ChunkSizeLabel,
        OverlapLabel,
        ChunkSizeLabelChars,
        OverlapLabelChars,
        PriceLabel,
        PriceHint,
        TokenizerLabel,
        TokenizerHint,
        ErrEmpty,
        ErrNotANumber,
        ErrAmbiguous { grouped, decimal },
        ErrNegative,
        ErrNotWhole,
        ErrTooLarge { max },
        ErrZeroSize,
        ErrFixFields,
        NoticeOverlapClamped { requested, size, used },
        NoticeEstimate { chars, per_token, tokens },
        NoticeExact { encoding },
        EstimateBadge,
        BadgeExactFor { what, tokenizer },
        BadgeEstimateFor { what, tokenizer },
        BadgeFormula,
        ResultsWaiting { what },
        ResultsUnavailable { what },
        ResultsFormulaNote,
        ResultsFormulaNoteChars,
        ResultsFormulaNoteModel { encoding },
        ResultsTokensRule,
        ResultsHeading,
        OutDocTokens,
        OutDocChars,
        OutChunks,
        OutStride,
        OutTotal,
        OutRepeated,
        OutShare,
        OutExtra,
        OutLastChunk,
        OutCost,
        NotAvailable,
        TextHeading,
        TextLabel,
        TextPlaceholder,
        OpenFile,
        DropHint,
        ClearText,
        LargeText { kb, chars },
        LargeTextPlaceholder,
        FileReadError { name },
        FileNotUtf8 { name },
        FileNulBytes { name },
        FileUtf16 { name },
        FileTooLarge { name, max },
        FileLoaded { name },
        FileReading { name },
        FileExtracted { name, format, chars, headings, items, tables, ms },
        FileLeftOut { images, removed },
        ExtractCancel,
        FileCancelled { name },
        FileEncrypted { name },
        FileNotDocx { name },
        FileNoDocument { name },
        FileInflatesTooMuch { name, max },
        FileDamaged { name },
        FileHtmlNotUtf8 { name },
        FileReaderFailed { name },
        FileReaderUnavailable { name },
        FileReaderOffline { name },
        FileReadingPages { name, done, total },
        FileExtractedPdf { name, pages, chars, ms },
        FileImagesLeftOut { images },
        FilePagesWithoutText { n },
        FilePagesUnreadable { n },
        FilePagesRepeated { n },
        FileGlyphsWithoutText { n },
        FileBoilerplateLeftOut { n },
        FileNotesAppended { n },
        FileHeadersFootersLeftOut { n },
        FileCommentsLeftOut { n },
        FileDocxPartsUnreadable { n },
        FileNotPdf { name },
        FilePdfPassword { name },
        FilePdfNoPages { name },
        FilePdfScanned { name, pages },
        FilePdfPagesUnreadable { name, pages },
        FileNoText { name },
        NoteCrlf,
        NoteReplacement { n },
        StatusReading,
        StatusTokenizing { percent },
        StatusLoadingTokenizer { kb },
        StatusLoadingTokenizerOf { kb, total },
        StatusTokenizerFailed,
        BootFailed,
        BootWaiting,
        StatusReady { tokens, chars, bytes, encoding },
        StatusNoText,
        SpecialNote,
        SpecialFound { list },
        PreviewHeading,
        SkipChunks,
        PreviewIntro,
        LegendOverlap,
        LegendBytes,
        PreviewEmpty,
        PreviewStale,
        ChunkTitle { n },
        ChunkPage { page },
        ChunkPages { first, last },
        ChunkTokens { start, end },
        ChunkBytes { start, end },
        ChunkOverlap { n },
        ChunkTruncated { n },
        PartialTitle { n, total, ch, code },
        ShowMore { n },
        ShowingOf { shown, total },
        FaqHeading,
        FaqQ1,
        FaqA1,
        FaqQ2,
        FaqA2 { chunks, total, repeated, extra },
        FaqQ3,
        FaqA3 { per_token },
        FaqQ4,
        FaqA4,
        FaqQ5,
        FaqA5,
        Footer,
    }
);

fn en(key: Key) -> &'static str {
    use Key::*;
    match key {
        ResultsFormulaNote => "No text yet: these figures are the formula for fixed token windows, the same for every strategy. Paste or open a text to see the chosen strategy's real chunks.",
        ResultsFormulaNoteChars => "No text yet: these figures are the formula for fixed windows of characters, the same for every strategy; tokens are estimated at 4 characters per token. Paste or open a text to see the chosen strategy's real chunks.",
        ResultsFormulaNoteModel => "No text yet: these figures are the formula for fixed token windows, with chunk_size, which counts the model's own tokens, taken as tokens of {encoding}: an estimate. Paste or open a text to see the chosen strategy's real chunks.",
        ResultsTokensRule => "Tokens embedded: each chunk's own text counted again, as the embedding API counts what it is sent (a token window that cuts a character is sent with U+FFFD in its place).",
        ResultsWaiting => "Cutting the text with {what}…",
        ResultsUnavailable => "{what} cannot run here: the page's chunking strategies could not be loaded or started.",
        BadgeFormula => "formula: fixed token windows",
        BadgeEstimateFor => "exact chunks of {what}; tokens counted with {tokenizer}, an estimate of this model's own count",
        BadgeExactFor => "exact: {what}, counted with {tokenizer}",
        OverlapLabelChars => "Overlap (characters)",
        ChunkSizeLabelChars => "Chunk size (characters)",
        Title => "RAG Chunk Calculator",
        Tagline => "See what chunk_size and chunk_overlap really cost: how many chunks, how many tokens embedded, how many of them are repeats, and where the cuts fall in your own text.",
        Privacy => "Everything runs in your browser. Your text is never uploaded: the page only fetches its own files (code, tables, another language's words) from this site.",
        PanelsLoading => "Loading the model panel, the strategy comparison, the retrieval check and the simulator…",
        PanelsUnavailable => "The model panel, the strategy comparison, the retrieval check and the simulator could not be loaded, so those parts of the page do not work yet. The calculator works without them.",
        PanelsRetry => "Try again",
        LanguageLabel => "Language",
        LanguageUnavailable => "The page's text in {name} could not be loaded: {reason}. It stays in {shown}; choose the language again to retry.",
        LanguageFailedStatus => "the site answered with status {status}",
        LanguageFailedNetwork => "the connection failed",
        LanguageFailedFile => "the file received is not this version's text",
        SettingsHeading => "Settings",
        DocLengthLabel => "Document length",
        UnitLabel => "Unit",
        UnitTokens => "tokens",
        UnitChars => "characters",
        DocLengthFromText => "A text is present, so its real count, {tokens, plural, one {# token} other {# tokens}}, is used instead of this field.",
        ChunkSizeLabel => "Chunk size (tokens)",
        OverlapLabel => "Overlap (tokens)",
        PriceLabel => "Price per 1M tokens (USD, optional)",
        PriceHint => "Example price: 0.02 was the list price of OpenAI text-embedding-3-small per million tokens. Check your provider for today's figure.",
        TokenizerLabel => "Tokenizer",
        TokenizerHint => "Pick the one your embedding model uses: OpenAI text-embedding-3-* use cl100k_base.",
        ErrEmpty => "Enter a number here.",
        ErrNotANumber => "This is not a number. Use digits, for example 512 or 0.02.",
        ErrAmbiguous => "Did you mean {grouped} or {decimal}? A comma here may group thousands or mark the decimals, so type {grouped} or {decimal} instead.",
        ErrNegative => "This cannot be negative.",
        ErrNotWhole => "Use a whole number here, without decimals.",
        ErrTooLarge => "Too large: the most this field accepts is {max}.",
        ErrZeroSize => "A chunk must hold at least 1 token.",
        ErrFixFields => "Correct the marked fields to see the figures.",
        NoticeOverlapClamped => "Overlap changed for the figures: an overlap of {requested, plural, one {# token} other {# tokens}} is not smaller than the chunk size of {size}, so the windows would never move forward. The figures use an overlap of {used, plural, one {# token} other {# tokens}} instead. Your field still says {requested}.",
        NoticeEstimate => "Estimate: {chars, plural, one {# character} other {# characters}} ÷ {per_token} ≈ {tokens, plural, one {# token} other {# tokens}}. About {per_token} characters per token is OpenAI's rule of thumb for English; other languages, code and numbers take more tokens per character. Paste the text below for an exact count.",
        NoticeExact => "Exact: your text counted with {encoding}.",
        EstimateBadge => "estimate",
        ResultsHeading => "Results",
        OutDocTokens => "Document (tokens)",
        OutDocChars => "Document (characters)",
        OutChunks => "Chunks",
        OutStride => "Stride = size − overlap (tokens)",
        OutTotal => "Tokens embedded",
        OutRepeated => "Repeated tokens (from overlap)",
        OutShare => "Repeats as a share of what is embedded",
        OutExtra => "Extra over the document (bloat factor − 1)",
        OutLastChunk => "Last chunk (tokens)",
        OutCost => "Embedding cost (USD)",
        NotAvailable => "—",
        TextHeading => "Your text",
        TextLabel => "Paste text here, or open or drop a file: text (UTF-8), HTML, DOCX or PDF",
        TextPlaceholder => "Paste a document to count its tokens exactly and see every cut…",
        OpenFile => "Open a file",
        DropHint => "or drop a file (.txt, .md, .html, .docx, .pdf, …) on the text box. Files are read on this device only.",
        ClearText => "Clear text",
        LargeText => "This document ({kb} KB, {chars, plural, one {# character} other {# characters}}) is too long to edit comfortably in the box, so the box stays empty and read-only; every figure and the preview below use all of it. Clear it to type again.",
        LargeTextPlaceholder => "The document is loaded (see the note below); clear it to type or paste another.",
        FileReadError => "Could not read “{name}”.",
        FileNotUtf8 => "“{name}” is not UTF-8 text, so it was not loaded.",
        FileNulBytes => "“{name}” holds NUL bytes, which no text file does: it looks like a binary file or UTF-16 text, so it was not loaded. If it is text, save it as UTF-8 or paste it.",
        FileUtf16 => "“{name}” is UTF-16 text (it starts with a UTF-16 byte order mark), so it was not loaded. Save it as UTF-8, or paste its text.",
        FileTooLarge => "“{name}” was not loaded: it is larger than {max} MB.",
        FileLoaded => "Loaded “{name}”.",
        FileReading => "Reading the document “{name}” on this device…",
        FileExtracted => "Read “{name}” ({format}) in {ms} ms: {chars, plural, one {# character} other {# characters}} of text, with {headings, plural, one {# heading} other {# headings}}, {items, plural, one {# list item} other {# list items}} and {tables, plural, one {# table} other {# tables}} written as markdown-like lines (# heading, - item, cells joined by |).",
        FileLeftOut => "Left out: {images, plural, one {# image} other {# images}} (pictures are not text) and {removed, plural, one {# script, style or hidden element} other {# scripts, styles or hidden elements}}.",
        ExtractCancel => "Stop reading",
        FileCancelled => "Reading “{name}” was stopped; the text box is as it was.",
        FileEncrypted => "“{name}” is password-protected or an old binary .doc file, so it cannot be read here. Save an unprotected copy as .docx and open the copy.",
        FileNotDocx => "“{name}” is named .docx but is not a Word document (it is not a zip archive), so it was not loaded.",
        FileNoDocument => "“{name}” is a zip archive with no Word document inside (no word/document.xml), so it was not loaded.",
        FileInflatesTooMuch => "“{name}” was not loaded: its text part would unpack to more than {max} MB.",
        FileDamaged => "“{name}” is damaged (a part of it does not unpack or is not well-formed XML), so it was not loaded.",
        FileHtmlNotUtf8 => "“{name}” is an HTML page that is not in UTF-8, so it was not loaded. Save it as UTF-8 and open it again.",
        FileReaderFailed => "The document reader stopped on “{name}” without an answer, so nothing was loaded. Try again, or paste its text.",
        FileReaderUnavailable => "“{name}” was not opened: the part of the page that starts the document reader could not be loaded (the panels below say so too). Open the file again to try once more, or paste its text.",
        FileReaderOffline => "The document reader is not on this device yet, and the page is offline: nothing was loaded from “{name}”. The page fetches the reader the first time a document is opened online and keeps it for offline use. Connect and open the file again, or paste its text.",
        FileReadingPages => "Reading the PDF “{name}” on this device: {done} of {total, plural, one {# page} other {# pages}} read…",
        FileExtractedPdf => "Read “{name}” (PDF) in {ms} ms: {chars, plural, one {# character} other {# characters}} of text from {pages, plural, one {# page} other {# pages, a blank line between pages}}. Each chunk below, and each line of the downloads, names the pages it comes from.",
        FileImagesLeftOut => "Left out: {images, plural, one {# image} other {# images}} (pictures are not text).",
        FilePagesWithoutText => "{n, plural, one {# page has no text layer and adds nothing} other {# pages have no text layer and add nothing}}: a scanned page would need OCR, which this tool does not do.",
        FilePagesUnreadable => "{n, plural, one {# page could not be read (its content is damaged) and was skipped} other {# pages could not be read (their content is damaged) and were skipped}}.",
        FilePagesRepeated => "The file's page list loops back on itself: each page was read once, and {n, plural, one {# repeated entry was} other {# repeated entries were}} left out.",
        FileGlyphsWithoutText => "{n, plural, one {# character} other {# characters}} of the PDF could not be read as text: the font maps {n, plural, one {that glyph} other {those glyphs}} to no character (often symbols or icons), so {n, plural, one {it is} other {they are}} missing from the text.",
        FileBoilerplateLeftOut => "Also left out as the page's layout, not its content: {n, plural, one {# navigation, header, footer or sidebar block} other {# navigation, header, footer or sidebar blocks}}.",
        FileNotesAppended => "{n, plural, one {# footnote or endnote is} other {# footnotes or endnotes are}} written after the text as [^N]: lines, and marked [^N] where the text refers to them.",
        FileHeadersFootersLeftOut => "Left out: {n, plural, one {# header or footer} other {# headers and footers}} (repeated on every page).",
        FileCommentsLeftOut => "Left out: {n, plural, one {# comment} other {# comments}} (reviewers' notes in the margin, not the document's text).",
        FileDocxPartsUnreadable => "{n, plural, one {# part} other {# parts}} of the Word file (its numbering, notes or the list of its parts) could not be read, so the text was read without {n, plural, one {it} other {them}}: lists may show bullets instead of numbers, and notes may be missing.",
        FileNotPdf => "“{name}” could not be opened as a PDF (it is damaged, cut short, or not a PDF at all), so it was not loaded.",
        FilePdfPassword => "“{name}” opens only with a password, so it cannot be read here. Save a copy without the password and open the copy.",
        FilePdfNoPages => "“{name}” is a PDF without any page, so nothing was loaded.",
        FilePdfScanned => "{pages, plural, one {The only page of “{name}” has no text layer} other {None of the # pages of “{name}” has a text layer}}: it is a scan, and this tool does not read text from images (OCR). Run OCR on it first, then open the result.",
        FilePdfPagesUnreadable => "{pages, plural, one {The only page of “{name}” could not be read} other {None of the # pages of “{name}” could be read}}: the file is damaged, so nothing was loaded. A copy saved again from a PDF viewer may read.",
        FileNoText => "“{name}” holds no text to read (only images, scripts or hidden content, or scanned pages), so the text box was left as it was.",
        StatusReading => "Reading the pasted text or the document…",
        StatusTokenizing => "Counting tokens… {percent}",
        StatusLoadingTokenizer => "Loading the tokenizer and its table… {kb} KB received",
        StatusLoadingTokenizerOf => "Loading the tokenizer and its table… {kb} of {total} KB received",
        StatusTokenizerFailed => "No exact count: the tokenizer could not be loaded (is this a first visit without a connection?). The figures use the estimate from characters; any edit tries again.",
        BootFailed => "This page could not start: its program did not arrive (is the connection gone?). Reload the page to try again.",
        BootWaiting => "The calculator is still starting. What you type, paste or drop here is kept and counted as soon as it is ready.",
        StatusReady => "Tokens: {tokens} · characters: {chars} · bytes: {bytes} ({encoding}).",
        StatusNoText => "No text yet: the figures come from the length typed above.",
        NoteCrlf => "This text has Windows line breaks (CR LF), counted as they are. Editing it in the box turns them into LF, as browsers do, which changes the count.",
        NoteReplacement => "{n, plural, one {The text holds # replacement character (U+FFFD): either the source had it, or the browser handed over half of a broken character (an unpaired UTF-16 surrogate), which UTF-8 cannot hold. It is counted as U+FFFD.} other {The text holds # replacement characters (U+FFFD): either the source had them, or the browser handed over halves of broken characters (unpaired UTF-16 surrogates), which UTF-8 cannot hold. They are counted as U+FFFD.}}",
        SpecialNote => "Strings such as <|endoftext|> are counted as ordinary text, the way OpenAI's public tokenizer page counts them, not as special tokens.",
        SpecialFound => "Your text contains special-token strings: {list}. They were tokenized as ordinary text.",
        PreviewHeading => "Chunk preview",
        SkipChunks => "Skip past the chunks",
        PreviewIntro => "Fixed token windows ignore sentences and paragraphs: a cut can fall in the middle of a sentence, a word, or even a character.",
        LegendOverlap => "overlap with the previous chunk",
        LegendBytes => "bytes of a character cut by a window edge",
        PreviewEmpty => "Paste a text above to see where each chunk starts and ends.",
        PreviewStale => "Updating…",
        ChunkTitle => "Chunk #{n}",
        ChunkPage => "page {page}",
        ChunkPages => "pages {first}–{last}",
        ChunkTokens => "tokens {start}–{end}",
        ChunkBytes => "bytes {start}–{end}",
        ChunkOverlap => "shared with the previous chunk: {n, plural, one {# token} other {# tokens}}",
        ChunkTruncated => "… {n, plural, one {# more byte of this chunk is} other {# more bytes of this chunk are}} not displayed.",
        PartialTitle => "{n} of the {total} bytes of “{ch}” ({code}); the rest lies in the neighbouring chunk",
        ShowMore => "Show {n, plural, one {# more chunk} other {# more chunks}}",
        ShowingOf => "Showing {shown} of {total, plural, one {# chunk} other {# chunks}}.",
        FaqHeading => "Questions",
        FaqQ1 => "What chunk size and overlap should I pick?",
        FaqA1 => "No value suits every corpus. Many pipelines start between a few hundred and about a thousand tokens, with 10–20 % overlap. Small chunks give sharper matches but more vectors to store and search; large chunks keep more context but blur what a match is about. Settle it by running your own questions against a few settings.",
        FaqQ2 => "Does overlap make embedding more expensive?",
        FaqA2 => "Yes. Every overlapping token is embedded again. With 10,000 tokens, size 512 and overlap 64 you get {chunks, plural, one {# chunk} other {# chunks}} and send {total, plural, one {# token} other {# tokens}} instead of 10,000: {repeated, plural, one {# repeat} other {# repeats}}, {extra} more than the document.",
        FaqQ3 => "Are these numbers exact?",
        FaqA3 => "For fixed token windows, yes: the figures and the preview come from the same rule. Splitters that follow sentences, paragraphs or headings make uneven chunks and give other counts. A length typed in characters is only an estimate ({per_token} characters per token); paste the text for the real count.",
        FaqQ4 => "Which tokenizer should I choose?",
        FaqA4 => "The one your embedding model uses. OpenAI's text-embedding-3-small and -large use cl100k_base; o200k_base belongs to newer chat models. Tokenizers of other vendors are not bundled here, so for their models the counts are approximations.",
        FaqQ5 => "Is my text sent anywhere?",
        FaqA5 => "No. The tokenizer tables ship with the page and all counting happens in your browser. After the page has loaded it makes no network request, and a Content-Security-Policy forbids contacting any other site.",
        Footer => "No upload, no cookies, no tracking. Figures for fixed token windows.",
    }
}

#[cfg(linked_languages)]
fn vi(key: Key) -> &'static str {
    use Key::*;
    match key {
        ResultsFormulaNote => "Chưa có văn bản: các số này theo công thức cho cửa sổ token cố định, giống nhau với mọi chiến lược. Hãy dán hoặc mở một văn bản để xem các đoạn thật của chiến lược đã chọn.",
        ResultsFormulaNoteChars => "Chưa có văn bản: các số này theo công thức cho cửa sổ ký tự cố định, giống nhau với mọi chiến lược; số token được ước tính 4 ký tự một token. Hãy dán hoặc mở một văn bản để xem các đoạn thật của chiến lược đã chọn.",
        ResultsFormulaNoteModel => "Chưa có văn bản: các số này theo công thức cho cửa sổ token cố định, với chunk_size (vốn đếm token riêng của mô hình) được coi là token của {encoding}: một ước tính. Hãy dán hoặc mở một văn bản để xem các đoạn thật của chiến lược đã chọn.",
        ResultsTokensRule => "Token được nhúng: văn bản của từng đoạn được đếm lại, đúng như API embedding đếm những gì nó nhận (một cửa sổ token cắt ngang một ký tự sẽ được gửi với U+FFFD ở chỗ đó).",
        ResultsWaiting => "Đang chia văn bản bằng {what}…",
        ResultsUnavailable => "Không thể chạy {what}: không tải hoặc khởi động được các chiến lược chia đoạn của trang.",
        BadgeFormula => "công thức: cửa sổ token cố định",
        BadgeEstimateFor => "các đoạn chính xác của {what}; token đếm bằng {tokenizer}, chỉ là ước tính so với cách chính mô hình này đếm",
        BadgeExactFor => "chính xác: {what}, đếm bằng {tokenizer}",
        OverlapLabelChars => "Độ chồng lấp (ký tự)",
        ChunkSizeLabelChars => "Kích thước đoạn (ký tự)",
        Title => "Máy tính chia đoạn RAG",
        Tagline => "Xem chunk_size và chunk_overlap thực sự tốn bao nhiêu: bao nhiêu đoạn, bao nhiêu token được nhúng, bao nhiêu token bị lặp lại, và văn bản của bạn bị cắt ở đâu.",
        Privacy => "Mọi thứ chạy trong trình duyệt của bạn. Văn bản không bao giờ được tải lên: trang chỉ tải các tệp của chính nó (mã, bảng, chữ của ngôn ngữ khác) từ trang web này.",
        PanelsLoading => "Đang tải bảng mô hình, phần so sánh chiến lược, phần kiểm tra truy xuất và trình mô phỏng…",
        PanelsUnavailable => "Không tải được bảng mô hình, phần so sánh chiến lược, phần kiểm tra truy xuất và trình mô phỏng, nên các phần đó của trang chưa hoạt động. Máy tính vẫn hoạt động mà không cần chúng.",
        PanelsRetry => "Thử lại",
        LanguageLabel => "Ngôn ngữ",
        LanguageUnavailable => "Không tải được chữ của trang bằng {name}: {reason}. Trang vẫn dùng {shown}; hãy chọn lại ngôn ngữ đó để thử lại.",
        LanguageFailedStatus => "máy chủ trả về mã trạng thái {status}",
        LanguageFailedNetwork => "kết nối bị lỗi",
        LanguageFailedFile => "tệp nhận được không phải phần chữ của phiên bản này",
        SettingsHeading => "Thiết lập",
        DocLengthLabel => "Độ dài tài liệu",
        UnitLabel => "Đơn vị",
        UnitTokens => "token",
        UnitChars => "ký tự",
        DocLengthFromText => "Đã có văn bản, nên số token thật của nó ({tokens} token) được dùng thay cho ô này.",
        ChunkSizeLabel => "Kích thước đoạn (token)",
        OverlapLabel => "Độ chồng lấp (token)",
        PriceLabel => "Giá cho 1 triệu token (USD, không bắt buộc)",
        PriceHint => "Giá ví dụ: 0,02 từng là giá niêm yết của OpenAI text-embedding-3-small cho một triệu token. Hãy kiểm tra giá hiện tại của nhà cung cấp.",
        TokenizerLabel => "Bộ tách token",
        TokenizerHint => "Chọn bộ mà mô hình nhúng của bạn dùng: OpenAI text-embedding-3-* dùng cl100k_base.",
        ErrEmpty => "Hãy nhập một số.",
        ErrNotANumber => "Đây không phải là số. Hãy dùng chữ số, ví dụ 512 hoặc 0,02.",
        ErrAmbiguous => "Ý bạn là {grouped} hay {decimal}? Dấu chấm ở đây có thể tách hàng nghìn hoặc đánh dấu phần thập phân, nên hãy gõ {grouped} hoặc {decimal}.",
        ErrNegative => "Giá trị không được âm.",
        ErrNotWhole => "Ô này cần một số nguyên, không có phần thập phân.",
        ErrTooLarge => "Quá lớn: ô này nhận tối đa {max}.",
        ErrZeroSize => "Mỗi đoạn phải chứa ít nhất 1 token.",
        ErrFixFields => "Hãy sửa các ô được đánh dấu để xem kết quả.",
        NoticeOverlapClamped => "Độ chồng lấp đã được điều chỉnh khi tính: mức {requested} token không nhỏ hơn kích thước đoạn {size}, nên cửa sổ sẽ không bao giờ tiến lên. Kết quả dùng độ chồng lấp {used} token. Ô nhập của bạn vẫn ghi {requested}.",
        NoticeEstimate => "Ước tính: {chars} ký tự ÷ {per_token} ≈ {tokens} token. Khoảng {per_token} ký tự mỗi token là quy tắc kinh nghiệm của OpenAI cho tiếng Anh; các ngôn ngữ khác (như tiếng Việt), mã nguồn và con số cần nhiều token hơn cho mỗi ký tự. Hãy dán văn bản bên dưới để đếm chính xác.",
        NoticeExact => "Chính xác: văn bản của bạn được đếm bằng {encoding}.",
        EstimateBadge => "ước tính",
        ResultsHeading => "Kết quả",
        OutDocTokens => "Tài liệu (token)",
        OutDocChars => "Tài liệu (ký tự)",
        OutChunks => "Số đoạn",
        OutStride => "Bước = kích thước − chồng lấp (token)",
        OutTotal => "Token được nhúng",
        OutRepeated => "Token lặp lại (do chồng lấp)",
        OutShare => "Tỷ lệ lặp trong phần được nhúng",
        OutExtra => "Phần dư so với tài liệu (hệ số phình − 1)",
        OutLastChunk => "Đoạn cuối (token)",
        OutCost => "Chi phí nhúng (USD)",
        NotAvailable => "—",
        TextHeading => "Văn bản của bạn",
        TextLabel => "Dán văn bản vào đây, hoặc mở hay kéo thả một tệp văn bản (UTF-8), HTML, DOCX hoặc PDF",
        TextPlaceholder => "Dán một tài liệu để đếm token chính xác và xem từng chỗ cắt…",
        OpenFile => "Mở tệp",
        DropHint => "hoặc kéo thả tệp (.txt, .md, .html, .docx, .pdf, …) vào ô văn bản. Tệp chỉ được đọc trên máy này.",
        ClearText => "Xóa văn bản",
        LargeText => "Tài liệu này ({kb} KB, {chars} ký tự) quá dài để sửa thoải mái trong ô nhập, nên ô được để trống và chỉ đọc; mọi số liệu và bản xem trước bên dưới đều dùng toàn bộ tài liệu. Hãy xóa nó để gõ lại.",
        LargeTextPlaceholder => "Tài liệu đã được nạp (xem ghi chú bên dưới); hãy xóa nó để gõ hoặc dán tài liệu khác.",
        FileReadError => "Không đọc được “{name}”.",
        FileNotUtf8 => "“{name}” không phải văn bản UTF-8 nên không được nạp.",
        FileNulBytes => "“{name}” chứa byte NUL, thứ mà tệp văn bản không có: có vẻ đây là tệp nhị phân hoặc văn bản UTF-16 nên không được nạp. Nếu đó là văn bản, hãy lưu lại dưới dạng UTF-8 hoặc dán trực tiếp.",
        FileUtf16 => "“{name}” là văn bản UTF-16 (bắt đầu bằng dấu thứ tự byte của UTF-16) nên không được nạp. Hãy lưu lại dưới dạng UTF-8 hoặc dán trực tiếp văn bản của tệp.",
        FileTooLarge => "“{name}” không được nạp: tệp lớn hơn {max} MB.",
        FileLoaded => "Đã nạp “{name}”.",
        FileReading => "Đang đọc tài liệu “{name}” trên máy này…",
        FileExtracted => "Đã đọc “{name}” ({format}) trong {ms} ms: {chars} ký tự văn bản, trong đó {headings} tiêu đề, {items} mục danh sách và {tables} bảng được ghi thành các dòng kiểu markdown (# tiêu đề, - mục, các ô của bảng ngăn cách bằng |).",
        FileLeftOut => "Đã bỏ qua: {images} hình ảnh (ảnh không phải là văn bản) và {removed} phần tử script, style hoặc phần tử ẩn.",
        ExtractCancel => "Dừng đọc",
        FileCancelled => "Đã dừng đọc “{name}”; ô văn bản giữ nguyên như trước.",
        FileEncrypted => "“{name}” được bảo vệ bằng mật khẩu hoặc là tệp .doc nhị phân kiểu cũ nên không đọc được ở đây. Hãy lưu thành tệp .docx không có mật khẩu rồi mở tệp đó.",
        FileNotDocx => "“{name}” có đuôi .docx nhưng không phải tài liệu Word (không phải tệp nén zip) nên không được nạp.",
        FileNoDocument => "“{name}” là tệp nén zip nhưng không chứa tài liệu Word (không có word/document.xml) nên không được nạp.",
        FileInflatesTooMuch => "“{name}” không được nạp: phần văn bản của nó khi giải nén sẽ lớn hơn {max} MB.",
        FileDamaged => "“{name}” bị hỏng (có một phần bên trong không giải nén được hoặc không phải XML hợp lệ) nên không được nạp.",
        FileHtmlNotUtf8 => "“{name}” là trang HTML không dùng bảng mã UTF-8 nên không được nạp. Hãy lưu lại với bảng mã UTF-8 rồi mở lại.",
        FileReaderFailed => "Trình đọc tài liệu dừng lại khi đang đọc “{name}” mà không trả về kết quả nên không có gì được nạp. Hãy thử lại, hoặc dán trực tiếp văn bản của tệp.",
        FileReaderUnavailable => "Chưa mở được “{name}”: không tải được phần của trang dùng để khởi động trình đọc tài liệu (các bảng bên dưới cũng báo như vậy). Hãy mở lại tệp để thử thêm lần nữa, hoặc dán trực tiếp văn bản của tệp.",
        FileReaderOffline => "Trình đọc tài liệu chưa có trên thiết bị này và trang đang ngoại tuyến: chưa nạp được gì từ “{name}”. Trang tải trình đọc về vào lần đầu mở một tài liệu khi có mạng và giữ lại để dùng ngoại tuyến. Hãy kết nối mạng rồi mở lại tệp, hoặc dán trực tiếp văn bản của tệp.",
        FileReadingPages => "Đang đọc tệp PDF “{name}” trên máy này: đã đọc {done}/{total} trang…",
        FileExtractedPdf => "Đã đọc “{name}” (PDF) trong {ms} ms: {chars} ký tự văn bản từ {pages} trang, giữa hai trang là một dòng trống. Mỗi đoạn bên dưới, và mỗi dòng trong tệp tải xuống, đều ghi rõ nó lấy từ những trang nào.",
        FileImagesLeftOut => "Đã bỏ qua: {images} hình ảnh (ảnh không phải là văn bản).",
        FilePagesWithoutText => "{n} trang không có lớp văn bản nên không đóng góp gì: trang được quét cần nhận dạng ký tự (OCR), mà công cụ này không làm việc đó.",
        FilePagesUnreadable => "{n} trang không đọc được (nội dung bị hỏng) và đã bị bỏ qua.",
        FilePagesRepeated => "Danh sách trang của tệp lặp vòng lại chính nó: mỗi trang chỉ được đọc một lần, và {n} mục lặp lại đã bị bỏ qua.",
        FileGlyphsWithoutText => "Có {n} ký tự của PDF không đọc được thành văn bản: phông chữ không gắn các hình chữ đó với ký tự nào (thường là ký hiệu hoặc biểu tượng), nên chúng không có trong văn bản.",
        FileBoilerplateLeftOut => "Cũng đã bỏ qua {n} khối bố cục trang (điều hướng, đầu trang, chân trang hoặc thanh bên), vì chúng không phải là nội dung.",
        FileNotesAppended => "{n} chú thích cuối trang hoặc cuối tài liệu được ghi sau văn bản dưới dạng dòng [^N]: và được đánh dấu [^N] ở chỗ văn bản nhắc đến.",
        FileHeadersFootersLeftOut => "Đã bỏ qua: {n} đầu trang hoặc chân trang (lặp lại trên mọi trang).",
        FileCommentsLeftOut => "Đã bỏ qua: {n} nhận xét (ghi chú của người duyệt ở lề, không phải văn bản của tài liệu).",
        FileDocxPartsUnreadable => "Không đọc được {n} phần của tệp Word (cách đánh số, chú thích hoặc danh sách các phần của tệp), nên văn bản được đọc mà không có chúng: danh sách có thể hiện dấu đầu dòng thay cho số, và có thể thiếu chú thích.",
        FileNotPdf => "Không mở được “{name}” dưới dạng PDF (tệp bị hỏng, bị cắt cụt hoặc hoàn toàn không phải PDF) nên tệp không được nạp.",
        FilePdfPassword => "“{name}” chỉ mở được khi có mật khẩu nên không thể đọc ở đây. Hãy lưu một bản sao không có mật khẩu rồi mở bản sao đó.",
        FilePdfNoPages => "“{name}” là tệp PDF không có trang nào nên không có gì được nạp.",
        FilePdfScanned => "Không trang nào trong {pages} trang của “{name}” có lớp văn bản: đây là bản quét, và công cụ này không đọc chữ từ hình ảnh (OCR). Hãy chạy OCR trước rồi mở tệp kết quả.",
        FilePdfPagesUnreadable => "Không đọc được trang nào trong {pages} trang của “{name}”: tệp bị hỏng nên không có gì được nạp. Một bản sao được lưu lại từ trình xem PDF có thể đọc được.",
        FileNoText => "“{name}” không có văn bản nào để đọc (chỉ có hình ảnh, script, nội dung ẩn hoặc trang quét) nên ô văn bản được giữ nguyên.",
        StatusReading => "Đang đọc văn bản vừa dán hoặc tài liệu…",
        StatusTokenizing => "Đang đếm token… {percent}",
        StatusLoadingTokenizer => "Đang tải bộ tách token và bảng của nó… đã nhận {kb} KB",
        StatusLoadingTokenizerOf => "Đang tải bộ tách token và bảng của nó… đã nhận {kb}/{total} KB",
        StatusTokenizerFailed => "Không có số đếm chính xác: không tải được bộ tách token (lần đầu mở trang mà không có mạng?). Kết quả dùng ước tính theo ký tự; mọi chỉnh sửa sẽ thử lại.",
        BootFailed => "Trang không khởi động được: chương trình của trang chưa tải xong (mất kết nối?). Hãy tải lại trang để thử lần nữa.",
        BootWaiting => "Công cụ tính vẫn đang khởi động. Những gì bạn gõ, dán hoặc thả vào đây được giữ lại và sẽ được đếm ngay khi công cụ sẵn sàng.",
        StatusReady => "{tokens} token, {chars} ký tự, {bytes} byte ({encoding}).",
        StatusNoText => "Chưa có văn bản: kết quả lấy từ độ dài nhập ở trên.",
        NoteCrlf => "Văn bản này dùng ngắt dòng kiểu Windows (CR LF) và được đếm đúng như vậy. Nếu sửa trong ô nhập, trình duyệt sẽ đổi chúng thành LF và số đếm sẽ thay đổi.",
        NoteReplacement => "Văn bản chứa {n} ký tự thay thế (U+FFFD): hoặc văn bản gốc vốn đã có, hoặc trình duyệt đã đưa vào nửa của một ký tự hỏng (surrogate UTF-16 không thành cặp) mà UTF-8 không biểu diễn được. Chúng được đếm là U+FFFD.",
        SpecialNote => "Các chuỗi như <|endoftext|> được đếm như văn bản thường, giống cách trang Tokenizer công khai của OpenAI đếm, chứ không phải như token đặc biệt.",
        SpecialFound => "Văn bản có chuỗi token đặc biệt: {list}. Chúng được tách token như văn bản thường.",
        PreviewHeading => "Xem trước các đoạn",
        SkipChunks => "Bỏ qua danh sách đoạn",
        PreviewIntro => "Cửa sổ token cố định không quan tâm đến câu hay đoạn văn: chỗ cắt có thể rơi vào giữa câu, giữa từ, thậm chí giữa một ký tự.",
        LegendOverlap => "phần chồng lấp với đoạn trước",
        LegendBytes => "các byte của một ký tự bị mép cửa sổ cắt",
        PreviewEmpty => "Dán văn bản ở trên để xem mỗi đoạn bắt đầu và kết thúc ở đâu.",
        PreviewStale => "Đang cập nhật…",
        ChunkTitle => "Đoạn #{n}",
        ChunkPage => "trang {page}",
        ChunkPages => "trang {first}–{last}",
        ChunkTokens => "token {start}–{end}",
        ChunkBytes => "byte {start}–{end}",
        ChunkOverlap => "{n} token chung với đoạn trước",
        ChunkTruncated => "… còn {n} byte của đoạn này không được hiển thị.",
        PartialTitle => "{n} trong {total} byte của “{ch}” ({code}); phần còn lại nằm ở đoạn kề bên",
        ShowMore => "Hiện thêm {n} đoạn",
        ShowingOf => "Đang hiện {shown} trên {total} đoạn.",
        FaqHeading => "Câu hỏi thường gặp",
        FaqQ1 => "Nên chọn kích thước đoạn và độ chồng lấp bao nhiêu?",
        FaqA1 => "Không có giá trị nào hợp với mọi kho tài liệu. Nhiều hệ thống bắt đầu với vài trăm đến khoảng một nghìn token và chồng lấp 10–20 %. Đoạn nhỏ khớp chính xác hơn nhưng phải lưu và tìm nhiều vector hơn; đoạn lớn giữ nhiều ngữ cảnh hơn nhưng khiến kết quả khớp kém rõ trọng tâm. Hãy quyết định bằng cách thử chính các câu hỏi của bạn trên vài thiết lập.",
        FaqQ2 => "Chồng lấp có làm chi phí nhúng tăng không?",
        FaqA2 => "Có. Mỗi token nằm trong phần chồng lấp được nhúng thêm lần nữa. Với 10.000 token, kích thước 512 và chồng lấp 64, bạn có {chunks} đoạn và gửi {total} token thay vì 10.000: {repeated} token lặp, nhiều hơn tài liệu {extra}.",
        FaqQ3 => "Các con số này có chính xác không?",
        FaqA3 => "Với cửa sổ token cố định thì có: kết quả và phần xem trước dùng cùng một quy tắc. Các bộ chia theo câu, đoạn văn hay tiêu đề tạo ra đoạn không đều và số liệu khác. Độ dài nhập theo ký tự chỉ là ước tính ({per_token} ký tự mỗi token); hãy dán văn bản để có số thật.",
        FaqQ4 => "Nên chọn bộ tách token nào?",
        FaqA4 => "Bộ mà mô hình nhúng của bạn dùng. text-embedding-3-small và -large của OpenAI dùng cl100k_base; o200k_base thuộc về các mô hình trò chuyện mới hơn. Bộ tách token của các hãng khác không có sẵn ở đây, nên với mô hình của họ con số chỉ là gần đúng.",
        FaqQ5 => "Văn bản của tôi có bị gửi đi đâu không?",
        FaqA5 => "Không. Bảng tách token đi kèm trang và mọi phép đếm diễn ra trong trình duyệt của bạn. Sau khi tải xong, trang không gửi yêu cầu mạng nào, và chính sách Content-Security-Policy cấm liên lạc với bất kỳ trang nào khác.",
        Footer => "Không tải lên, không cookie, không theo dõi. Số liệu cho cửa sổ token cố định.",
    }
}

#[cfg(linked_languages)]
fn id(key: Key) -> &'static str {
    use Key::*;
    match key {
        ResultsFormulaNote => "Belum ada teks: angka-angka ini dari rumus jendela token tetap, sama untuk setiap strategi. Tempel atau buka teks untuk melihat chunk asli dari strategi yang dipilih.",
        ResultsFormulaNoteChars => "Belum ada teks: angka-angka ini dari rumus jendela karakter tetap, sama untuk setiap strategi; token diperkirakan 4 karakter per token. Tempel atau buka teks untuk melihat chunk asli dari strategi yang dipilih.",
        ResultsFormulaNoteModel => "Belum ada teks: angka-angka ini dari rumus jendela token tetap, dengan chunk_size, yang menghitung token milik model, dianggap sebagai token {encoding}: sebuah perkiraan. Tempel atau buka teks untuk melihat chunk asli dari strategi yang dipilih.",
        ResultsTokensRule => "Token di-embed: teks setiap chunk dihitung ulang, sebagaimana API embedding menghitung apa yang dikirim kepadanya (jendela token yang memotong sebuah karakter dikirim dengan U+FFFD sebagai gantinya).",
        ResultsWaiting => "Memotong teks dengan {what}…",
        ResultsUnavailable => "{what} tidak dapat dijalankan: strategi chunking halaman ini tidak dapat dimuat atau dimulai.",
        BadgeFormula => "rumus: jendela token tetap",
        BadgeEstimateFor => "chunk tepat dari {what}; token dihitung dengan {tokenizer}, perkiraan atas hitungan model ini sendiri",
        BadgeExactFor => "tepat: {what}, dihitung dengan {tokenizer}",
        OverlapLabelChars => "Tumpang tindih (karakter)",
        ChunkSizeLabelChars => "Ukuran chunk (karakter)",
        Title => "Kalkulator Chunk RAG",
        Tagline => "Lihat berapa biaya sebenarnya dari chunk_size dan chunk_overlap: berapa chunk, berapa token yang di-embed, berapa yang berulang, dan di mana teks Anda terpotong.",
        Privacy => "Semuanya berjalan di peramban Anda. Teks Anda tidak pernah diunggah: halaman ini hanya mengambil berkasnya sendiri (kode, tabel, teks bahasa lain) dari situs ini.",
        PanelsLoading => "Memuat panel model, perbandingan strategi, pemeriksaan pengambilan, dan simulator…",
        PanelsUnavailable => "Panel model, perbandingan strategi, pemeriksaan pengambilan, dan simulator tidak dapat dimuat, jadi bagian halaman tersebut belum berfungsi. Kalkulator tetap berfungsi tanpanya.",
        PanelsRetry => "Coba lagi",
        LanguageLabel => "Bahasa",
        LanguageUnavailable => "Teks halaman dalam {name} tidak dapat dimuat: {reason}. Halaman tetap dalam {shown}; pilih bahasa itu lagi untuk mencoba ulang.",
        LanguageFailedStatus => "situs menjawab dengan status {status}",
        LanguageFailedNetwork => "koneksi gagal",
        LanguageFailedFile => "berkas yang diterima bukan teks versi ini",
        SettingsHeading => "Pengaturan",
        DocLengthLabel => "Panjang dokumen",
        UnitLabel => "Satuan",
        UnitTokens => "token",
        UnitChars => "karakter",
        DocLengthFromText => "Ada teks, jadi jumlah token aslinya ({tokens} token) dipakai sebagai pengganti kolom ini.",
        ChunkSizeLabel => "Ukuran chunk (token)",
        OverlapLabel => "Tumpang tindih (token)",
        PriceLabel => "Harga per 1 juta token (USD, opsional)",
        PriceHint => "Contoh harga: 0,02 pernah menjadi harga resmi OpenAI text-embedding-3-small per sejuta token. Periksa harga terkini di penyedia Anda.",
        TokenizerLabel => "Tokenizer",
        TokenizerHint => "Pilih yang dipakai model embedding Anda: OpenAI text-embedding-3-* memakai cl100k_base.",
        ErrEmpty => "Masukkan angka di sini.",
        ErrNotANumber => "Ini bukan angka. Gunakan digit, misalnya 512 atau 0,02.",
        ErrAmbiguous => "Maksud Anda {grouped} atau {decimal}? Titik di sini bisa memisahkan ribuan atau menandai desimal, jadi ketik {grouped} atau {decimal}.",
        ErrNegative => "Nilai ini tidak boleh negatif.",
        ErrNotWhole => "Gunakan bilangan bulat di sini, tanpa desimal.",
        ErrTooLarge => "Terlalu besar: kolom ini menerima paling banyak {max}.",
        ErrZeroSize => "Satu chunk harus memuat sedikitnya 1 token.",
        ErrFixFields => "Perbaiki kolom yang ditandai untuk melihat hasilnya.",
        NoticeOverlapClamped => "Tumpang tindih diubah untuk perhitungan: tumpang tindih {requested} token tidak lebih kecil dari ukuran chunk {size}, sehingga jendela tidak akan pernah bergeser maju. Sebagai gantinya, hasil memakai tumpang tindih {used} token. Kolom Anda tetap berisi {requested}.",
        NoticeEstimate => "Perkiraan: {chars} karakter ÷ {per_token} ≈ {tokens} token. Sekitar {per_token} karakter per token adalah patokan kasar OpenAI untuk bahasa Inggris; bahasa lain, kode, dan angka memerlukan lebih banyak token per karakter. Tempel teksnya di bawah untuk hitungan yang tepat.",
        NoticeExact => "Tepat: teks Anda dihitung dengan {encoding}.",
        EstimateBadge => "perkiraan",
        ResultsHeading => "Hasil",
        OutDocTokens => "Dokumen (token)",
        OutDocChars => "Dokumen (karakter)",
        OutChunks => "Jumlah chunk",
        OutStride => "Langkah = ukuran − tumpang tindih (token)",
        OutTotal => "Token yang di-embed",
        OutRepeated => "Token berulang (dari tumpang tindih)",
        OutShare => "Porsi token berulang dari yang di-embed",
        OutExtra => "Tambahan terhadap dokumen (faktor pembengkakan − 1)",
        OutLastChunk => "Chunk terakhir (token)",
        OutCost => "Biaya embedding (USD)",
        NotAvailable => "—",
        TextHeading => "Teks Anda",
        TextLabel => "Tempel teks di sini, atau buka atau seret berkas teks (UTF-8), HTML, DOCX, atau PDF",
        TextPlaceholder => "Tempel dokumen untuk menghitung tokennya secara tepat dan melihat setiap potongan…",
        OpenFile => "Buka berkas",
        DropHint => "atau seret berkas (.txt, .md, .html, .docx, .pdf, …) ke kotak teks. Berkas hanya dibaca di perangkat ini.",
        ClearText => "Hapus teks",
        LargeText => "Dokumen ini ({kb} KB, {chars} karakter) terlalu panjang untuk disunting dengan nyaman di kotak, jadi kotak dibiarkan kosong dan hanya-baca; semua angka dan pratinjau di bawah memakai seluruh isinya. Hapus untuk mengetik lagi.",
        LargeTextPlaceholder => "Dokumen sudah dimuat (lihat catatan di bawah); hapus untuk mengetik atau menempel dokumen lain.",
        FileReadError => "Tidak dapat membaca “{name}”.",
        FileNotUtf8 => "“{name}” bukan teks UTF-8, jadi tidak dimuat.",
        FileNulBytes => "“{name}” berisi byte NUL, yang tidak ada dalam berkas teks: tampaknya ini berkas biner atau teks UTF-16, jadi tidak dimuat. Jika ini teks, simpan sebagai UTF-8 atau tempel teksnya.",
        FileUtf16 => "“{name}” adalah teks UTF-16 (diawali penanda urutan byte UTF-16), jadi tidak dimuat. Simpan sebagai UTF-8, atau tempel teksnya.",
        FileTooLarge => "“{name}” tidak dimuat: ukurannya lebih dari {max} MB.",
        FileLoaded => "“{name}” berhasil dimuat.",
        FileReading => "Membaca dokumen “{name}” di perangkat ini…",
        FileExtracted => "“{name}” ({format}) selesai dibaca dalam {ms} ms: {chars} karakter teks, termasuk {headings} judul bagian, {items} butir daftar, dan {tables} tabel, yang ditulis sebagai baris bergaya markdown (# judul, - butir, sel dipisahkan dengan |).",
        FileLeftOut => "Tidak disertakan: {images} gambar (gambar bukan teks) dan {removed} skrip, gaya, atau elemen tersembunyi.",
        ExtractCancel => "Hentikan pembacaan",
        FileCancelled => "Pembacaan “{name}” dihentikan; kotak teks tetap seperti sebelumnya.",
        FileEncrypted => "“{name}” dilindungi kata sandi atau berupa berkas .doc biner lama, jadi tidak dapat dibaca di sini. Simpan sebagai .docx tanpa perlindungan, lalu buka berkas itu.",
        FileNotDocx => "“{name}” berakhiran .docx tetapi bukan dokumen Word (bukan arsip zip), jadi tidak dimuat.",
        FileNoDocument => "“{name}” adalah arsip zip tanpa dokumen Word di dalamnya (tidak ada word/document.xml), jadi tidak dimuat.",
        FileInflatesTooMuch => "“{name}” tidak dimuat: bagian teksnya akan menjadi lebih dari {max} MB setelah diekstrak.",
        FileDamaged => "“{name}” rusak (salah satu bagiannya tidak dapat diekstrak atau bukan XML yang valid), jadi tidak dimuat.",
        FileHtmlNotUtf8 => "“{name}” adalah halaman HTML yang tidak berenkode UTF-8, jadi tidak dimuat. Simpan sebagai UTF-8, lalu buka lagi.",
        FileReaderFailed => "Pembaca dokumen berhenti saat membaca “{name}” tanpa memberikan hasil, jadi tidak ada yang dimuat. Coba lagi, atau tempel teksnya.",
        FileReaderUnavailable => "“{name}” tidak dibuka: bagian halaman yang menjalankan pembaca dokumen tidak dapat dimuat (panel di bawah juga menyatakannya). Buka berkas itu lagi untuk mencoba sekali lagi, atau tempel teksnya.",
        FileReaderOffline => "Pembaca dokumen belum ada di perangkat ini, dan halaman sedang luring: tidak ada yang dimuat dari “{name}”. Halaman mengambil pembaca saat dokumen pertama kali dibuka dalam keadaan daring dan menyimpannya untuk dipakai luring. Sambungkan ke internet lalu buka berkas itu lagi, atau tempel teksnya.",
        FileReadingPages => "Membaca PDF “{name}” di perangkat ini: {done} dari {total} halaman sudah dibaca…",
        FileExtractedPdf => "“{name}” (PDF) selesai dibaca dalam {ms} ms: {chars} karakter teks dari {pages} halaman, dengan satu baris kosong di antara halaman. Setiap chunk di bawah, dan setiap baris dalam unduhan, mencantumkan halaman asalnya.",
        FileImagesLeftOut => "Tidak disertakan: {images} gambar (gambar bukan teks).",
        FilePagesWithoutText => "{n} halaman tidak memiliki lapisan teks sehingga tidak menyumbang apa pun: halaman hasil pindaian memerlukan OCR, yang tidak dilakukan alat ini.",
        FilePagesUnreadable => "{n} halaman tidak dapat dibaca (isinya rusak) dan dilewati.",
        FilePagesRepeated => "Daftar halaman berkas ini berputar kembali ke dirinya sendiri: setiap halaman dibaca sekali, dan {n} entri berulang dilewati.",
        FileGlyphsWithoutText => "{n} karakter PDF tidak dapat dibaca sebagai teks: fontnya tidak memetakan glif tersebut ke karakter apa pun (sering simbol atau ikon), jadi tidak ada dalam teks.",
        FileBoilerplateLeftOut => "Juga tidak disertakan: {n} blok tata letak halaman (navigasi, kepala halaman, kaki halaman, atau bilah samping), karena bukan isi.",
        FileNotesAppended => "{n} catatan kaki atau catatan akhir ditulis setelah teks sebagai baris [^N]: dan ditandai [^N] di tempat teks merujuknya.",
        FileHeadersFootersLeftOut => "Tidak disertakan: {n} header atau footer (diulang di setiap halaman).",
        FileCommentsLeftOut => "Tidak disertakan: {n} komentar (catatan peninjau di margin, bukan teks dokumen).",
        FileDocxPartsUnreadable => "{n} bagian berkas Word (penomorannya, catatannya, atau daftar bagiannya) tidak dapat dibaca, jadi teks dibaca tanpanya: daftar mungkin memakai poin alih-alih nomor, dan catatan mungkin hilang.",
        FileNotPdf => "“{name}” tidak dapat dibuka sebagai PDF (berkasnya rusak, terpotong, atau sama sekali bukan PDF), jadi tidak dimuat.",
        FilePdfPassword => "“{name}” hanya bisa dibuka dengan kata sandi, jadi tidak dapat dibaca di sini. Simpan salinan tanpa kata sandi, lalu buka salinan itu.",
        FilePdfNoPages => "“{name}” adalah PDF tanpa satu halaman pun, jadi tidak ada yang dimuat.",
        FilePdfScanned => "Tidak satu pun dari {pages} halaman “{name}” memiliki lapisan teks: berkas ini hasil pindaian, dan alat ini tidak membaca teks dari gambar (OCR). Jalankan OCR terlebih dahulu, lalu buka hasilnya.",
        FilePdfPagesUnreadable => "Tidak satu pun dari {pages} halaman “{name}” dapat dibaca: berkasnya rusak, jadi tidak ada yang dimuat. Salinan yang disimpan ulang dari penampil PDF mungkin dapat dibaca.",
        FileNoText => "“{name}” tidak berisi teks yang dapat dibaca (hanya gambar, skrip, konten tersembunyi, atau halaman hasil pindaian), jadi kotak teks dibiarkan seperti semula.",
        StatusReading => "Membaca teks yang ditempel atau dokumen…",
        StatusTokenizing => "Menghitung token… {percent}",
        StatusLoadingTokenizer => "Memuat tokenizer dan tabelnya… {kb} KB diterima",
        StatusLoadingTokenizerOf => "Memuat tokenizer dan tabelnya… {kb} dari {total} KB diterima",
        StatusTokenizerFailed => "Tidak ada hitungan pasti: tokenizer tidak dapat dimuat (kunjungan pertama tanpa koneksi?). Hasil memakai perkiraan dari karakter; setiap suntingan mencoba lagi.",
        BootFailed => "Halaman ini tidak dapat dimulai: programnya tidak termuat (koneksi terputus?). Muat ulang halaman untuk mencoba lagi.",
        BootWaiting => "Kalkulator masih dimulai. Apa yang Anda ketik, tempel, atau letakkan di sini disimpan dan dihitung begitu kalkulator siap.",
        StatusReady => "{tokens} token, {chars} karakter, {bytes} byte ({encoding}).",
        StatusNoText => "Belum ada teks: hasil berasal dari panjang yang diketik di atas.",
        NoteCrlf => "Teks ini memakai pemisah baris Windows (CR LF) dan dihitung apa adanya. Menyuntingnya di kotak mengubahnya menjadi LF, seperti yang dilakukan peramban, sehingga jumlahnya berubah.",
        NoteReplacement => "Teks ini memuat {n} karakter pengganti (U+FFFD): entah sumbernya memang memuatnya, entah peramban meneruskan separuh karakter rusak (surrogate UTF-16 tanpa pasangan) yang tidak bisa ditampung UTF-8. Karakter itu dihitung sebagai U+FFFD.",
        SpecialNote => "String seperti <|endoftext|> dihitung sebagai teks biasa, seperti di halaman tokenizer publik OpenAI, bukan sebagai token khusus.",
        SpecialFound => "Teks Anda memuat string token khusus: {list}. String tersebut ditokenisasi sebagai teks biasa.",
        PreviewHeading => "Pratinjau chunk",
        SkipChunks => "Lewati daftar chunk",
        PreviewIntro => "Jendela token tetap mengabaikan kalimat dan paragraf: potongan bisa jatuh di tengah kalimat, di tengah kata, bahkan di dalam satu karakter.",
        LegendOverlap => "tumpang tindih dengan chunk sebelumnya",
        LegendBytes => "byte dari karakter yang terpotong oleh tepi jendela",
        PreviewEmpty => "Tempel teks di atas untuk melihat di mana setiap chunk mulai dan berakhir.",
        PreviewStale => "Memperbarui…",
        ChunkTitle => "Chunk #{n}",
        ChunkPage => "halaman {page}",
        ChunkPages => "halaman {first}–{last}",
        ChunkTokens => "token {start}–{end}",
        ChunkBytes => "byte {start}–{end}",
        ChunkOverlap => "berbagi {n} token dengan chunk sebelumnya",
        ChunkTruncated => "… {n} byte lagi dari chunk ini tidak ditampilkan.",
        PartialTitle => "{n} dari {total} byte “{ch}” ({code}); sisanya ada di chunk tetangga",
        ShowMore => "Tampilkan {n} chunk lagi",
        ShowingOf => "Menampilkan {shown} dari {total} chunk.",
        FaqHeading => "Pertanyaan",
        FaqQ1 => "Ukuran chunk dan tumpang tindih berapa yang sebaiknya dipilih?",
        FaqA1 => "Tidak ada nilai yang cocok untuk semua korpus. Banyak pipeline mulai dari beberapa ratus hingga sekitar seribu token, dengan tumpang tindih 10–20 %. Chunk kecil memberi kecocokan yang lebih tajam tetapi menambah jumlah vektor yang disimpan dan dicari; chunk besar menjaga lebih banyak konteks tetapi mengaburkan pokok isi yang cocok. Putuskan dengan menguji pertanyaan Anda sendiri pada beberapa pengaturan.",
        FaqQ2 => "Apakah tumpang tindih menaikkan biaya embedding?",
        FaqA2 => "Ya. Setiap token di bagian tumpang tindih di-embed lagi. Dengan 10.000 token, ukuran 512 dan tumpang tindih 64, Anda mendapat {chunks} chunk dan mengirim {total} token, bukan 10.000: {repeated} token berulang, {extra} lebih banyak daripada dokumen.",
        FaqQ3 => "Apakah angka-angka ini tepat?",
        FaqA3 => "Untuk jendela token tetap, ya: hasil dan pratinjau memakai aturan yang sama. Pemecah yang mengikuti kalimat, paragraf atau judul menghasilkan chunk yang tidak rata dan hitungan yang berbeda. Panjang yang diketik dalam karakter hanyalah perkiraan ({per_token} karakter per token); tempel teksnya untuk angka sebenarnya.",
        FaqQ4 => "Tokenizer mana yang harus dipilih?",
        FaqA4 => "Yang dipakai model embedding Anda. text-embedding-3-small dan -large dari OpenAI memakai cl100k_base; o200k_base milik model percakapan yang lebih baru. Tokenizer vendor lain tidak disertakan di sini, jadi untuk model mereka angkanya hanya perkiraan.",
        FaqQ5 => "Apakah teks saya dikirim ke suatu tempat?",
        FaqA5 => "Tidak. Tabel tokenizer disertakan bersama halaman dan semua penghitungan terjadi di peramban Anda. Setelah dimuat, halaman tidak mengirim permintaan jaringan, dan Content-Security-Policy melarang halaman menghubungi situs lain.",
        Footer => "Tanpa unggahan, tanpa cookie, tanpa pelacakan. Angka untuk jendela token tetap.",
    }
}

#[cfg(linked_languages)]
fn ru(key: Key) -> &'static str {
    use Key::*;
    match key {
        ResultsFormulaNote => "Текста пока нет: это расчёт по формуле для окон фиксированной длины, одинаковый для любой стратегии. Вставьте или откройте текст, чтобы увидеть настоящие чанки выбранной стратегии.",
        ResultsFormulaNoteChars => "Текста пока нет: это расчёт по формуле для окон фиксированной длины в символах, одинаковый для любой стратегии; токены оценены как 4 символа на токен. Вставьте или откройте текст, чтобы увидеть настоящие чанки выбранной стратегии.",
        ResultsFormulaNoteModel => "Текста пока нет: это расчёт по формуле для окон фиксированной длины, где chunk_size, который считает токены самой модели, принят за токены {encoding}: это оценка. Вставьте или откройте текст, чтобы увидеть настоящие чанки выбранной стратегии.",
        ResultsTokensRule => "Токены на эмбеддинг: собственный текст каждого чанка, посчитанный заново, как API эмбеддингов считает то, что ему отправили (окно токенов, разрезающее символ, отправляется с U+FFFD на его месте).",
        ResultsWaiting => "Текст режется стратегией {what}…",
        ResultsUnavailable => "Не удаётся выполнить {what}: стратегии разбиения не удалось загрузить или запустить.",
        BadgeFormula => "формула: окна фиксированной длины в токенах",
        BadgeEstimateFor => "точные чанки {what}; токены посчитаны в {tokenizer}, для собственного токенизатора модели это оценка",
        BadgeExactFor => "точно: {what}, подсчёт в {tokenizer}",
        OverlapLabelChars => "Перекрытие (символы)",
        ChunkSizeLabelChars => "Размер чанка (символы)",
        Title => "Калькулятор чанков для RAG",
        Tagline => "Посмотрите, во что на деле обходятся chunk_size и chunk_overlap: сколько чанков, сколько токенов уйдёт на эмбеддинг, сколько из них повторы и где разрезается ваш собственный текст.",
        Privacy => "Всё работает в вашем браузере. Текст никуда не отправляется: страница загружает только собственные файлы (код, таблицы, тексты на другом языке) с этого сайта.",
        PanelsLoading => "Загружаются панель модели, сравнение стратегий, проверка поиска и симулятор…",
        PanelsUnavailable => "Не удалось загрузить панель модели, сравнение стратегий, проверку поиска и симулятор, поэтому эти части страницы пока не работают. Калькулятор работает и без них.",
        PanelsRetry => "Попробовать снова",
        LanguageLabel => "Язык",
        LanguageUnavailable => "Не удалось загрузить тексты страницы на языке «{name}»: {reason}. Страница остаётся на языке «{shown}»; выберите язык ещё раз, чтобы повторить попытку.",
        LanguageFailedStatus => "сайт ответил кодом {status}",
        LanguageFailedNetwork => "соединение не удалось",
        LanguageFailedFile => "полученный файл не содержит тексты этой версии",
        SettingsHeading => "Параметры",
        DocLengthLabel => "Длина документа",
        UnitLabel => "Единица",
        UnitTokens => "токены",
        UnitChars => "символы",
        DocLengthFromText => "Текст уже есть, поэтому вместо этого поля используется его реальная длина: {tokens, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}.",
        ChunkSizeLabel => "Размер чанка (токены)",
        OverlapLabel => "Перекрытие (токены)",
        PriceLabel => "Цена за 1 млн токенов (USD, необязательно)",
        PriceHint => "Пример цены: 0,02 — такой была прейскурантная цена OpenAI text-embedding-3-small за миллион токенов. Актуальную цену уточните у своего провайдера.",
        TokenizerLabel => "Токенизатор",
        TokenizerHint => "Выберите тот, что использует ваша модель эмбеддингов: OpenAI text-embedding-3-* используют cl100k_base.",
        ErrEmpty => "Введите число.",
        ErrNotANumber => "Это не число. Используйте цифры, например 512 или 0,02.",
        ErrAmbiguous => "Вы имели в виду {grouped} или {decimal}? Точка здесь может отделять тысячи или дробную часть, поэтому введите {grouped} или {decimal}.",
        ErrNegative => "Значение не может быть отрицательным.",
        ErrNotWhole => "Здесь нужно целое число, без дробной части.",
        ErrTooLarge => "Слишком большое значение: максимум для этого поля — {max}.",
        ErrZeroSize => "Чанк должен вмещать хотя бы 1 токен.",
        ErrFixFields => "Исправьте отмеченные поля, чтобы увидеть результат.",
        NoticeOverlapClamped => "Перекрытие изменено для расчёта: при перекрытии в {requested, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}, что не меньше размера чанка ({size}), окна никогда не сдвигались бы вперёд, поэтому в расчёте использовано перекрытие в {used, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}. В вашем поле по-прежнему {requested}.",
        NoticeEstimate => "Оценка: {chars, plural, one {# символ} few {# символа} many {# символов} other {# символа}} ÷ {per_token} ≈ {tokens, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}. Около {per_token} символов на токен — эмпирическое правило OpenAI для английского; другие языки, код и числа требуют больше токенов на символ. Вставьте текст ниже, чтобы получить точный подсчёт.",
        NoticeExact => "Точно: ваш текст посчитан токенизатором {encoding}.",
        EstimateBadge => "оценка",
        ResultsHeading => "Результат",
        OutDocTokens => "Документ (токены)",
        OutDocChars => "Документ (символы)",
        OutChunks => "Чанков",
        OutStride => "Шаг = размер − перекрытие (токены)",
        OutTotal => "Токенов на эмбеддинг",
        OutRepeated => "Повторённые токены (из-за перекрытия)",
        OutShare => "Доля повторов в отправленных токенах",
        OutExtra => "Сверх длины документа (коэффициент раздувания − 1)",
        OutLastChunk => "Последний чанк (токены)",
        OutCost => "Стоимость эмбеддинга (USD)",
        NotAvailable => "—",
        TextHeading => "Ваш текст",
        TextLabel => "Вставьте текст сюда или откройте либо перетащите файл: текстовый (UTF-8), HTML, DOCX или PDF",
        TextPlaceholder => "Вставьте документ, чтобы точно посчитать токены и увидеть каждый разрез…",
        OpenFile => "Открыть файл",
        DropHint => "или перетащите файл (.txt, .md, .html, .docx, .pdf, …) в текстовое поле. Файлы читаются только на этом устройстве.",
        ClearText => "Очистить текст",
        LargeText => "Этот документ ({kb} КБ, {chars, plural, one {# символ} few {# символа} many {# символов} other {# символа}}) слишком длинный для удобной правки в поле, поэтому поле остаётся пустым и доступным только для чтения; все цифры и просмотр чанков ниже учитывают документ целиком. Очистите поле, чтобы снова вводить текст.",
        LargeTextPlaceholder => "Документ загружен (см. примечание ниже); очистите поле, чтобы ввести или вставить другой.",
        FileReadError => "Не удалось прочитать «{name}».",
        FileNotUtf8 => "Файл «{name}» — не текст в UTF-8, поэтому он не загружен.",
        FileNulBytes => "В файле «{name}» есть байты NUL, которых не бывает в текстовых файлах: похоже, это двоичный файл или текст в UTF-16, поэтому он не загружен. Если это текст, сохраните его в UTF-8 или вставьте его текст.",
        FileUtf16 => "Файл «{name}» — текст в UTF-16 (он начинается с метки порядка байтов UTF-16), поэтому он не загружен. Сохраните его в UTF-8 или вставьте его текст.",
        FileTooLarge => "Файл «{name}» не загружен: он больше {max} МБ.",
        FileLoaded => "Файл «{name}» загружен.",
        FileReading => "Чтение документа «{name}» на этом устройстве…",
        FileExtracted => "Документ «{name}» ({format}) прочитан за {ms} мс: {chars, plural, one {# символ} few {# символа} many {# символов} other {# символа}} текста; {headings, plural, one {# заголовок} few {# заголовка} many {# заголовков} other {# заголовка}}, {items, plural, one {# пункт списка} few {# пункта списка} many {# пунктов списка} other {# пункта списка}} и {tables, plural, one {# таблица} few {# таблицы} many {# таблиц} other {# таблицы}} записаны строками в духе markdown (# заголовок, - пункт, ячейки через |).",
        FileLeftOut => "Не вошло в текст: {images, plural, one {# изображение} few {# изображения} many {# изображений} other {# изображения}} (картинки — не текст) и {removed, plural, one {# скрипт, стиль или скрытый элемент} few {# скрипта, стиля или скрытых элемента} many {# скриптов, стилей или скрытых элементов} other {# скрипта, стиля или скрытого элемента}}.",
        ExtractCancel => "Остановить чтение",
        FileCancelled => "Чтение файла «{name}» остановлено; текстовое поле осталось без изменений.",
        FileEncrypted => "Файл «{name}» защищён паролем или это старый двоичный файл .doc, поэтому прочитать его здесь нельзя. Сохраните документ как .docx без защиты и откройте новый файл.",
        FileNotDocx => "У файла «{name}» расширение .docx, но это не документ Word (не zip-архив), поэтому он не загружен.",
        FileNoDocument => "Файл «{name}» — zip-архив без документа Word внутри (нет word/document.xml), поэтому он не загружен.",
        FileInflatesTooMuch => "Файл «{name}» не загружен: его текстовая часть после распаковки заняла бы больше {max} МБ.",
        FileDamaged => "Файл «{name}» повреждён (одна из его частей не распаковывается или не является корректным XML), поэтому он не загружен.",
        FileHtmlNotUtf8 => "Файл «{name}» — HTML-страница не в кодировке UTF-8, поэтому он не загружен. Сохраните его в UTF-8 и откройте снова.",
        FileReaderFailed => "Чтение документа «{name}» прервалось, не дав результата, поэтому ничего не загружено. Попробуйте ещё раз или вставьте его текст.",
        FileReaderUnavailable => "«{name}» не открыт: не удалось загрузить часть страницы, которая запускает модуль чтения документов (панели ниже сообщают о том же). Откройте файл ещё раз, чтобы попробовать снова, или вставьте его текст.",
        FileReaderOffline => "Модуля чтения документов ещё нет на этом устройстве, а страница работает офлайн: из «{name}» ничего не загружено. Страница скачивает его, когда документ впервые открывают при подключении к сети, и сохраняет для работы офлайн. Подключитесь к сети и откройте файл ещё раз или вставьте его текст.",
        FileReadingPages => "Чтение PDF «{name}» на этом устройстве: прочитано {done} из {total, plural, one {# страницы} few {# страниц} many {# страниц} other {# страницы}}…",
        FileExtractedPdf => "Документ «{name}» (PDF) прочитан за {ms} мс: {chars, plural, one {# символ} few {# символа} many {# символов} other {# символа}} текста с {pages, plural, one {# страницы} few {# страниц, разделённых пустой строкой} many {# страниц, разделённых пустой строкой} other {# страницы, разделённых пустой строкой}}. Для каждого чанка ниже и для каждой строки выгрузки указаны страницы, с которых взят их текст.",
        FileImagesLeftOut => "Не вошло в текст: {images, plural, one {# изображение} few {# изображения} many {# изображений} other {# изображения}} (картинки — не текст).",
        FilePagesWithoutText => "{n, plural, one {# страница не имеет текстового слоя и ничего не добавляет} few {# страницы не имеют текстового слоя и ничего не добавляют} many {# страниц не имеют текстового слоя и ничего не добавляют} other {# страницы не имеют текстового слоя и ничего не добавляют}}: для отсканированной страницы нужно распознавание текста (OCR), а этот инструмент его не выполняет.",
        FilePagesUnreadable => "{n, plural, one {# страницу не удалось прочитать (её содержимое повреждено), она пропущена} few {# страницы не удалось прочитать (их содержимое повреждено), они пропущены} many {# страниц не удалось прочитать (их содержимое повреждено), они пропущены} other {# страницы не удалось прочитать (их содержимое повреждено), они пропущены}}.",
        FilePagesRepeated => "Список страниц файла замыкается сам на себя: каждая страница прочитана один раз, {n, plural, one {# повторная запись пропущена} few {# повторные записи пропущены} many {# повторных записей пропущено} other {# повторной записи пропущено}}.",
        FileGlyphsWithoutText => "{n, plural, one {# знак} few {# знака} many {# знаков} other {# знака}} PDF не удалось прочитать как текст: шрифт не сопоставляет {n, plural, one {этот глиф} few {эти глифы} many {эти глифы} other {эти глифы}} ни с каким символом (чаще всего это значки и символы), поэтому в тексте {n, plural, one {его} few {их} many {их} other {их}} нет.",
        FileBoilerplateLeftOut => "Оформление страницы тоже не вошло в текст: {n, plural, one {# блок навигации, шапки, подвала или боковой панели} few {# блока навигации, шапки, подвала или боковой панели} many {# блоков навигации, шапки, подвала или боковой панели} other {# блока навигации, шапки, подвала или боковой панели}}.",
        FileNotesAppended => "После текста добавлены строки [^N]: для {n, plural, one {# сноски} few {# сносок} many {# сносок} other {# сноски}} (обычных и концевых); в тексте они отмечены [^N] там, где на них ссылаются.",
        FileHeadersFootersLeftOut => "Не вошло в текст: {n, plural, one {# колонтитул} few {# колонтитула} many {# колонтитулов} other {# колонтитула}} (повторяются на каждой странице).",
        FileCommentsLeftOut => "Не вошло в текст: {n, plural, one {# комментарий} few {# комментария} many {# комментариев} other {# комментария}} рецензентов (заметки на полях, а не текст документа).",
        FileDocxPartsUnreadable => "Не удалось прочитать {n, plural, one {# часть} few {# части} many {# частей} other {# части}} файла Word (нумерацию, сноски или список частей), поэтому текст прочитан без них: в списках могут стоять маркеры вместо номеров, а сносок может не быть.",
        FileNotPdf => "Файл «{name}» не удалось открыть как PDF (он повреждён, обрезан или вовсе не PDF), поэтому он не загружен.",
        FilePdfPassword => "Файл «{name}» открывается только с паролем, поэтому прочитать его здесь нельзя. Сохраните копию без пароля и откройте её.",
        FilePdfNoPages => "В PDF «{name}» нет ни одной страницы, поэтому ничего не загружено.",
        FilePdfScanned => "{pages, plural, one {На единственной странице файла «{name}» нет текстового слоя} few {Ни на одной из # страниц файла «{name}» нет текстового слоя} many {Ни на одной из # страниц файла «{name}» нет текстового слоя} other {Ни на одной из # страницы файла «{name}» нет текстового слоя}}: это скан, а распознавать текст на изображениях (OCR) этот инструмент не умеет. Сначала распознайте текст, затем откройте результат.",
        FilePdfPagesUnreadable => "{pages, plural, one {Единственную страницу файла «{name}» не удалось прочитать} few {Ни одну из # страниц файла «{name}» не удалось прочитать} many {Ни одну из # страниц файла «{name}» не удалось прочитать} other {Ни одну из # страницы файла «{name}» не удалось прочитать}}: файл повреждён, поэтому ничего не загружено. Копия, заново сохранённая из программы просмотра PDF, может читаться.",
        FileNoText => "В файле «{name}» нет текста для чтения (только изображения, скрипты, скрытое содержимое или отсканированные страницы), поэтому текстовое поле осталось без изменений.",
        StatusReading => "Чтение вставленного текста или документа…",
        StatusTokenizing => "Подсчёт токенов… {percent}",
        StatusLoadingTokenizer => "Загрузка токенизатора и его таблицы… получено {kb} КБ",
        StatusLoadingTokenizerOf => "Загрузка токенизатора и его таблицы… получено {kb} из {total} КБ",
        StatusTokenizerFailed => "Точного подсчёта нет: токенизатор не загрузился (первое открытие страницы без сети?). Расчёт идёт по оценке из числа символов; любая правка повторит попытку.",
        BootFailed => "Страница не запустилась: её программа не загрузилась (пропала сеть?). Обновите страницу, чтобы попробовать снова.",
        BootWaiting => "Калькулятор ещё запускается. Всё, что вы введёте, вставите или перетащите сюда, сохранится и будет посчитано, как только он будет готов.",
        StatusReady => "Токенов: {tokens} · символов: {chars} · байт: {bytes} ({encoding}).",
        StatusNoText => "Текста пока нет: расчёт идёт по длине, введённой выше.",
        NoteCrlf => "В этом тексте переводы строк в стиле Windows (CR LF), они считаются как есть. При правке в поле браузер заменит их на LF, и подсчёт изменится.",
        NoteReplacement => "В тексте символов замены (U+FFFD): {n}. Либо они были в источнике, либо браузер передал половинки испорченных символов (непарные суррогаты UTF-16), которые UTF-8 не может хранить. Они считаются как U+FFFD.",
        SpecialNote => "Строки вроде <|endoftext|> считаются обычным текстом, как на публичной странице токенизатора OpenAI, а не специальными токенами.",
        SpecialFound => "В тексте есть строки специальных токенов: {list}. Они разобраны как обычный текст.",
        PreviewHeading => "Просмотр чанков",
        SkipChunks => "Пропустить список чанков",
        PreviewIntro => "Фиксированные окна токенов не знают о предложениях и абзацах: разрез может прийтись на середину предложения, слова и даже символа.",
        LegendOverlap => "перекрытие с предыдущим чанком",
        LegendBytes => "байты символа, разрезанного краем окна",
        PreviewEmpty => "Вставьте текст выше, чтобы увидеть, где начинается и заканчивается каждый чанк.",
        PreviewStale => "Обновление…",
        ChunkTitle => "Чанк #{n}",
        ChunkPage => "страница {page}",
        ChunkPages => "страницы {first}–{last}",
        ChunkTokens => "токены {start}–{end}",
        ChunkBytes => "байты {start}–{end}",
        ChunkOverlap => "перекрытие с предыдущим чанком: {n, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}",
        ChunkTruncated => "… {n, plural, one {ещё # байт этого чанка не показан} few {ещё # байта этого чанка не показаны} many {ещё # байт этого чанка не показаны} other {ещё # байта этого чанка не показаны}}.",
        PartialTitle => "{n} из {total} байт символа «{ch}» ({code}); остальные — в соседнем чанке",
        ShowMore => "Показать ещё {n, plural, one {# чанк} few {# чанка} many {# чанков} other {# чанка}}",
        ShowingOf => "{shown, plural, one {Показан #} few {Показаны #} many {Показано #} other {Показано #}} из {total, plural, one {# чанка} few {# чанков} many {# чанков} other {# чанка}}.",
        FaqHeading => "Вопросы",
        FaqQ1 => "Какой размер чанка и перекрытие выбрать?",
        FaqA1 => "Универсального значения нет. Многие начинают с размера от нескольких сотен до примерно тысячи токенов и перекрытия 10–20 %. Маленькие чанки дают более точные совпадения, но векторов для хранения и поиска становится больше; крупные сохраняют контекст, но размывают смысл совпадения. Решайте, прогнав собственные вопросы на нескольких вариантах.",
        FaqQ2 => "Перекрытие увеличивает счёт за эмбеддинги?",
        FaqA2 => "Да. Каждый токен из перекрытия отправляется на эмбеддинг повторно. При 10 000 токенов, размере 512 и перекрытии 64 получается {chunks, plural, one {# чанк} few {# чанка} many {# чанков} other {# чанка}}, и на эмбеддинг уходит {total, plural, one {# токен} few {# токена} many {# токенов} other {# токена}} вместо 10 000: {repeated, plural, one {# повтор} few {# повтора} many {# повторов} other {# повтора}}, на {extra} больше, чем в документе.",
        FaqQ3 => "Эти числа точные?",
        FaqA3 => "Для фиксированных окон токенов — да: цифры и просмотр считаются по одному правилу. Разбиение по предложениям, абзацам или заголовкам даёт неровные чанки и другие числа. Длина, заданная в символах, — лишь оценка (в среднем {per_token, plural, one {# символ} few {# символа} many {# символов} other {# символа}} на токен); вставьте текст, чтобы получить настоящее число.",
        FaqQ4 => "Какой токенизатор выбрать?",
        FaqA4 => "Тот, что использует ваша модель эмбеддингов. text-embedding-3-small и -large от OpenAI используют cl100k_base; o200k_base относится к более новым чат-моделям. Токенизаторов других поставщиков здесь нет, поэтому для их моделей числа приблизительные.",
        FaqQ5 => "Мой текст куда-нибудь отправляется?",
        FaqA5 => "Нет. Таблицы токенизатора поставляются вместе со страницей, и весь подсчёт идёт в вашем браузере. После загрузки страница не делает сетевых запросов, а Content-Security-Policy запрещает обращаться к другим сайтам.",
        Footer => "Без загрузки на сервер, без cookie, без слежки. Расчёт для фиксированных окон токенов.",
    }
}

#[cfg(linked_languages)]
fn pl(key: Key) -> &'static str {
    use Key::*;
    match key {
        ResultsFormulaNote => "Nie ma jeszcze tekstu: te liczby pochodzą ze wzoru dla stałych okien tokenów i są takie same dla każdej strategii. Wklej lub otwórz tekst, aby zobaczyć prawdziwe chunki wybranej strategii.",
        ResultsFormulaNoteChars => "Nie ma jeszcze tekstu: te liczby pochodzą ze wzoru dla stałych okien znaków i są takie same dla każdej strategii; tokeny oszacowano jako 4 znaki na token. Wklej lub otwórz tekst, aby zobaczyć prawdziwe chunki wybranej strategii.",
        ResultsFormulaNoteModel => "Nie ma jeszcze tekstu: te liczby pochodzą ze wzoru dla stałych okien tokenów, w którym chunk_size, liczący tokeny samego modelu, przyjęto jako tokeny {encoding}: to oszacowanie. Wklej lub otwórz tekst, aby zobaczyć prawdziwe chunki wybranej strategii.",
        ResultsTokensRule => "Tokeny do embeddingu: własny tekst każdego chunka policzony od nowa, tak jak API embeddingów liczy to, co otrzymuje (okno tokenów przecinające znak jest wysyłane z U+FFFD w jego miejscu).",
        ResultsWaiting => "Tekst jest dzielony strategią {what}…",
        ResultsUnavailable => "Nie można uruchomić {what}: nie udało się wczytać ani uruchomić strategii dzielenia strony.",
        BadgeFormula => "wzór: stałe okna tokenów",
        BadgeEstimateFor => "dokładne chunki {what}; tokeny policzone w {tokenizer}, dla własnego tokenizera modelu to szacunek",
        BadgeExactFor => "dokładnie: {what}, liczone w {tokenizer}",
        OverlapLabelChars => "Nakładanie (znaki)",
        ChunkSizeLabelChars => "Rozmiar chunka (znaki)",
        Title => "Kalkulator chunków RAG",
        Tagline => "Zobacz, ile naprawdę kosztują chunk_size i chunk_overlap: ile chunków, ile tokenów trafi do embeddingu, ile z nich to powtórzenia i gdzie wypadają cięcia w Twoim własnym tekście.",
        Privacy => "Wszystko działa w Twojej przeglądarce. Tekst nigdy nie jest wysyłany: strona pobiera tylko własne pliki (kod, tabele, teksty w innym języku) z tej witryny.",
        PanelsLoading => "Wczytywanie panelu modelu, porównania strategii, sprawdzenia wyszukiwania i symulatora…",
        PanelsUnavailable => "Nie udało się wczytać panelu modelu, porównania strategii, sprawdzenia wyszukiwania i symulatora, więc te części strony jeszcze nie działają. Kalkulator działa bez nich.",
        PanelsRetry => "Spróbuj ponownie",
        LanguageLabel => "Język",
        LanguageUnavailable => "Nie udało się wczytać tekstów strony w języku „{name}”: {reason}. Strona pozostaje w języku „{shown}”; wybierz język ponownie, aby spróbować jeszcze raz.",
        LanguageFailedStatus => "witryna odpowiedziała kodem {status}",
        LanguageFailedNetwork => "połączenie się nie powiodło",
        LanguageFailedFile => "otrzymany plik nie zawiera tekstów tej wersji",
        SettingsHeading => "Ustawienia",
        DocLengthLabel => "Długość dokumentu",
        UnitLabel => "Jednostka",
        UnitTokens => "tokeny",
        UnitChars => "znaki",
        DocLengthFromText => "Tekst jest już podany, więc zamiast wartości z tego pola używana jest jego rzeczywista liczba tokenów: {tokens}.",
        ChunkSizeLabel => "Rozmiar chunka (tokeny)",
        OverlapLabel => "Nakładanie (tokeny)",
        PriceLabel => "Cena za 1 mln tokenów (USD, opcjonalnie)",
        PriceHint => "Przykładowa cena: 0,02 – tyle wynosiła cena katalogowa OpenAI text-embedding-3-small za milion tokenów. Sprawdź aktualną stawkę u swojego dostawcy.",
        TokenizerLabel => "Tokenizer",
        TokenizerHint => "Wybierz ten, którego używa Twój model embeddingów: modele OpenAI text-embedding-3-* używają cl100k_base.",
        ErrEmpty => "Wpisz liczbę.",
        ErrNotANumber => "To nie jest liczba. Użyj cyfr, na przykład 512 lub 0,02.",
        ErrAmbiguous => "Chodziło o {grouped} czy {decimal}? Kropka może tu oddzielać tysiące albo część dziesiętną, więc wpisz {grouped} lub {decimal}.",
        ErrNegative => "Wartość nie może być ujemna.",
        ErrNotWhole => "Tu potrzebna jest liczba całkowita, bez części ułamkowej.",
        ErrTooLarge => "Za duża wartość: to pole przyjmuje najwyżej {max}.",
        ErrZeroSize => "Chunk musi mieścić co najmniej 1 token.",
        ErrFixFields => "Popraw zaznaczone pola, aby zobaczyć wyniki.",
        NoticeOverlapClamped => "Nakładanie zmienione na potrzeby obliczeń: nakładanie {requested, plural, one {# tokenu} few {# tokenów} many {# tokenów} other {# tokenu}} nie jest mniejsze od rozmiaru chunka ({size}), więc okna nigdy nie przesuwałyby się do przodu. W wynikach nakładanie wynosi {used, plural, one {# token} few {# tokeny} many {# tokenów} other {# tokenu}}. W Twoim polu nadal jest {requested}.",
        NoticeEstimate => "Oszacowanie: {chars, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}} ÷ {per_token} ≈ {tokens, plural, one {# token} few {# tokeny} many {# tokenów} other {# tokenu}}. Średnio {per_token, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}} na token to praktyczna reguła OpenAI dla angielskiego; inne języki, kod i liczby potrzebują więcej tokenów na znak. Wklej tekst poniżej, aby policzyć dokładnie.",
        NoticeExact => "Dokładnie: Twój tekst policzony tokenizerem {encoding}.",
        EstimateBadge => "szacunkowo",
        ResultsHeading => "Wyniki",
        OutDocTokens => "Dokument (tokeny)",
        OutDocChars => "Dokument (znaki)",
        OutChunks => "Liczba chunków",
        OutStride => "Krok = rozmiar − nakładanie (tokeny)",
        OutTotal => "Tokeny do embeddingu",
        OutRepeated => "Powtórzone tokeny (z nakładania)",
        OutShare => "Udział powtórzeń wśród tokenów do embeddingu",
        OutExtra => "Nadwyżka ponad dokument (współczynnik rozdęcia − 1)",
        OutLastChunk => "Ostatni chunk (tokeny)",
        OutCost => "Koszt embeddingu (USD)",
        NotAvailable => "—",
        TextHeading => "Twój tekst",
        TextLabel => "Wklej tekst tutaj albo otwórz lub upuść plik tekstowy (UTF-8), HTML, DOCX lub PDF",
        TextPlaceholder => "Wklej dokument, aby dokładnie policzyć tokeny i zobaczyć każde cięcie…",
        OpenFile => "Otwórz plik",
        DropHint => "albo upuść plik (.txt, .md, .html, .docx, .pdf, …) na pole tekstowe. Pliki są odczytywane tylko na tym urządzeniu.",
        ClearText => "Wyczyść tekst",
        LargeText => "Ten dokument ({kb} KB, {chars, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}}) jest za długi, by wygodnie edytować go w polu, więc pole pozostaje puste i tylko do odczytu; wszystkie liczby i podgląd poniżej obejmują go w całości. Wyczyść go, aby znów pisać.",
        LargeTextPlaceholder => "Dokument jest wczytany (zob. uwagę poniżej); wyczyść go, aby wpisać lub wkleić inny.",
        FileReadError => "Nie udało się odczytać pliku „{name}”.",
        FileNotUtf8 => "Plik „{name}” nie jest tekstem UTF-8, więc nie został wczytany.",
        FileNulBytes => "Plik „{name}” zawiera bajty NUL, których nie ma w plikach tekstowych: wygląda na plik binarny albo tekst UTF-16, więc nie został wczytany. Jeśli to tekst, zapisz go jako UTF-8 albo wklej.",
        FileUtf16 => "Plik „{name}” to tekst UTF-16 (zaczyna się znacznikiem kolejności bajtów UTF-16), więc nie został wczytany. Zapisz go jako UTF-8 albo wklej jego tekst.",
        FileTooLarge => "Nie wczytano pliku „{name}”: jest większy niż {max} MB.",
        FileLoaded => "Wczytano plik „{name}”.",
        FileReading => "Odczytuję dokument „{name}” na tym urządzeniu…",
        FileExtracted => "Odczytano plik „{name}” ({format}) w {ms} ms: {chars, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}} tekstu; {headings, plural, one {# nagłówek} few {# nagłówki} many {# nagłówków} other {# nagłówka}}, {items, plural, one {# punkt listy} few {# punkty listy} many {# punktów listy} other {# punktu listy}} i {tables, plural, one {# tabelę} few {# tabele} many {# tabel} other {# tabeli}} zapisano jako wiersze w stylu markdown (# nagłówek, - punkt, komórki rozdzielone znakiem |).",
        FileLeftOut => "Pominięto: {images, plural, one {# obraz} few {# obrazy} many {# obrazów} other {# obrazu}} (obrazy to nie tekst) oraz {removed, plural, one {# skrypt, styl lub ukryty element} few {# skrypty, style lub ukryte elementy} many {# skryptów, stylów lub ukrytych elementów} other {# skryptu, stylu lub ukrytego elementu}}.",
        ExtractCancel => "Przerwij odczyt",
        FileCancelled => "Przerwano odczyt pliku „{name}”; pole tekstowe pozostało bez zmian.",
        FileEncrypted => "Plik „{name}” jest chroniony hasłem albo jest starym binarnym plikiem .doc, więc nie da się go tu odczytać. Zapisz dokument jako plik .docx bez zabezpieczeń i otwórz nowy plik.",
        FileNotDocx => "Plik „{name}” ma rozszerzenie .docx, ale nie jest dokumentem Word (nie jest archiwum zip), więc nie został wczytany.",
        FileNoDocument => "Plik „{name}” to archiwum zip bez dokumentu Word w środku (brak word/document.xml), więc nie został wczytany.",
        FileInflatesTooMuch => "Plik „{name}” nie został wczytany: jego część tekstowa po rozpakowaniu zajęłaby ponad {max} MB.",
        FileDamaged => "Plik „{name}” jest uszkodzony (jednej z jego części nie da się rozpakować albo nie jest ona poprawnym dokumentem XML), więc nie został wczytany.",
        FileHtmlNotUtf8 => "Plik „{name}” to strona HTML w kodowaniu innym niż UTF-8, więc nie został wczytany. Zapisz go w UTF-8 i otwórz ponownie.",
        FileReaderFailed => "Odczyt dokumentu „{name}” urwał się bez wyniku, więc nic nie wczytano. Spróbuj ponownie albo wklej jego tekst.",
        FileReaderUnavailable => "Nie otwarto „{name}”: nie udało się wczytać części strony, która uruchamia czytnik dokumentów (panele poniżej też o tym mówią). Otwórz plik ponownie, aby spróbować jeszcze raz, albo wklej jego tekst.",
        FileReaderOffline => "Czytnika dokumentów nie ma jeszcze na tym urządzeniu, a strona działa offline: z „{name}” nic nie wczytano. Strona pobiera czytnik, gdy dokument zostanie po raz pierwszy otwarty online, i zachowuje go do pracy offline. Połącz się z siecią i otwórz plik ponownie albo wklej jego tekst.",
        FileReadingPages => "Odczytuję PDF „{name}” na tym urządzeniu: odczytano {done} z {total, plural, one {# strony} few {# stron} many {# stron} other {# strony}}…",
        FileExtractedPdf => "Odczytano plik „{name}” (PDF) w {ms} ms: {chars, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}} tekstu z {pages, plural, one {# strony} few {# stron, z pustym wierszem między stronami} many {# stron, z pustym wierszem między stronami} other {# strony, z pustym wierszem między stronami}}. Każdy chunk poniżej i każdy wiersz pobranych plików podaje strony, z których pochodzi.",
        FileImagesLeftOut => "Pominięto: {images, plural, one {# obraz} few {# obrazy} many {# obrazów} other {# obrazu}} (obrazy to nie tekst).",
        FilePagesWithoutText => "{n, plural, one {# strona nie ma warstwy tekstowej i nic nie wnosi} few {# strony nie mają warstwy tekstowej i nic nie wnoszą} many {# stron nie ma warstwy tekstowej i nic nie wnosi} other {# strony nie ma warstwy tekstowej i nic nie wnosi}}: zeskanowana strona wymagałaby rozpoznawania tekstu (OCR), którego to narzędzie nie wykonuje.",
        FilePagesUnreadable => "{n, plural, one {# strony nie udało się odczytać (jej treść jest uszkodzona), więc ją pominięto} few {# stron nie udało się odczytać (ich treść jest uszkodzona), więc je pominięto} many {# stron nie udało się odczytać (ich treść jest uszkodzona), więc je pominięto} other {# strony nie udało się odczytać (ich treść jest uszkodzona), więc je pominięto}}.",
        FilePagesRepeated => "Lista stron pliku zapętla się: każdą stronę odczytano raz, a {n, plural, one {# powtórzony wpis pominięto} few {# powtórzone wpisy pominięto} many {# powtórzonych wpisów pominięto} other {# powtórzonego wpisu pominięto}}.",
        FileGlyphsWithoutText => "{n, plural, one {# znaku} few {# znaków} many {# znaków} other {# znaku}} z PDF nie udało się odczytać jako tekstu: czcionka nie przypisuje {n, plural, one {temu glifowi} few {tym glifom} many {tym glifom} other {tym glifom}} żadnego znaku (to zwykle symbole lub ikony), więc nie ma {n, plural, one {go} few {ich} many {ich} other {ich}} w tekście.",
        FileBoilerplateLeftOut => "Pominięto też układ strony: {n, plural, one {# blok nawigacji, nagłówka, stopki lub paska bocznego} few {# bloki nawigacji, nagłówka, stopki lub paska bocznego} many {# bloków nawigacji, nagłówka, stopki lub paska bocznego} other {# bloku nawigacji, nagłówka, stopki lub paska bocznego}}.",
        FileNotesAppended => "Po tekście dopisano wiersze [^N]: dla {n, plural, one {# przypisu} few {# przypisów} many {# przypisów} other {# przypisu}} (dolnych i końcowych); w tekście oznaczono je [^N] tam, gdzie tekst się do nich odwołuje.",
        FileHeadersFootersLeftOut => "Pominięto: {n, plural, one {# nagłówek lub stopkę} few {# nagłówki lub stopki} many {# nagłówków lub stopek} other {# nagłówka lub stopki}} (powtarzają się na każdej stronie).",
        FileCommentsLeftOut => "Pominięto: {n, plural, one {# komentarz} few {# komentarze} many {# komentarzy} other {# komentarza}} recenzentów (uwagi na marginesie, a nie tekst dokumentu).",
        FileDocxPartsUnreadable => "Nie udało się odczytać {n, plural, one {# części} few {# części} many {# części} other {# części}} pliku Word (numeracji, przypisów lub listy jego części), więc tekst odczytano bez nich: listy mogą mieć punktory zamiast numerów, a przypisów może brakować.",
        FileNotPdf => "Pliku „{name}” nie udało się otworzyć jako PDF (jest uszkodzony, ucięty albo w ogóle nie jest plikiem PDF), więc go nie wczytano.",
        FilePdfPassword => "Plik „{name}” otwiera się tylko po podaniu hasła, więc nie da się go tu odczytać. Zapisz kopię bez hasła i otwórz tę kopię.",
        FilePdfNoPages => "Plik PDF „{name}” nie ma ani jednej strony, więc nic nie wczytano.",
        FilePdfScanned => "{pages, plural, one {Jedyna strona pliku „{name}” nie ma warstwy tekstowej} few {Żadna z # stron pliku „{name}” nie ma warstwy tekstowej} many {Żadna z # stron pliku „{name}” nie ma warstwy tekstowej} other {Żadna z # strony pliku „{name}” nie ma warstwy tekstowej}}: to skan, a to narzędzie nie odczytuje tekstu z obrazów (OCR). Najpierw wykonaj OCR, a potem otwórz wynik.",
        FilePdfPagesUnreadable => "{pages, plural, one {Jedynej strony pliku „{name}” nie udało się odczytać} few {Żadnej z # stron pliku „{name}” nie udało się odczytać} many {Żadnej z # stron pliku „{name}” nie udało się odczytać} other {Żadnej z # strony pliku „{name}” nie udało się odczytać}}: plik jest uszkodzony, więc nic nie wczytano. Kopia zapisana ponownie w przeglądarce PDF może dać się odczytać.",
        FileNoText => "Plik „{name}” nie zawiera tekstu do odczytania (tylko obrazy, skrypty, ukrytą treść lub zeskanowane strony), więc pole tekstowe pozostało bez zmian.",
        StatusReading => "Wczytuję wklejony tekst lub dokument…",
        StatusTokenizing => "Liczę tokeny… {percent}",
        StatusLoadingTokenizer => "Wczytuję tokenizer i jego tabelę… odebrano {kb} KB",
        StatusLoadingTokenizerOf => "Wczytuję tokenizer i jego tabelę… odebrano {kb} z {total} KB",
        StatusTokenizerFailed => "Brak dokładnego wyniku: nie udało się wczytać tokenizera (pierwsza wizyta bez połączenia?). Wyniki opierają się na szacunku ze znaków; każda zmiana tekstu ponowi próbę.",
        BootFailed => "Strona nie mogła się uruchomić: jej program nie dotarł (brak połączenia?). Odśwież stronę, aby spróbować ponownie.",
        BootWaiting => "Kalkulator jeszcze się uruchamia. To, co tu wpiszesz, wkleisz lub upuścisz, zostanie zachowane i policzone, gdy tylko będzie gotowy.",
        StatusReady => "Tokeny: {tokens} · znaki: {chars} · bajty: {bytes} ({encoding}).",
        StatusNoText => "Brak tekstu: wyniki pochodzą z długości wpisanej wyżej.",
        NoteCrlf => "Ten tekst ma windowsowe końce wierszy (CR LF), liczone tak, jak są. Edycja w polu zamieni je na LF (tak działają przeglądarki), co zmieni wynik.",
        NoteReplacement => "{n, plural, one {Tekst zawiera # znak zastępczy (U+FFFD): albo był w źródle, albo przeglądarka przekazała połówkę uszkodzonego znaku (niesparowany surogat UTF-16), której nie da się zapisać w UTF-8. Jest liczony jako U+FFFD.} few {Tekst zawiera # znaki zastępcze (U+FFFD): albo były w źródle, albo przeglądarka przekazała połówki uszkodzonych znaków (niesparowane surogaty UTF-16), których nie da się zapisać w UTF-8. Są liczone jako U+FFFD.} many {Tekst zawiera # znaków zastępczych (U+FFFD): albo były w źródle, albo przeglądarka przekazała połówki uszkodzonych znaków (niesparowane surogaty UTF-16), których nie da się zapisać w UTF-8. Są liczone jako U+FFFD.} other {Tekst zawiera # znaku zastępczego (U+FFFD): albo był w źródle, albo przeglądarka przekazała połówki uszkodzonych znaków (niesparowane surogaty UTF-16), których nie da się zapisać w UTF-8. Są liczone jako U+FFFD.}}",
        SpecialNote => "Ciągi takie jak <|endoftext|> są liczone jako zwykły tekst, tak jak na publicznej stronie tokenizera OpenAI, a nie jako tokeny specjalne.",
        SpecialFound => "Tekst zawiera ciągi tokenów specjalnych: {list}. Zostały potraktowane jak zwykły tekst.",
        PreviewHeading => "Podgląd chunków",
        SkipChunks => "Pomiń listę chunków",
        PreviewIntro => "Stałe okna tokenów ignorują zdania i akapity: cięcie może wypaść w środku zdania, słowa, a nawet znaku.",
        LegendOverlap => "część wspólna z poprzednim chunkiem",
        LegendBytes => "bajty znaku przeciętego krawędzią okna",
        PreviewEmpty => "Wklej tekst powyżej, aby zobaczyć, gdzie zaczyna się i kończy każdy chunk.",
        PreviewStale => "Aktualizuję…",
        ChunkTitle => "Chunk #{n}",
        ChunkPage => "strona {page}",
        ChunkPages => "strony {first}–{last}",
        ChunkTokens => "tokeny {start}–{end}",
        ChunkBytes => "bajty {start}–{end}",
        ChunkOverlap => "wspólne z poprzednim chunkiem: {n, plural, one {# token} few {# tokeny} many {# tokenów} other {# tokenu}}",
        ChunkTruncated => "… {n, plural, one {jeszcze # bajt tego chunka nie jest wyświetlany} few {jeszcze # bajty tego chunka nie są wyświetlane} many {jeszcze # bajtów tego chunka nie jest wyświetlanych} other {jeszcze # bajtu tego chunka nie jest wyświetlane}}.",
        PartialTitle => "{n} z {total, plural, one {# bajtu} few {# bajtów} many {# bajtów} other {# bajtu}} znaku „{ch}” ({code}); reszta leży w sąsiednim chunku",
        ShowMore => "Pokaż jeszcze {n, plural, one {# chunk} few {# chunki} many {# chunków} other {# chunka}}",
        ShowingOf => "Pokazano {shown} z {total, plural, one {# chunka} few {# chunków} many {# chunków} other {# chunka}}.",
        FaqHeading => "Pytania",
        FaqQ1 => "Jaki rozmiar chunka i jakie nakładanie wybrać?",
        FaqA1 => "Nie ma wartości dobrej dla każdego zbioru. Wiele potoków zaczyna od chunków liczących od kilkuset do około tysiąca tokenów, z nakładaniem 10–20 %. Małe chunki dają trafniejsze dopasowania, ale więcej wektorów do przechowania i przeszukania; duże zachowują więcej kontekstu, ale rozmywają sens dopasowania. Rozstrzygnij to, sprawdzając własne pytania na kilku ustawieniach.",
        FaqQ2 => "Czy nakładanie podnosi rachunek za embeddingi?",
        FaqA2 => "Tak. Każdy token z nakładania ponownie trafia do embeddingu. Przy 10 000 tokenów, rozmiarze 512 i nakładaniu 64 {chunks, plural, one {powstaje # chunk} few {powstają # chunki} many {powstaje # chunków} other {powstaje # chunka}} i wysyłasz {total, plural, one {# token} few {# tokeny} many {# tokenów} other {# tokenu}} zamiast 10 000: {repeated, plural, one {# powtórzenie} few {# powtórzenia} many {# powtórzeń} other {# powtórzenia}}, o {extra} więcej niż dokument.",
        FaqQ3 => "Czy te liczby są dokładne?",
        FaqA3 => "Dla stałych okien tokenów tak: wyniki i podgląd wynikają z tej samej reguły. Dzielenie według zdań, akapitów lub nagłówków daje nierówne chunki i inne liczby. Długość podana w znakach to tylko szacunek (średnio {per_token, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}} na token); wklej tekst, aby poznać prawdziwą liczbę.",
        FaqQ4 => "Który tokenizer wybrać?",
        FaqA4 => "Ten, którego używa Twój model embeddingów. text-embedding-3-small i -large od OpenAI używają cl100k_base; o200k_base należy do nowszych modeli czatu. Tokenizerów innych dostawców tu nie ma, więc dla ich modeli liczby są przybliżone.",
        FaqQ5 => "Czy mój tekst jest gdzieś wysyłany?",
        FaqA5 => "Nie. Tablice tokenizera są dołączone do strony, a całe liczenie odbywa się w Twojej przeglądarce. Po załadowaniu strona nie wykonuje żądań sieciowych, a Content-Security-Policy zabrania łączenia się z innymi witrynami.",
        Footer => "Bez wysyłania danych, bez cookies, bez śledzenia. Wyniki dla stałych okien tokenów.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_one_word_between_braces_and_json_is_text() {
        let got: Vec<&str> = placeholders("a {n} b {Count} {x_y}{n} {\"question\": …} {n } {}")
            .into_iter()
            .collect();
        assert_eq!(got, ["Count", "n", "x_y"]);
    }

    /// The characters-per-token rule is the core's constant, passed as `{per_token}`: no
    /// message writes a divisor or a "N characters per token" of its own.
    #[test]
    fn the_chars_per_token_rule_is_a_parameter_in_every_language() {
        use chunk_core::formula::{DocLength, CHARS_PER_TOKEN};
        for lang in Lang::ALL {
            for &key in Key::ALL {
                let t = template(lang, key).1;
                if let Some(at) = t.find('÷') {
                    let divisor = t[at + '÷'.len_utf8()..].trim_start();
                    assert!(
                        divisor.starts_with("{per_token}"),
                        "{key:?} in {lang:?}: {t}"
                    );
                }
            }
            for key in [Key::NoticeEstimate, Key::FaqA3] {
                assert!(
                    placeholders(template(lang, key).1).contains("per_token"),
                    "{key:?} in {lang:?}"
                );
            }
            // Filled as the page fills it, the notice states the estimate the formula makes.
            let DocLength::EstimatedFromChars { chars, tokens } = DocLength::from_chars(10_001)
            else {
                panic!("a character count is an estimate");
            };
            let filled = fill(
                lang,
                template(lang, Key::NoticeEstimate).1,
                &[
                    ("chars", &chars.to_string()),
                    ("per_token", &CHARS_PER_TOKEN.to_string()),
                    ("tokens", &tokens.to_string()),
                ],
            );
            assert!(
                filled.contains(&format!("{chars} "))
                    && filled.contains(&format!("÷ {CHARS_PER_TOKEN} ≈ {tokens} ")),
                "{lang:?}: {filled}"
            );
        }
    }

    #[test]
    fn translations_are_not_copies_of_english() {
        for lang in [Lang::Vi, Lang::Id, Lang::Ru, Lang::Pl] {
            let same = Key::ALL
                .iter()
                .filter(|&&k| {
                    template(lang, k).1 == template(Lang::En, k).1 && template(lang, k).1.len() > 12
                })
                .count();
            assert_eq!(same, 0, "{lang:?} has untranslated messages");
        }
    }

    #[test]
    fn cldr_plural_rules_give_the_forms_of_each_language() {
        use Plural::*;
        let ns = [
            0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 1_000_001,
        ];
        let of = |lang| ns.map(|n| cldr_plural(lang, n));
        assert_eq!(
            of(Lang::Ru),
            [Many, One, Few, Few, Many, Many, Many, Many, One, Few, Many, One, Many, Many, One]
        );
        assert_eq!(
            of(Lang::Pl),
            [
                Many, One, Few, Few, Many, Many, Many, Many, Many, Few, Many, Many, Many, Many,
                Many
            ]
        );
        assert_eq!(
            of(Lang::En),
            [
                Other, One, Other, Other, Other, Other, Other, Other, Other, Other, Other, Other,
                Other, Other, Other
            ]
        );
        assert!(of(Lang::Vi)
            .iter()
            .chain(&of(Lang::Id))
            .all(|p| *p == Other));
        for lang in Lang::ALL {
            for n in 0..1000 {
                let p = cldr_plural(lang, n);
                assert!(
                    p == Other || whole_number_categories(lang).contains(&p),
                    "{lang:?} {n}"
                );
            }
        }
    }

    #[test]
    fn plural_blocks_pick_the_case_of_the_count() {
        let t = "{n, plural, one {# token} few {# токена} many {# токенов} other {# tokens}} in {where}";
        let at = |lang, n: &str| fill(lang, t, &[("n", n), ("where", "chunk #3")]);
        assert_eq!(at(Lang::En, "1"), "1 token in chunk #3");
        assert_eq!(at(Lang::En, "21"), "21 tokens in chunk #3");
        assert_eq!(at(Lang::Ru, "21"), "21 token in chunk #3");
        assert_eq!(at(Lang::Ru, "22"), "22 токена in chunk #3");
        assert_eq!(at(Lang::Ru, "1\u{a0}025"), "1\u{a0}025 токенов in chunk #3");
        assert_eq!(at(Lang::En, "1,021"), "1,021 tokens in chunk #3");
        assert_eq!(at(Lang::Ru, "1\u{a0}021"), "1\u{a0}021 token in chunk #3");
        // A fraction takes `other`; a count beyond u64 keeps its last two digits.
        assert_eq!(at(Lang::Ru, "1,5"), "1,5 tokens in chunk #3");
        assert_eq!(at(Lang::En, "0.1"), "0.1 tokens in chunk #3");
        assert_eq!(
            at(Lang::Ru, "100000000000000000001"),
            "100000000000000000001 token in chunk #3"
        );
        assert_eq!(
            at(Lang::Pl, "100000000000000000001"),
            "100000000000000000001 токенов in chunk #3"
        );
        // No digits: `other`.
        assert_eq!(at(Lang::Ru, "—"), "— tokens in chunk #3");
        // A missing count: `other`, with `#` empty.
        assert_eq!(fill(Lang::En, t, &[]), " tokens in {where}");
        // Parameters inside a case are filled; a case without `#` is fine.
        assert_eq!(
            fill(
                Lang::En,
                "{n, plural, one {one {x}} other {{n} {x}s}}",
                &[("n", "3"), ("x", "cut")]
            ),
            "3 cuts"
        );
    }

    #[test]
    fn deep_or_unclosed_nesting_is_text_and_quick() {
        let unclosed = "{n, plural, other {x ".repeat(40);
        assert_eq!(fill(Lang::En, &unclosed, &[("n", "2")]), unclosed);
        let deep = format!(
            "{}#{}",
            "{n, plural, other {".repeat(5000),
            "}}".repeat(5000)
        );
        let shown = fill(Lang::En, &deep, &[("n", "2")]);
        assert!(
            shown.contains("{n, plural"),
            "deeper than MAX_PLURAL_DEPTH is text"
        );
        let nested = "{n, plural, other {a {n, plural, one {one} other {# b}}}}";
        assert_eq!(fill(Lang::En, nested, &[("n", "2")]), "a 2 b");
    }

    #[test]
    fn malformed_plural_blocks_are_text() {
        for t in [
            "{n, plural, one {# a} other {# b}",
            "{n, plural, }",
            "{n, plural, several {# a} other {# b}}",
            "{n, plural one {# a}}",
            "{n, select, one {# a}}",
            "{n,plural,one{#}",
        ] {
            assert_eq!(fill(Lang::En, t, &[("n", "2")]), t, "{t}");
        }
        assert_eq!(
            fill(Lang::En, "{n,plural,one{#}other{# x}}", &[("n", "2")]),
            "2 x"
        );
        assert_eq!(fill(Lang::En, "# {n}", &[("n", "2")]), "# 2");
    }

    #[test]
    fn placeholders_include_plural_counts_and_their_cases_parameters() {
        let names: Vec<&str> =
            placeholders("{a, plural, one {# {b}} other {# {c}}} {d} {\"e\": 1}")
                .into_iter()
                .collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
    }

    #[test]
    fn plural_problems_are_named() {
        let ru = "{n, plural, one {#} few {#} many {#} other {#}}";
        assert_eq!(plural_problem(Lang::Ru, ru), None);
        assert_eq!(plural_problem(Lang::Pl, ru), None);
        assert!(plural_problem(Lang::En, ru).unwrap().contains("Few"));
        assert!(plural_problem(Lang::Ru, "{n, plural, one {#} other {#}}")
            .unwrap()
            .contains("Few"));
        assert!(plural_problem(Lang::En, "{n, plural, one {#}}")
            .unwrap()
            .contains("other"));
        assert_eq!(
            plural_problem(Lang::Vi, "{n, plural, other {# token}}"),
            None
        );
        assert!(plural_problem(Lang::En, "{n, plural, One {#} other {#}}")
            .unwrap()
            .contains("does not parse"));
    }

    #[test]
    fn russian_and_polish_counts_read_right_for_1_2_5_21_22_25() {
        let ns = ["1", "2", "5", "21", "22", "25"];
        let cases: [(Lang, Key, [&str; 6]); 6] = [
            (
                Lang::Ru,
                Key::ShowMore,
                [
                    "1 чанк",
                    "2 чанка",
                    "5 чанков",
                    "21 чанк",
                    "22 чанка",
                    "25 чанков",
                ],
            ),
            (
                Lang::Pl,
                Key::ShowMore,
                [
                    "jeszcze 1 chunk",
                    "jeszcze 2 chunki",
                    "jeszcze 5 chunków",
                    "jeszcze 21 chunków",
                    "jeszcze 22 chunki",
                    "jeszcze 25 chunków",
                ],
            ),
            (
                Lang::En,
                Key::ShowMore,
                [
                    "1 more chunk",
                    "2 more chunks",
                    "5 more chunks",
                    "21 more chunks",
                    "22 more chunks",
                    "25 more chunks",
                ],
            ),
            (
                Lang::Ru,
                Key::ChunkOverlap,
                [
                    "1 токен",
                    "2 токена",
                    "5 токенов",
                    "21 токен",
                    "22 токена",
                    "25 токенов",
                ],
            ),
            (
                Lang::Pl,
                Key::ChunkOverlap,
                [
                    "1 token",
                    "2 tokeny",
                    "5 tokenów",
                    "21 tokenów",
                    "22 tokeny",
                    "25 tokenów",
                ],
            ),
            (
                Lang::En,
                Key::ChunkOverlap,
                [
                    "1 token",
                    "2 tokens",
                    "5 tokens",
                    "21 tokens",
                    "22 tokens",
                    "25 tokens",
                ],
            ),
        ];
        for (lang, key, forms) in cases {
            for (n, form) in ns.iter().zip(forms) {
                let shown = fill(lang, template(lang, key).1, &[("n", n)]);
                assert!(shown.ends_with(form), "{lang:?} {key:?} {n}: {shown}");
            }
        }
        let of = |lang, total: &str| {
            fill(
                lang,
                template(lang, Key::ShowingOf).1,
                &[("shown", "20"), ("total", total)],
            )
        };
        assert_eq!(of(Lang::Ru, "21"), "Показано 20 из 21 чанка.");
        assert_eq!(of(Lang::Ru, "25"), "Показано 20 из 25 чанков.");
        assert_eq!(of(Lang::Pl, "21"), "Pokazano 20 z 21 chunków.");
        assert_eq!(of(Lang::En, "21"), "Showing 20 of 21 chunks.");
    }

    #[test]
    fn fill_replaces_named_parameters() {
        assert_eq!(
            fill(Lang::En, "{a} of {b}, {a}", &[("a", "1"), ("b", "2")]),
            "1 of 2, 1"
        );
    }

    #[test]
    fn language_tags_are_recognised() {
        assert_eq!(Lang::from_tag("vi-VN"), Some(Lang::Vi));
        assert_eq!(Lang::from_tag("PL"), Some(Lang::Pl));
        assert_eq!(Lang::from_tag("ru_RU"), Some(Lang::Ru));
        assert_eq!(Lang::from_tag("de-DE"), None);
        for l in Lang::ALL {
            assert_eq!(Lang::from_tag(l.code()), Some(l));
        }
    }
}
