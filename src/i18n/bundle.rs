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
//! names, which the bundle carries and the module computed at compile time (it carries no key
//! name): a bundle of another build whose keys differ is
//! refused ([`BundleError::OtherBuild`]) instead of showing one message in another's place.
//! The page asks for `i18n/<code>.txt?v=<fingerprint>`, so that a browser's HTTP cache never
//! answers with another build's file.
//!
//! Where the languages are compiled in (natively, and with the `linked-languages` feature; the
//! `linked_languages` cfg, `build.rs`) every language is [`ready`] and nothing is fetched.

use super::Lang;
use chunk_core::tokenizer::table::Checksum;
#[cfg(not(linked_languages))]
use std::cell::RefCell;

/// One message catalog as the bundles see it; each catalog declares its own as `CATALOG`
/// (the `catalog!` macro). Its key names are read only at compile time ([`fingerprint`]) and
/// where the bundles are written: the page reads a bundle with each catalog's [`Shape`]
/// ([`shapes`]), so that its module does not carry some 600 key names.
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

/// What reading a bundle needs of a [`Catalog`]: its id, and its keys' parameter names (one
/// entry per key, in key order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// [`Catalog::id`].
    pub id: &'static str,
    /// [`Catalog::params`].
    pub params: &'static [&'static [&'static str]],
}

