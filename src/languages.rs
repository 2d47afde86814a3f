//! The page's languages as files: the list of every message catalog, in the order of their
//! templates in a bundle ([`CATALOGS`]), the bundles the prerender hook writes from it
//! ([`write`]), and, in the page's wasm module, fetching a chosen language's bundle
//! ([`fetch_when_chosen`]). The bundle format and the loaded templates are `i18n::bundle`'s;
//! this module sits above the sections, whose catalogs it names, so that `i18n` names none.

use crate::i18n::bundle::{self, Catalog};
use crate::i18n::Lang;

/// Every catalog of the page, in the order of their templates in a bundle. A test reads the
/// sources for every `catalog!` and checks that each is listed here.
pub const CATALOGS: [&Catalog; 7] = [
    &crate::i18n::CATALOG,
    &crate::compare::messages::CATALOG,
    &crate::embed::messages::CATALOG,
    &crate::model::messages::CATALOG,
    &crate::retrieval::messages::CATALOG,
    &crate::share::messages::CATALOG,
    &crate::simulator::messages::CATALOG,
];

/// [`CATALOGS`]' fingerprint (`bundle::fingerprint`), computed at compile time.
pub const FINGERPRINT: u64 = bundle::fingerprint(&CATALOGS);

/// [`CATALOGS`] as the page reads a bundle of them (`bundle::shapes`: their ids and parameter
/// names, without their key names).
pub const SHAPES: [bundle::Shape; CATALOGS.len()] = bundle::shapes(CATALOGS);

/// Why a chosen language's messages could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The site answered the bundle's request with this HTTP status.
    Status(u16),
    /// No answer (offline and not kept, refused, aborted).
    Network,
    /// A file came, but not this build's bundle of that language.
    File(bundle::BundleError),
}

impl Failure {
    /// The hook's `data-reason`: `status`, `network` or `file`.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Status(_) => "status",
            Failure::Network => "network",
            Failure::File(_) => "file",
        }
    }

    /// The reason in `lang`, as the status line's `{reason}`.
    pub fn reason(&self, lang: Lang) -> String {
        use crate::i18n::{args, text, Key};
        match self {
            Failure::Status(status) => args::LanguageFailedStatus {
                status: &status.to_string(),
            }
            .fill(lang),
            Failure::Network => text(lang, Key::LanguageFailedNetwork).to_owned(),
            Failure::File(_) => text(lang, Key::LanguageFailedFile).to_owned(),
        }
    }
}

/// `lang`'s bundle of every catalog (for the prerender hook, which writes it into the build
/// as [`bundle::file_name`]).
#[cfg(linked_languages)]
pub fn write(lang: Lang) -> String {
    bundle::write(lang, &CATALOGS)
}

