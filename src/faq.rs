//! The FAQ of SPEC §2, as `<details>` elements. The overlap answer quotes the worked example
//! with figures computed by the core, so the text can never disagree with the calculator.

use chunk_core::formula::{compute, DocLength, FormulaInput, CHARS_PER_TOKEN};
use leptos::prelude::*;

use crate::format;
use crate::i18n::args as page_msg;
use crate::i18n::Key;
use crate::state::Language;

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
    let lang = expect_context::<Language>();
    // A plain closure: it runs only when the language changes, and the computation is trivial.
    let answer = move |key: Key| {
        let l = lang.get();
        let example = compute(FormulaInput {
            document: DocLength::Tokens(10_000),
            chunk_size: 512,
            chunk_overlap: 64,
            price_per_million: None,
        })
        .ok();
        match (key, example) {
            (Key::FaqA2, Some(o)) => lang.tf(page_msg::FaqA2 {
                chunks: &format::int(l, o.chunks),
                total: &format::int(l, o.total_tokens),
                repeated: &format::int(l, o.repeated_tokens),
                extra: &format::percent(l, o.extra_over_document),
            }),
            (Key::FaqA3, _) => lang.tf(page_msg::FaqA3 {
                per_token: &format::int(l, CHARS_PER_TOKEN),
            }),
            // The worked example's inputs are constants the formula accepts; were it ever to
            // refuse them, the answer would be left out rather than shown with its gaps.
            (Key::FaqA2, None) => String::new(),
            _ => lang.t(key).to_string(),
        }
    };
    view! {
        <section class="panel faq" aria-labelledby="faq-heading">
            <h2 id="faq-heading">{move || lang.t(Key::FaqHeading)}</h2>
            {ITEMS
                .into_iter()
                .map(|(q, a)| {
                    view! {
                        <details>
                            <summary>{move || lang.t(q)}</summary>
                            <p>{move || answer(a)}</p>
                        </details>
                    }
                })
                .collect_view()}
        </section>
    }
}
