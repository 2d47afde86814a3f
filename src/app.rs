//! The page: header with the language switch, then the calculator, the text, the preview and
//! the FAQ. Creates the [`AppState`], provides it as context and starts the tokenizer job.

use leptos::prelude::*;

use crate::browser;
use crate::calculator::{Inputs, Results};
use crate::faq::Faq;
use crate::file_input::TextSource;
use crate::i18n::{Key, Lang};
use crate::state::AppState;
use crate::tokenize_job::spawn_tokenizer;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new(browser::initial_lang());
    provide_context(state);
    spawn_tokenizer(state);
    crate::compare::spawn_compare(state);

    // Keep <html lang> and the document title in step with the language switch: side effects
    // on the document outside our view tree, hence an Effect.
    Effect::new(move |_| {
        let lang = state.lang.get();
        browser::apply_lang(lang, crate::i18n::text(lang, Key::Title));
    });

    view! {
        <header class="site-header">
            <div class="header-inner">
                <div>
                    <h1>{move || state.t(Key::Title)}</h1>
                    <p class="tagline">{move || state.t(Key::Tagline)}</p>
                </div>
                <LanguageSwitch/>
            </div>
        </header>
        <main class="layout">
            <Inputs/>
            <Results/>
            <TextSource/>
            <crate::compare::table::CompareTable/>
            <crate::compare::panel::StrategyPanel/>
            <crate::compare::ab::AbView/>
            <crate::simulator::Simulator/>
            <Faq/>
        </main>
        <footer class="site-footer">
            <p>{move || state.t(Key::Privacy)}</p>
            <p>{move || state.t(Key::Footer)}</p>
        </footer>
    }
}

/// The language `<select>`; the choice is remembered on this device.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let state = expect_context::<AppState>();
    let on_change = move |ev| {
        if let Some(lang) = Lang::from_tag(&event_target_value(&ev)) {
            state.lang.set(lang);
            browser::remember_lang(lang);
        }
    };
    view! {
        <label class="lang-switch">
            <span>{move || state.t(Key::LanguageLabel)}</span>
            <select
                data-testid="language"
                on:change=on_change
            >
                {Lang::ALL
                    .into_iter()
                    .map(|l| {
                        view! {
                            <option
                                value=l.code()
                                lang=l.code()
                                selected=move || state.lang.get() == l
                            >
                                {l.native_name()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}
