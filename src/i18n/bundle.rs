//! The other languages' messages as files: the page's wasm module holds only the English
//! templates, and fetches the Vietnamese, Indonesian, Russian or Polish ones (about 15–20 KB
//! gzip each) when that language is chosen. The four languages were 75 KB of the module's
//! gzip size (703,685 → 628,316 B), a tenth of what a first visit waits for.
//!
//! A bundle (`i18n/<code>.txt` in the build, written by the prerender hook with [`write`]) is
//! UTF-8 text: one header line, then every template of every catalog in the order of the
//! catalogs given (the page's list is `crate::languages::CATALOGS`), each in its catalog's key
//! order, each followed by a NUL byte (no template contains one):
//!
//! ```text
//! rag-chunk-calculator messages<TAB>vi<TAB><fingerprint, 16 hex digits><TAB><templates>\n
//! <template>\0<template>\0…
//! ```
//!
//! The fingerprint ([`fingerprint`]) is a hash of every catalog's id, key names and parameter
//! names, which
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
    /// Each key's parameter names, as declared (the same order as `keys`).
    pub params: &'static [&'static [&'static str]],
    /// The template of key number `i` in `lang`, from the compiled-in catalogs.
    #[cfg(linked_languages)]
    pub template: fn(Lang, usize) -> &'static str,
}

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
    /// A template's `{parameters}` are not its key's.
    Placeholders {
        /// The catalog's id and the key, `catalog::Key`.
        key: String,
    },
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
            BundleError::Placeholders { key } => {
                write!(f, "the message {key} does not have its parameters")
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

/// The fingerprint of `catalogs`: the build's file checksum
/// (`chunk_core::tokenizer::table::checksum`, as for the BPE tables) of every catalog's id, key
/// names and their parameter names, each followed by a newline (a message that gains a
/// parameter changes it).
pub fn fingerprint(catalogs: &[&Catalog]) -> u64 {
    let mut names = String::new();
    let mut push = |name: &str| {
        names.push_str(name);
        names.push('\n');
    };
    for c in catalogs {
        push(c.id);
        for (key, params) in c.keys.iter().zip(c.params) {
            push(key);
            params.iter().for_each(|p| push(p));
        }
    }
    chunk_core::tokenizer::table::checksum(names.as_bytes())
}

/// How many templates a bundle of `catalogs` holds: every key of every catalog.
pub fn template_count(catalogs: &[&Catalog]) -> usize {
    catalogs.iter().map(|c| c.keys.len()).sum()
}

/// The path of `lang`'s bundle of `catalogs` relative to the page, with their fingerprint as
/// the query (for the HTTP cache).
pub fn path(lang: Lang, catalogs: &[&Catalog]) -> String {
    format!("i18n/{}.txt?v={:016x}", lang.code(), fingerprint(catalogs))
}

/// The file name of `lang`'s bundle in the build (`i18n/vi.txt`).
pub fn file_name(lang: Lang) -> String {
    format!("i18n/{}.txt", lang.code())
}

/// `lang`'s bundle of `catalogs`, from the compiled-in templates (the prerender hook writes it
/// into the build).
#[cfg(linked_languages)]
pub fn write(lang: Lang, catalogs: &[&Catalog]) -> String {
    let mut out = format!(
        "{MAGIC}\t{}\t{:016x}\t{}\n",
        lang.code(),
        fingerprint(catalogs),
        template_count(catalogs)
    );
    for c in catalogs {
        for i in 0..c.keys.len() {
            let t = (c.template)(lang, i);
            debug_assert!(!t.contains('\0'), "{}::{} holds a NUL", c.id, c.keys[i]);
            out.push_str(t);
            out.push('\0');
        }
    }
    out
}

/// The templates of a bundle `text` for `lang`, in bundle order, checked against `catalogs`
/// (this build's).
pub fn parse<'t>(
    lang: Lang,
    text: &'t str,
    catalogs: &[&Catalog],
) -> Result<Vec<&'t str>, BundleError> {
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
    if u64::from_str_radix(print, 16).ok() != Some(fingerprint(catalogs)) {
        return Err(BundleError::OtherBuild);
    }
    let expected = template_count(catalogs);
    let declared = count
        .parse::<usize>()
        .map_err(|_| BundleError::NotABundle)?;
    // Every template ends with a NUL: what follows the last one is a cut template, not counted.
    let mut templates: Vec<&str> = body.split('\0').collect();
    let cut = templates.pop().unwrap_or_default();
    if declared != expected {
        return Err(BundleError::Count {
            expected,
            found: declared,
        });
    }
    if templates.len() != expected || !cut.is_empty() {
        // Bytes after the last template count as one more (cut) template.
        let extra = usize::from(templates.len() == expected);
        return Err(BundleError::Count {
            expected,
            found: templates.len() + extra,
        });
    }
    let keys = catalogs
        .iter()
        .flat_map(|c| c.keys.iter().zip(c.params).map(move |kp| (c.id, kp)));
    for ((id, (key, params)), &t) in keys.zip(&templates) {
        if super::placeholders(t) != params.iter().copied().collect() {
            return Err(BundleError::Placeholders {
                key: format!("{id}::{key}"),
            });
        }
    }
    Ok(templates)
}

