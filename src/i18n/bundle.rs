//! The other languages' messages as files: the page's wasm module holds only the English
//! templates, and fetches the Vietnamese, Indonesian, Russian or Polish ones (about 15–20 KB
//! gzip each) when that language is chosen. The four languages were 68 KB of the module's
//! gzip size, a tenth of what a first visit waits for.
//!
//! A bundle (`i18n/<code>.txt` in the build, written by the prerender hook with [`write`]) is
//! UTF-8 text: one header line, then every template of every catalog in [`CATALOGS`] order,
//! each in its catalog's key order, each followed by a NUL byte (no template contains one):
//!
//! ```text
//! rag-chunk-calculator messages<TAB>vi<TAB><fingerprint, 16 hex digits><TAB><templates>\n
//! <template>\0<template>\0…
//! ```
//!
//! The fingerprint ([`fingerprint`]) is a hash of every catalog's name and key names, which
//! both the module and the bundle know: a bundle of another build whose keys differ is
//! refused ([`BundleError::OtherBuild`]) instead of showing one message in another's place.
//! The page asks for `i18n/<code>.txt?v=<fingerprint>`, so that a browser's HTTP cache never
//! answers with another build's file.
//!
//! Where the languages are compiled in (natively, and with the `linked-languages` feature; the
//! `linked_languages` cfg, `build.rs`) every language is [`ready`] and nothing is fetched.

use super::Lang;
#[cfg(not(linked_languages))]
use std::cell::RefCell;

/// One message catalog as the bundles see it; each catalog declares its own as `CATALOG`
/// (the `catalog!` macro).
#[derive(Clone, Copy)]
pub struct Catalog {
    /// The catalog's module path, e.g. `rag_chunk_calculator::share::messages`.
    pub id: &'static str,
    /// Its key names in declaration order (a template's index in a bundle is its key's).
    pub keys: &'static [&'static str],
    /// The template of key number `i` in `lang`, from the compiled-in catalogs.
    #[cfg(linked_languages)]
    pub template: fn(Lang, usize) -> &'static str,
}

/// Every catalog of the page, in the order of their templates in a bundle. Each catalog's
/// completeness test checks that it is listed here.
pub const CATALOGS: [&Catalog; 7] = [
    &super::CATALOG,
    &crate::compare::messages::CATALOG,
    &crate::embed::messages::CATALOG,
    &crate::model::messages::CATALOG,
    &crate::retrieval::messages::CATALOG,
    &crate::share::messages::CATALOG,
    &crate::simulator::messages::CATALOG,
];

/// The first field of a bundle's header line.
const MAGIC: &str = "rag-chunk-calculator messages";

/// The languages fetched as bundles: every one but English.
pub const FETCHED: [Lang; 4] = [Lang::Vi, Lang::Id, Lang::Ru, Lang::Pl];

/// Why a bundle was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    /// The file does not start with a bundle's header line.
    NotABundle,
    /// The header names another language than the one asked for.
    OtherLanguage {
        /// The language code in the header.
        found: String,
    },
    /// The header's fingerprint is not this build's: the file is another build's.
    OtherBuild,
    /// The number of templates is not the header's, or not this build's.
    Count {
        /// Templates this build has.
        expected: usize,
        /// Templates the file holds.
        found: usize,
    },
}

impl std::fmt::Display for BundleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BundleError::NotABundle => write!(f, "the file is not a message bundle"),
            BundleError::OtherLanguage { found } => {
                write!(
                    f,
                    "the file holds the messages of another language ({found})"
                )
            }
            BundleError::OtherBuild => {
                write!(f, "the file belongs to another version of the page")
            }
            BundleError::Count { expected, found } => {
                write!(
                    f,
                    "the file holds {found} messages where {expected} were expected"
                )
            }
        }
    }
}

/// The fingerprint of this build's catalogs: 64-bit FNV-1a over every catalog's id and key
/// names, each followed by a newline.
pub fn fingerprint() -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain(std::iter::once(b'\n')) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for c in CATALOGS {
        eat(c.id);
        c.keys.iter().for_each(|k| eat(k));
    }
    hash
}

/// How many templates a bundle holds: every key of every catalog.
pub fn template_count() -> usize {
    CATALOGS.iter().map(|c| c.keys.len()).sum()
}

/// The path of `lang`'s bundle relative to the page, with this build's fingerprint as the
/// query (for the HTTP cache).
pub fn path(lang: Lang) -> String {
    format!("i18n/{}.txt?v={:016x}", lang.code(), fingerprint())
}

/// The file name of `lang`'s bundle in the build (`i18n/vi.txt`).
pub fn file_name(lang: Lang) -> String {
    format!("i18n/{}.txt", lang.code())
}

/// `lang`'s bundle, from the compiled-in catalogs (the prerender hook writes it into the build).
#[cfg(linked_languages)]
pub fn write(lang: Lang) -> String {
    let mut out = format!(
        "{MAGIC}\t{}\t{:016x}\t{}\n",
        lang.code(),
        fingerprint(),
        template_count()
    );
    for c in CATALOGS {
        for i in 0..c.keys.len() {
            let t = (c.template)(lang, i);
            debug_assert!(!t.contains('\0'), "{}::{} holds a NUL", c.id, c.keys[i]);
            out.push_str(t);
            out.push('\0');
        }
    }
    out
}