/// The [`Shape`] of each of `catalogs`, in order; evaluated at compile time where the result
/// is a `const`, so that only the shapes are in the module.
pub const fn shapes<const N: usize>(catalogs: [&Catalog; N]) -> [Shape; N] {
    let mut out = [Shape {
        id: "",
        params: &[],
    }; N];
    let mut i = 0;
    while i < N {
        out[i] = Shape {
            id: catalogs[i].id,
            params: catalogs[i].params,
        };
        i += 1;
    }
    out
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
        /// The catalog's id and the key's number in it, from 0 in declaration order:
        /// `catalog #3`.
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
/// parameter changes it), fed line by line ([`Checksum`]). A `const fn`, so that the page
/// computes it at compile time (`crate::languages::FINGERPRINT`) and carries no key name;
/// `tests::fingerprint_is_the_checksum_of_the_names` checks it against that checksum of the
/// names written out.
pub const fn fingerprint(catalogs: &[&Catalog]) -> u64 {
    /// `bytes`, then a newline.
    const fn line(sum: Checksum, bytes: &[u8]) -> Checksum {
        sum.update(bytes).update(b"\n")
    }
    let mut sum = Checksum::new();
    let mut c = 0;
    while c < catalogs.len() {
        let catalog = catalogs[c];
        sum = line(sum, catalog.id.as_bytes());
        let mut k = 0;
        while k < catalog.keys.len() {
            sum = line(sum, catalog.keys[k].as_bytes());
            let params = catalog.params[k];
            let mut p = 0;
            while p < params.len() {
                sum = line(sum, params[p].as_bytes());
                p += 1;
            }
            k += 1;
        }
        c += 1;
    }
    sum.finish()
}

/// How many templates a bundle of `catalogs` holds: every key of every catalog.
pub fn template_count(catalogs: &[Shape]) -> usize {
    catalogs.iter().map(|c| c.params.len()).sum()
}

/// The path of `lang`'s bundle relative to the page, with the catalogs' `fingerprint` as the
/// query (for the HTTP cache).
pub fn path(lang: Lang, fingerprint: u64) -> String {
    format!("i18n/{}.txt?v={fingerprint:016x}", lang.code())
}

/// The file name of `lang`'s bundle in the build (`i18n/vi.txt`).
pub fn file_name(lang: Lang) -> String {
    format!("i18n/{}.txt", lang.code())
}

/// `lang`'s bundle of `catalogs`, from the compiled-in templates (the prerender hook writes it
/// into the build).
#[cfg(linked_languages)]
pub fn write(lang: Lang, catalogs: &[&Catalog]) -> String {
    let count: usize = catalogs.iter().map(|c| c.keys.len()).sum();
    let mut out = format!(
        "{MAGIC}\t{}\t{:016x}\t{count}\n",
        lang.code(),
        fingerprint(catalogs),
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
/// and their `fingerprint` (this build's).
pub fn parse<'t>(
    lang: Lang,
    text: &'t str,
    catalogs: &[Shape],
    fingerprint: u64,
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
    if u64::from_str_radix(print, 16).ok() != Some(fingerprint) {
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
        .flat_map(|c| c.params.iter().enumerate().map(move |kp| (c.id, kp)));
    for ((id, (index, params)), &t) in keys.zip(&templates) {
        if super::placeholders(t) != params.iter().copied().collect() {
            return Err(BundleError::Placeholders {
                key: format!("{id} #{index}"),
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
/// build's (`fingerprint`).
#[cfg(not(linked_languages))]
pub fn load(
    lang: Lang,
    text: String,
    catalogs: &[Shape],
    fingerprint: u64,
) -> Result<(), BundleError> {
    // Checked before it is kept: a refused file is dropped, not leaked.
    parse(lang, &text, catalogs, fingerprint)?;
    let text: &'static str = Box::leak(text.into_boxed_str());
    let mut templates: &'static [&'static str] =
        Box::leak(parse(lang, text, catalogs, fingerprint)?.into_boxed_slice());
    let mut loaded = Loaded::with_capacity(catalogs.len());
    for c in catalogs {
        let (own, rest) = templates.split_at(c.params.len());
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

/// The table checksum of `catalogs`' names written out as [`fingerprint`] reads them (each
/// followed by a newline): what the fingerprint must equal.
#[cfg(all(test, linked_languages))]
pub(crate) fn names_checksum(catalogs: &[&Catalog]) -> u64 {
    let mut names = String::new();
    for c in catalogs {
        names.push_str(c.id);
        names.push('\n');
        for (key, params) in c.keys.iter().zip(c.params) {
            names.push_str(key);
            names.push('\n');
            for p in *params {
                names.push_str(p);
                names.push('\n');
            }
        }
    }
    chunk_core::tokenizer::table::checksum(names.as_bytes())
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
            parse(Lang::Pl, &text, &shapes(BOTH), fingerprint(&BOTH)),
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
            parse(Lang::Ru, &pl, &shapes(BOTH), fingerprint(&BOTH)),
            Err(BundleError::OtherLanguage { found: "pl".into() })
        );
        assert_eq!(
            parse(Lang::Pl, &pl, &shapes([&A]), fingerprint(&[&A])),
            Err(BundleError::OtherBuild)
        );
        let other_build = pl.replacen(
            &format!("{:016x}", fingerprint(&BOTH)),
            "0123456789abcdef",
            1,
        );
        assert_eq!(
            parse(Lang::Pl, &other_build, &shapes(BOTH), fingerprint(&BOTH)),
            Err(BundleError::OtherBuild)
        );
        let short = pl.replace("trzy\0", "");
        assert_eq!(
            parse(Lang::Pl, &short, &shapes(BOTH), fingerprint(&BOTH)),
            Err(BundleError::Count {
                expected: 3,
                found: 2
            })
        );
        // Cut inside a template: the complete ones are counted.
        assert_eq!(
            parse(
                Lang::Pl,
                &pl[..pl.len() - 3],
                &shapes(BOTH),
                fingerprint(&BOTH)
            ),
            Err(BundleError::Count {
                expected: 3,
                found: 2
            })
        );
        assert_eq!(
            parse(
                Lang::Pl,
                &pl.replace("{n}", "{m}"),
                &shapes(BOTH),
                fingerprint(&BOTH)
            ),
            Err(BundleError::Placeholders { key: "a #1".into() })
        );
        assert_eq!(
            parse(
                Lang::Pl,
                &format!("{pl}junk"),
                &shapes(BOTH),
                fingerprint(&BOTH)
            ),
            Err(BundleError::Count {
                expected: 3,
                found: 4
            })
        );
        let miscounted = pl.replace("\t3\n", "\t4\n");
        assert_eq!(
            parse(Lang::Pl, &miscounted, &shapes(BOTH), fingerprint(&BOTH)),
            Err(BundleError::Count {
                expected: 3,
                found: 4
            })
        );
        assert_eq!(
            parse(Lang::Pl, "", &shapes(BOTH), fingerprint(&BOTH)),
            Err(BundleError::NotABundle)
        );
        assert_eq!(
            parse(
                Lang::Pl,
                "<!DOCTYPE html>\n<html>",
                &shapes(BOTH),
                fingerprint(&BOTH)
            ),
            Err(BundleError::NotABundle)
        );
        assert_eq!(
            parse(
                Lang::Pl,
                &format!("{MAGIC}\tpl\n"),
                &shapes(BOTH),
                fingerprint(&BOTH)
            ),
            Err(BundleError::NotABundle)
        );
        // The reasons are said in words.
        assert_eq!(
            BundleError::OtherBuild.to_string(),
            "the file belongs to another version of the page"
        );
    }

    #[test]
    fn fingerprint_is_the_checksum_of_the_names() {
        // The compile-time checksum equals the table checksum over the names written out, for
        // lengths around the 8-byte word (the page's catalogs: `languages`' tests).
        assert_eq!(fingerprint(&BOTH), names_checksum(&BOTH));
        assert_eq!(
            fingerprint(&[]),
            chunk_core::tokenizer::table::checksum(b"")
        );
        for id in ["", "a", "abcdef", "abcdefg", "abcdefgh", "abcdefghijklmno"] {
            let c = Catalog { id, ..B };
            assert_eq!(fingerprint(&[&c]), names_checksum(&[&c]), "{id:?}");
        }
        // The shapes are the catalogs' ids and parameters.
        assert_eq!(
            shapes(BOTH),
            [
                Shape {
                    id: "a",
                    params: A.params
                },
                Shape {
                    id: "b",
                    params: B.params
                }
            ]
        );
    }

    #[test]
    fn the_path_names_the_language_and_the_fingerprint() {
        assert_eq!(
            path(Lang::Pl, fingerprint(&BOTH)),
            format!("i18n/pl.txt?v={:016x}", fingerprint(&BOTH))
        );
        assert_eq!(file_name(Lang::Ru), "i18n/ru.txt");
        // Natively every language is compiled in.
        assert!(FETCHED.iter().all(|&l| ready(l) && shown(l) == l));
    }
}
