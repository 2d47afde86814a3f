//! The FAQ of SPEC §2, as `<details>` elements. The overlap answer quotes the worked example
//! with figures computed by the core, so the text can never disagree with the calculator.

use chunk_core::formula::{compute, DocLength, FormulaInput};
use leptos::prelude::*;

use crate::format;
use crate::i18n::Key;
use crate::state::AppState;

/// Questions and answers, in order.
const ITEMS: [(Key, Key); 5] = [
    (Key::FaqQ1, Key::FaqA1),
    (Key::FaqQ2, Key::FaqA2),
    (Key::FaqQ3, Key::FaqA3),
    (Key::FaqQ4, Key::FaqA4),
    (Key::FaqQ5, Key::FaqA5),
];

/// The FAQ panel.
#[component]
pub fn Faq() -> impl IntoView {
    let state = expect_context::<AppState>();
    // A plain closure: it runs only when the language changes, and the computation is trivial.
    let answer = move |key: Key| {
        let lang = state.lang.get();
        let example = compute(FormulaInput {
            document: DocLength::Tokens(10_000),
            chunk_size: 512,
            chunk_overlap: 64,
            price_per_million: None,
        })
        .ok();
        match example {
            Some(o) => state.tf(
                key,
                &[
                    ("chunks", &format::int(lang, o.chunks)),
                    ("total", &format::int(lang, o.total_tokens)),
                    ("repeated", &format::int(lang, o.repeated_tokens)),
                    ("extra", &format::percent(lang, o.extra_over_document)),
                ],
            ),
            None => state.t(key).to_string(),
        }
    };
    view! {
        <section class="panel faq" aria-labelledby="faq-heading">
            <h2 id="faq-heading">{move || state.t(Key::FaqHeading)}</h2>
            {ITEMS
                .into_iter()
                .map(|(q, a)| {
                    view! {
                        <details>
                            <summary>{move || state.t(q)}</summary>
                            <p>{move || answer(a)}</p>
                        </details>
                    }
                })
                .collect_view()}
        </section>
    }
}