/// Whenever the chosen language's messages are not there, fetches them once (a choice made
/// while they are on their way does not fetch them again). When they arrive and the language
/// is still chosen, every reader of the language is notified, so every word is written again
/// in it. When they cannot be had, the language goes back to the last one whose words were
/// shown (the price box back to its decimal mark), and `unavailable` says which and why
/// (until the visitor chooses a language again; the browser's own words, or what was wrong
/// with the file, go to the console). Taken by `app::LanguageSwitch`.
#[cfg(not(linked_languages))]
pub fn fetch_when_chosen(
    writer: crate::state::LanguageWriter,
    fields: crate::state::FieldsWriter,
    unavailable: leptos::prelude::RwSignal<Option<(Lang, Failure)>>,
) {
    use leptos::prelude::*;
    let in_flight = StoredValue::new([false; 5]);
    let last_shown = StoredValue::new(Lang::En);
    Effect::new(move |_| {
        let lang = writer.lang.get();
        // Another language set without the switch (a settings link, Back or Forward): a
        // failure said earlier no longer applies. Going back after a failure lands on
        // `last_shown`, which keeps it.
        if lang != last_shown.get_value() && unavailable.with_untracked(Option::is_some) {
            unavailable.set(None);
        }
        if bundle::ready(lang) {
            last_shown.set_value(lang);
            return;
        }
        if in_flight.with_value(|f| f[lang as usize]) {
            return;
        }
        in_flight.update_value(|f| f[lang as usize] = true);
        leptos::task::spawn_local(async move {
            let path = bundle::path(lang, FINGERPRINT);
            let loaded = match crate::browser::fetch_text(&path).await {
                Ok(text) => bundle::load(lang, text, &SHAPES, FINGERPRINT).map_err(Failure::File),
                Err(crate::browser::FetchError::Status(status)) => Err(Failure::Status(status)),
                Err(crate::browser::FetchError::Network(words)) => {
                    leptos::logging::warn!("{path}: {words}");
                    Err(Failure::Network)
                }
            };
            if let Err(Failure::File(e)) = &loaded {
                leptos::logging::warn!("{path}: {e}");
            }
            in_flight.update_value(|f| f[lang as usize] = false);
            if writer.lang.get_untracked() != lang {
                return;
            }
            match loaded {
                Ok(()) => writer.lang.notify(),
                Err(reason) => {
                    let back = last_shown.get_value();
                    crate::calculator::move_price_mark(fields, lang, back);
                    unavailable.set(Some((lang, reason)));
                    writer.lang.set(back);
                }
            }
        });
    });
}

#[cfg(all(test, linked_languages))]
mod tests {
    use super::*;
    use crate::i18n::bundle::{parse, template_count, FETCHED};

    #[test]
    fn every_bundle_reads_back_as_the_compiled_in_templates() {
        for lang in FETCHED {
            let text = write(lang);
            let templates = parse(lang, &text, &SHAPES, FINGERPRINT).unwrap();
            assert_eq!(templates.len(), template_count(&SHAPES));
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
        // The page's own catalog and the comparison's are the largest; a bundle holds them all.
        assert!(template_count(&SHAPES) > 500);
        // The compile-time fingerprint is the checksum of the names, which the bundles carry.
        assert_eq!(FINGERPRINT, bundle::names_checksum(&CATALOGS));
        for lang in FETCHED {
            assert!(
                write(lang).contains(&format!("\t{FINGERPRINT:016x}\t")),
                "{lang:?}"
            );
        }
    }

    #[test]
    fn a_failure_is_said_in_the_language_shown() {
        assert_eq!(
            Failure::Status(404).reason(Lang::En),
            "the site answered with status 404"
        );
        assert_eq!(
            Failure::Status(500).reason(Lang::Ru),
            "сайт ответил кодом 500"
        );
        assert_eq!(
            Failure::Network.reason(Lang::Pl),
            "połączenie się nie powiodło"
        );
        let file = Failure::File(crate::i18n::bundle::BundleError::OtherBuild);
        assert_eq!(
            file.reason(Lang::En),
            "the file received is not this version's text"
        );
        assert_eq!(
            [Failure::Status(1), Failure::Network, file].map(|f| f.code()),
            ["status", "network", "file"]
        );
    }

    /// Every `catalog!` in the page's sources is listed in [`CATALOGS`] (one missing would
    /// show English in every language in the page, since its messages would be in no bundle).
    #[test]
    fn every_catalog_of_the_sources_is_listed_once() {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if text.lines().any(|l| {
                        l.trim_start().starts_with("crate::i18n::catalog!(")
                            || l.starts_with("catalog!(")
                    }) {
                        let rel = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
                        let module = rel
                            .with_extension("")
                            .components()
                            .skip(1)
                            .map(|c| c.as_os_str().to_string_lossy().into_owned())
                            .filter(|c| c != "mod")
                            .collect::<Vec<_>>()
                            .join("::");
                        out.push(format!("rag_chunk_calculator::{module}"));
                    }
                }
            }
        }
        let mut found = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        found.sort();
        let mut listed: Vec<String> = CATALOGS.iter().map(|c| c.id.to_owned()).collect();
        listed.sort();
        assert_eq!(found, listed);
    }
}
