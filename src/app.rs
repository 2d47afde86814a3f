//! The page: header with the language switch, then the calculator, the text, and the panels
//! ([`crate::panels`]: the model panel, the comparison, the retrieval check, the simulator and
//! the FAQ). Creates and provides the page's contexts ([`crate::state`], [`crate::jobs::provide`])
//! and starts the tokenizer job; the panels start the other workers.

use leptos::prelude::*;

use crate::browser;
use crate::calculator::{Inputs, Results};
use crate::file_input::TextSource;
use crate::i18n::{Key, Lang};
use crate::state::{provide_page_state, Language, LanguageWriter};
use crate::tokenize::job::spawn_tokenizer;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let page = provide_page_state(browser::initial_lang());
    spawn_tokenizer(expect_context(), page.source, page.fields);
    let lang = page.language;
    crate::model::provide();
    let jobs = crate::jobs::provide(page);
    // The simulator's settings live here rather than in its panel, so that a settings link
    // can set them before the panel is built; its figures are built with the panel.
    provide_context(crate::simulator::model::SimSettings::new(page.language));
    // The link's settings, before any view reads the fields.
    crate::share::restore_at_start();

    // Keep <html lang> and the document title in step with the language switch: side effects
    // on the document outside our view tree, hence an Effect.
    // `<html lang>` names the language the words are in: English until a chosen language's
    // messages have arrived (crate::i18n::bundle).
    Effect::new(move |_| {
        let l = lang.get();
        browser::apply_lang(
            crate::i18n::bundle::shown(l),
            crate::i18n::text(l, Key::Title),
        );
    });

    view! {
        <header class="site-header">
            <div class="header-inner">
                <div>
                    <h1>{move || lang.t(Key::Title)}</h1>
                    <p class="tagline">{move || lang.t(Key::Tagline)}</p>
                </div>
                <LanguageSwitch/>
            </div>
        </header>
        <main class="layout">
            <Inputs/>
            <Results/>
            {crate::panels::model_panel()}
            <crate::share::ShareLink/>
            <TextSource/>
            {crate::panels::lower(jobs)}
        </main>
        <footer class="site-footer">
            <p>{move || lang.t(Key::Privacy)}</p>
            <p>{move || lang.t(Key::Footer)}</p>
        </footer>
    }
}

/// The language `<select>`; the choice is remembered on this device. The writer of the
/// [`Language`] context (besides a settings link); it also moves the price box to the new
/// language's decimal mark, and has a chosen language's messages fetched
/// ([`crate::languages`]): until they arrive the words stay English (the numbers already
/// take the new language's format); if they cannot be fetched, the language goes back to the
/// last one whose words are shown, and a status line says why.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let writer = expect_context::<LanguageWriter>();
    let language = expect_context::<Language>();
    let fields = expect_context::<crate::state::FieldsWriter>();
    let unavailable = RwSignal::new(None::<(Lang, crate::languages::Failure)>);
    let on_change = move |ev| {
        if let Some(lang) = Lang::from_tag(&event_target_value(&ev)) {
            // The price box moves to the new decimal mark in the same update as the language,
            // so the price is never read, even once, with the other language's mark.
            crate::calculator::move_price_mark(fields, writer.lang.get_untracked(), lang);
            unavailable.set(None);
            writer.lang.set(lang);
            browser::remember_lang(lang);
        }
    };
    #[cfg(not(linked_languages))]
    crate::languages::fetch_when_chosen(writer, fields, unavailable);
    view! {
        <div class="lang-box">
            <label class="lang-switch">
                <span>{move || language.t(Key::LanguageLabel)}</span>
                <select
                    data-testid="language"
                    prop:value=move || language.get().code()
                    on:change=on_change
                >
                    {Lang::ALL
                        .into_iter()
                        .map(|l| {
                            view! {
                                <option
                                    value=l.code()
                                    lang=l.code()
                                    selected=move || language.get() == l
                                >
                                    {l.native_name()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <p
                class="lang-status"
                data-testid="language-status"
                role="status"
                data-lang=move || unavailable.with(|u| u.as_ref().map(|(l, _)| l.code()))
                data-reason=move || unavailable.with(|u| u.as_ref().map(|(_, f)| f.code()))
                hidden=move || unavailable.with(Option::is_none)
            >
                {move || {
                    let shown = crate::i18n::bundle::shown(language.get());
                    unavailable
                        .get()
                        .map(|(l, failure)| {
                            language
                                .tf(crate::i18n::args::LanguageUnavailable {
                                    name: l.native_name(),
                                    reason: &failure.reason(shown),
                                    shown: shown.native_name(),
                                })
                        })
                }}
            </p>
        </div>
    }
}