/// The templates of a bundle `text` for `lang`, in bundle order, checked against this build.
pub fn parse(lang: Lang, text: &str) -> Result<Vec<&str>, BundleError> {
    let (header, body) = text.split_once('\n').ok_or(BundleError::NotABundle)?;
    let mut fields = header.split('\t');
    if fields.next() != Some(MAGIC) {
        return Err(BundleError::NotABundle);
    }
    let (code, print, count) = match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (Some(code), Some(print), Some(count), None) => (code, print, count),
        _ => return Err(BundleError::NotABundle),
    };
    if code != lang.code() {
        return Err(BundleError::OtherLanguage {
            found: code.chars().take(16).collect(),
        });
    }
    if u64::from_str_radix(print, 16).ok() != Some(fingerprint()) {
        return Err(BundleError::OtherBuild);
    }
    let expected = template_count();
    let declared = count
        .parse::<usize>()
        .map_err(|_| BundleError::NotABundle)?;
    let templates: Vec<&str> = match body.strip_suffix('\0') {
        Some(body) => body.split('\0').collect(),
        None => Vec::new(),
    };
    for found in [declared, templates.len()] {
        if found != expected {
            return Err(BundleError::Count { expected, found });
        }
    }
    Ok(templates)
}

#[cfg(not(linked_languages))]
thread_local! {
    /// Each fetched language's templates, once its bundle has arrived (leaked: kept for the
    /// page's life, at most four, so that a template is a `&'static str` like a compiled one).
    static LOADED: RefCell<[Option<&'static [&'static str]>; 5]> = const { RefCell::new([None; 5]) };
}

/// Keeps `lang`'s bundle `text` for the rest of the page's life, if it is this build's.
#[cfg(not(linked_languages))]
pub fn load(lang: Lang, text: String) -> Result<(), BundleError> {
    let text: &'static str = Box::leak(text.into_boxed_str());
    let templates: &'static [&'static str] = Box::leak(parse(lang, text)?.into_boxed_slice());
    LOADED.with(|l| l.borrow_mut()[lang as usize] = Some(templates));
    Ok(())
}

/// Whether `lang`'s messages can be shown: English and compiled-in languages always, a fetched
/// language once its bundle has been loaded.
pub fn ready(lang: Lang) -> bool {
    #[cfg(linked_languages)]
    {
        let _ = lang;
        true
    }
    #[cfg(not(linked_languages))]
    {
        lang == Lang::En || LOADED.with(|l| l.borrow()[lang as usize].is_some())
    }
}

/// The language the page's words are in while `lang` is chosen: `lang` once [`ready`], else
/// English (each message falls back to its English template).
pub fn shown(lang: Lang) -> Lang {
    if ready(lang) {
        lang
    } else {
        Lang::En
    }
}

/// The template of key number `index` of catalog `catalog` (a `CATALOG.id`) in `lang`, from
/// its loaded bundle; `None` while it has not arrived.
#[cfg(not(linked_languages))]
pub fn template(lang: Lang, catalog: &str, index: usize) -> Option<&'static str> {
    let templates = LOADED.with(|l| l.borrow()[lang as usize])?;
    let mut start = 0;
    for c in CATALOGS {
        if c.id == catalog {
            return templates.get(start + index).copied();
        }
        start += c.keys.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundle_reads_back_as_the_compiled_in_templates() {
        for lang in FETCHED {
            let text = write(lang);
            let templates = parse(lang, &text).unwrap();
            assert_eq!(templates.len(), template_count());
            let mut i = 0;
            for c in CATALOGS {
                for k in 0..c.keys.len() {
                    assert_eq!(
                        templates[i],
                        (c.template)(lang, k),
                        "{}::{}",
                        c.id,
                        c.keys[k]
                    );
                    i += 1;
                }
            }
        }
    }

    #[test]
    fn catalogs_are_listed_once_and_keys_are_unique_within_each() {
        let mut ids: Vec<&str> = CATALOGS.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGS.len());
        for c in CATALOGS {
            let mut keys = c.keys.to_vec();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), c.keys.len(), "{}", c.id);
        }
        // The page's own catalog and the comparison's are the largest; a bundle holds them all.
        assert!(template_count() > 500, "{}", template_count());
    }

    #[test]
    fn a_bundle_of_another_language_build_or_shape_is_refused() {
        let vi = write(Lang::Vi);
        assert_eq!(
            parse(Lang::Ru, &vi),
            Err(BundleError::OtherLanguage { found: "vi".into() })
        );
        let other_build = vi.replacen(&format!("{:016x}", fingerprint()), "0123456789abcdef", 1);
        assert_eq!(parse(Lang::Vi, &other_build), Err(BundleError::OtherBuild));
        let n = template_count();
        let short = vi.strip_suffix('\0').unwrap();
        let short = &short[..short.rfind('\0').unwrap() + 1];
        assert_eq!(
            parse(Lang::Vi, short),
            Err(BundleError::Count {
                expected: n,
                found: n - 1
            })
        );
        assert_eq!(parse(Lang::Vi, ""), Err(BundleError::NotABundle));
        assert_eq!(
            parse(Lang::Vi, "<!DOCTYPE html>\n<html>"),
            Err(BundleError::NotABundle)
        );
        assert_eq!(
            parse(Lang::Vi, &format!("{MAGIC}\tvi\n")),
            Err(BundleError::NotABundle)
        );
        // The messages say what happened, in words.
        assert_eq!(
            BundleError::OtherBuild.to_string(),
            "the file belongs to another version of the page"
        );
    }

    #[test]
    fn the_path_names_the_language_and_this_builds_fingerprint() {
        let p = path(Lang::Pl);
        assert!(p.starts_with("i18n/pl.txt?v="), "{p}");
        assert_eq!(p.len(), "i18n/pl.txt?v=".len() + 16);
        assert_eq!(file_name(Lang::Ru), "i18n/ru.txt");
        // Natively every language is compiled in.
        assert!(FETCHED.iter().all(|&l| ready(l) && shown(l) == l));
    }
}