/// One loaded language: each catalog's id with its templates in key order.
#[cfg(not(linked_languages))]
type Loaded = Vec<(&'static str, &'static [&'static str])>;

#[cfg(not(linked_languages))]
thread_local! {
    /// Each fetched language's templates, once its bundle has arrived (leaked: kept for the
    /// page's life, at most four, so that a template is a `&'static str` like a compiled one).
    static LOADED: RefCell<[Option<Loaded>; 5]> = const { RefCell::new([None, None, None, None, None]) };
}

/// Keeps `lang`'s bundle `text` of `catalogs` for the rest of the page's life, if it is this
/// build's.
#[cfg(not(linked_languages))]
pub fn load(lang: Lang, text: String, catalogs: &[&Catalog]) -> Result<(), BundleError> {
    // Checked before it is kept: a refused file is dropped, not leaked.
    parse(lang, &text, catalogs)?;
    let text: &'static str = Box::leak(text.into_boxed_str());
    let mut templates: &'static [&'static str] =
        Box::leak(parse(lang, text, catalogs)?.into_boxed_slice());
    let mut loaded = Loaded::with_capacity(catalogs.len());
    for c in catalogs {
        let (own, rest) = templates.split_at(c.keys.len());
        loaded.push((c.id, own));
        templates = rest;
    }
    LOADED.with(|l| l.borrow_mut()[lang as usize] = Some(loaded));
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
/// its loaded bundle; `None` while it has not arrived, or if the bundle lacks that catalog.
#[cfg(not(linked_languages))]
pub fn template(lang: Lang, catalog: &str, index: usize) -> Option<&'static str> {
    LOADED.with(|l| {
        let l = l.borrow();
        let (_, templates) = l[lang as usize]
            .as_ref()?
            .iter()
            .find(|(id, _)| *id == catalog)?;
        templates.get(index).copied()
    })
}

#[cfg(all(test, linked_languages))]
mod tests {
    use super::*;

    const A: Catalog = Catalog {
        id: "a",
        keys: &["One", "Two"],
        params: &[&[], &["n"]],
        template: |_, i| ["one", "two {n}"][i],
    };
    const B: Catalog = Catalog {
        id: "b",
        keys: &["Three"],
        params: &[&[]],
        template: |lang, _| if lang == Lang::Pl { "trzy" } else { "three" },
    };
    const BOTH: [&Catalog; 2] = [&A, &B];

    #[test]
    fn a_bundle_reads_back_in_catalog_order() {
        let text = write(Lang::Pl, &BOTH);
        assert!(text.starts_with(&format!("{MAGIC}\tpl\t{:016x}\t3\n", fingerprint(&BOTH))));
        assert_eq!(
            parse(Lang::Pl, &text, &BOTH),
            Ok(vec!["one", "two {n}", "trzy"])
        );
        // Another set of catalogs (a build with other keys) has another fingerprint.
        assert_ne!(fingerprint(&BOTH), fingerprint(&[&B, &A]));
        assert_ne!(fingerprint(&BOTH), fingerprint(&[&A]));
        let renamed = Catalog {
            params: &[&[], &["count"]],
            ..A
        };
        assert_ne!(fingerprint(&BOTH), fingerprint(&[&renamed, &B]));
    }

    #[test]
    fn a_bundle_of_another_language_build_or_shape_is_refused() {
        let pl = write(Lang::Pl, &BOTH);
        assert_eq!(
            parse(Lang::Ru, &pl, &BOTH),
            Err(BundleError::OtherLanguage { found: "pl".into() })
        );
        assert_eq!(parse(Lang::Pl, &pl, &[&A]), Err(BundleError::OtherBuild));
        let other_build = pl.replacen(
            &format!("{:016x}", fingerprint(&BOTH)),
            "0123456789abcdef",
            1,
        );
        assert_eq!(
            parse(Lang::Pl, &other_build, &BOTH),
            Err(BundleError::OtherBuild)
        );
        let short = pl.replace("trzy\0", "");
        assert_eq!(
            parse(Lang::Pl, &short, &BOTH),
            Err(BundleError::Count {
                expected: 3,
                found: 2
            })
        );
        // Cut inside a template: the complete ones are counted.
        assert_eq!(
            parse(Lang::Pl, &pl[..pl.len() - 3], &BOTH),
            Err(BundleError::Count {
                expected: 3,
                found: 2
            })
        );
        assert_eq!(
            parse(Lang::Pl, &pl.replace("{n}", "{m}"), &BOTH),
            Err(BundleError::Placeholders {
                key: "a::Two".into()
            })
        );
        assert_eq!(
            parse(Lang::Pl, &format!("{pl}junk"), &BOTH),
            Err(BundleError::Count {
                expected: 3,
                found: 4
            })
        );
        let miscounted = pl.replace("\t3\n", "\t4\n");
        assert_eq!(
            parse(Lang::Pl, &miscounted, &BOTH),
            Err(BundleError::Count {
                expected: 3,
                found: 4
            })
        );
        assert_eq!(parse(Lang::Pl, "", &BOTH), Err(BundleError::NotABundle));
        assert_eq!(
            parse(Lang::Pl, "<!DOCTYPE html>\n<html>", &BOTH),
            Err(BundleError::NotABundle)
        );
        assert_eq!(
            parse(Lang::Pl, &format!("{MAGIC}\tpl\n"), &BOTH),
            Err(BundleError::NotABundle)
        );
        // The reasons are said in words.
        assert_eq!(
            BundleError::OtherBuild.to_string(),
            "the file belongs to another version of the page"
        );
    }

    #[test]
    fn the_path_names_the_language_and_the_fingerprint() {
        assert_eq!(
            path(Lang::Pl, &BOTH),
            format!("i18n/pl.txt?v={:016x}", fingerprint(&BOTH))
        );
        assert_eq!(file_name(Lang::Ru), "i18n/ru.txt");
        // Natively every language is compiled in.
        assert!(FETCHED.iter().all(|&l| ready(l) && shown(l) == l));
    }
}
