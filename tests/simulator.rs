//! Browser tests of the chunking simulator (SPEC §4): mount the `Simulator` with the page's
//! `Language` and `SourceText` contexts, press its buttons and move its controls, and read the figures back through
//! their data-testid hooks.
//!
//! Run with:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test simulator`
#![cfg(target_arch = "wasm32")]

use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use rag_chunk_calculator::i18n::Lang;
use rag_chunk_calculator::simulator::Simulator;
use rag_chunk_calculator::state::{LanguageWriter, SourceWriter};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A mounted simulator inside its own wrapper, unmounted and removed on drop.
struct Sim {
    root: Element,
    /// The page's language context, which the simulator reads, as the `App` provides it.
    lang: LanguageWriter,
    /// The page's text context (the simulator's "own text"), as the `App` provides it.
    source: SourceWriter,
    _handle: Box<dyn std::any::Any>,
}

impl Sim {
    /// Mounts the simulator with fresh `Language` (in `lang`) and `SourceText` contexts (the
    /// two the `App` provides that it reads).
    async fn mount(lang: Lang) -> Sim {
        let document = document();
        let root = document.create_element("div").expect("create div");
        document
            .body()
            .expect("body")
            .append_child(&root)
            .expect("append");
        let slot = std::rc::Rc::new(std::cell::Cell::new(None));
        let out = slot.clone();
        let handle = mount_to(root.clone().unchecked_into::<HtmlElement>(), move || {
            let (language, source) = (LanguageWriter::new(lang), SourceWriter::new());
            out.set(Some((language, source)));
            language.provide();
            source.provide();
            view! { <Simulator/> }
        });
        tick().await;
        let (lang, source) = slot.take().expect("mount_to ran the view");
        Sim {
            root,
            lang,
            source,
            _handle: Box::new(handle),
        }
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        let list = self
            .root
            .query_selector_all(selector)
            .expect("valid selector");
        (0..list.length())
            .map(|i| list.item(i).expect("item").unchecked_into())
            .collect()
    }

    fn get(&self, testid: &str) -> Element {
        self.root
            .query_selector(&format!("[data-testid=\"{testid}\"]"))
            .expect("valid selector")
            .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
    }

    fn value(&self, testid: &str) -> String {
        self.get(testid)
            .get_attribute("data-value")
            .unwrap_or_default()
    }

    fn number(&self, testid: &str) -> usize {
        let v = self.value(testid);
        v.parse()
            .unwrap_or_else(|_| panic!("{testid} data-value {v:?} is not a count"))
    }

    /// The bloat factor's raw value, rounded to 2 decimals as the page shows it.
    fn bloat_hundredths(&self) -> i64 {
        let v: f64 = self
            .value("sim-out-bloat")
            .parse()
            .expect("bloat is a number");
        (v * 100.0).round() as i64
    }

    async fn click(&self, testid: &str) {
        self.get(testid).unchecked_into::<HtmlElement>().click();
        // A "try" button sets several signals (mode, size, overlap); their effects take more
        // than one turn of the executor to reach the DOM.
        tick().await;
        tick().await;
    }

    /// Sets a control's value and dispatches the event a user's change fires (`input` for
    /// sliders and text, `change` for selects).
    async fn set(&self, testid: &str, value: &str) {
        let el = self.get(testid);
        let event = if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_value(value);
            "input"
        } else if let Some(select) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
            select.set_value(value);
            "change"
        } else {
            panic!("{testid} is not a form control");
        };
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let ev = web_sys::Event::new_with_event_init_dict(event, &init).expect("event");
        el.dispatch_event(&ev).expect("dispatch");
        tick().await;
    }

    /// `(data-hits, data-full)` of every coverage row.
    fn rows(&self) -> Vec<(usize, bool)> {
        self.all("[data-testid=\"sim-row\"]")
            .iter()
            .map(|r| {
                let hits = r
                    .get_attribute("data-hits")
                    .and_then(|h| h.parse().ok())
                    .expect("row has data-hits");
                (
                    hits,
                    r.get_attribute("data-full").as_deref() == Some("true"),
                )
            })
            .collect()
    }

    fn warning_kinds(&self) -> Vec<String> {
        self.all("[data-testid=\"sim-warning\"]")
            .iter()
            .filter_map(|w| w.get_attribute("data-kind"))
            .collect()
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn vietnamese_default_gives_five_chunks_and_no_full_answer() {
    let sim = Sim::mount(Lang::Vi).await;
    assert_eq!(sim.number("sim-out-chunks"), 5);
    assert_eq!(sim.number("sim-out-total"), 267);
    assert_eq!(sim.bloat_hundredths(), 100);
    assert_eq!(sim.number("sim-out-split-sentences"), 4);
    assert_eq!(sim.number("sim-out-full-chunks"), 0);
    assert_eq!(sim.value("sim-out-best-coverage"), "3/4");
    // The Vietnamese default query and its four keywords.
    let query: web_sys::HtmlInputElement = sim.get("sim-query").unchecked_into();
    assert_eq!(query.value(), "dải nhiệt độ của XV40");
    let rows = sim.rows();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows.iter().map(|r| r.0).max(), Some(3));
    assert!(rows.iter().all(|r| !r.1));
    // Shown in the Vietnamese format (decimal comma).
    assert_eq!(
        sim.get("sim-out-bloat").text_content().as_deref(),
        Some("1,00")
    );
    // Every token is in the strip once, in order; with no overlap each is in exactly 1 chunk.
    let tokens = sim.all("[data-testid=\"sim-token\"]");
    assert_eq!(tokens.len(), 267);
    assert_eq!(tokens[112].text_content().as_deref(), Some("XV40"));
    assert!(tokens
        .iter()
        .all(|t| t.get_attribute("data-multiplicity").as_deref() == Some("1")));
    assert!(sim.warning_kinds().is_empty(), "{:?}", sim.warning_kinds());
}

#[wasm_bindgen_test]
async fn try_overlap_gives_seven_chunks_and_one_full_answer() {
    let sim = Sim::mount(Lang::Vi).await;
    sim.click("sim-try-overlap").await;
    let overlap: web_sys::HtmlInputElement = sim.get("sim-overlap").unchecked_into();
    assert_eq!(overlap.value(), "20");
    assert_eq!(sim.number("sim-out-chunks"), 7);
    assert_eq!(sim.number("sim-out-total"), 387);
    assert_eq!(sim.bloat_hundredths(), 145);
    assert_eq!(
        sim.get("sim-out-bloat").text_content().as_deref(),
        Some("1,45")
    );
    assert_eq!(sim.number("sim-out-full-chunks"), 1);
    assert_eq!(sim.value("sim-out-best-coverage"), "4/4");
    // Chunk #2 holds tokens 80–139 and every keyword.
    let full = sim.all("[data-testid=\"sim-row\"][data-full=\"true\"]");
    assert_eq!(full.len(), 1);
    assert_eq!(full[0].get_attribute("data-start").as_deref(), Some("80"));
    assert_eq!(full[0].get_attribute("data-end").as_deref(), Some("140"));
    // 6 overlaps of 20 tokens: 120 tokens are held twice.
    let doubled = sim
        .all("[data-testid=\"sim-token\"]")
        .iter()
        .filter(|t| t.get_attribute("data-multiplicity").as_deref() == Some("2"))
        .count();
    assert_eq!(doubled, 120);
}

#[wasm_bindgen_test]
async fn try_sentence_mode_gives_five_chunks_and_no_split_sentence() {
    let sim = Sim::mount(Lang::Vi).await;
    sim.click("sim-try-sentence").await;
    let mode: web_sys::HtmlSelectElement = sim.get("sim-mode").unchecked_into();
    assert_eq!(mode.value(), "sentence");
    assert_eq!(sim.number("sim-out-chunks"), 5);
    assert_eq!(sim.number("sim-out-split-sentences"), 0);
    assert_eq!(sim.bloat_hundredths(), 100);
    assert_eq!(sim.number("sim-out-full-chunks"), 1);
    assert_eq!(sim.number("sim-out-oversize"), 0);
}

#[wasm_bindgen_test]
async fn sliders_move_the_figures_and_the_language_switch_moves_the_document() {
    let sim = Sim::mount(Lang::Vi).await;
    // Overlap 5 cuts at 110, just before the device name: one chunk holds every keyword.
    sim.set("sim-overlap", "5").await;
    assert_eq!(sim.number("sim-out-full-chunks"), 1);
    assert_eq!(sim.bloat_hundredths(), 107);
    // Split sentences with overlap 0: 55 → 2, 110 → 1, 115 → 2.
    sim.set("sim-overlap", "0").await;
    for (size, split) in [("55", 2), ("110", 1), ("115", 2), ("60", 4)] {
        sim.set("sim-size", size).await;
        assert_eq!(sim.number("sim-out-split-sentences"), split, "size {size}");
    }
    // Overlap 50: some token sits in 6 chunks.
    sim.set("sim-overlap", "50").await;
    let most = sim
        .all("[data-testid=\"sim-token\"]")
        .iter()
        .filter_map(|t| t.get_attribute("data-multiplicity")?.parse::<usize>().ok())
        .max();
    assert_eq!(most, Some(6));
    sim.set("sim-overlap", "0").await;
    // The language switch replaces the default document and query; the figures stay.
    sim.lang.lang.set(Lang::En);
    tick().await;
    let query: web_sys::HtmlInputElement = sim.get("sim-query").unchecked_into();
    assert_eq!(query.value(), "operating temperature range of XV40");
    assert_eq!(sim.number("sim-out-chunks"), 5);
    assert_eq!(sim.value("sim-out-best-coverage"), "3/4");
    let tokens = sim.all("[data-testid=\"sim-token\"]");
    assert_eq!(tokens[112].text_content().as_deref(), Some("XV40"));
    // An edited query survives a language switch.
    sim.set("sim-query", "XV40 battery").await;
    sim.lang.lang.set(Lang::Pl);
    tick().await;
    let query: web_sys::HtmlInputElement = sim.get("sim-query").unchecked_into();
    assert_eq!(query.value(), "XV40 battery");
}

#[wasm_bindgen_test]
async fn presets_warnings_and_an_empty_text_are_reported() {
    let sim = Sim::mount(Lang::En).await;
    // Uneven sentences in sentence mode: 19, 72 (oversize), 18, 49.
    sim.set("sim-preset", "uneven").await;
    sim.set("sim-mode", "sentence").await;
    assert_eq!(sim.value("sim-out-lengths"), "19,72,18,49");
    assert_eq!(sim.number("sim-out-oversize"), 1);
    assert_eq!(sim.warning_kinds(), ["oversize"]);
    // Fixed at 60: 60, 60, 38 and 2 split sentences.
    sim.set("sim-mode", "fixed").await;
    assert_eq!(sim.value("sim-out-lengths"), "60,60,38");
    assert_eq!(sim.number("sim-out-split-sentences"), 2);
    // One sentence without terminator: one 44-token chunk even at size 10.
    sim.set("sim-preset", "one-sentence").await;
    sim.set("sim-mode", "sentence").await;
    sim.set("sim-size", "10").await;
    assert_eq!(sim.value("sim-out-lengths"), "44");
    // Overlap 20 ≥ size 10 is clamped, and said.
    sim.set("sim-overlap", "20").await;
    assert!(sim.warning_kinds().contains(&"overlap-clamped".to_string()));
    // The own text is empty here: no chunk, a warning, nothing panics.
    sim.set("sim-preset", "own-text").await;
    assert_eq!(sim.number("sim-out-chunks"), 0);
    assert!(sim.warning_kinds().contains(&"empty-text".to_string()));
    assert!(sim.all("[data-testid=\"sim-row\"]").is_empty());
    // A query made of stop words only leaves no keyword, and the page says so.
    sim.set("sim-preset", "manual").await;
    sim.set("sim-query", "of the").await;
    assert!(sim.warning_kinds().contains(&"no-keywords".to_string()));
    assert_eq!(sim.number("sim-out-full-chunks"), 0);
    // A decimal in the own text fools the terminator rule, not the contextual rule.
    sim.source.set_text(
        std::sync::Arc::from("It weighs 2.5 kg. Keep it dry."),
        rag_chunk_calculator::state::EditKind::Whole,
        None,
    );
    sim.set("sim-preset", "own-text").await;
    assert!(sim.warning_kinds().contains(&"rule-fooled".to_string()));
    sim.set("sim-rule", "contextual").await;
    assert!(!sim.warning_kinds().contains(&"rule-fooled".to_string()));
}

#[wasm_bindgen_test]
async fn a_bpe_tokenizer_chunks_the_same_document_into_more_tokens() {
    let sim = Sim::mount(Lang::En).await;
    sim.set("sim-tokenizer", "cl100k_base").await;
    // The encoding's tokens arrive asynchronously (from the tokenizer module; linked in here):
    // meanwhile the panel says so.
    for _ in 0..100 {
        if sim
            .all("[data-testid=\"sim-tokenizer-loading\"]")
            .is_empty()
        {
            break;
        }
        rag_chunk_calculator::browser::sleep_ms(10).await;
    }
    assert!(
        sim.all("[data-testid=\"sim-tokenizer-loading\"]")
            .is_empty(),
        "the tokens did not arrive"
    );
    let total = sim.number("sim-out-total");
    let tokens = sim.all("[data-testid=\"sim-token\"]").len();
    assert_eq!(
        total, tokens,
        "no overlap: the strip holds every token once"
    );
    assert_ne!(
        total, 267,
        "cl100k_base does not split like the simple tokenizer"
    );
    // The count is the core's own for this encoding, and fixed windows of 60 cut it.
    let doc = chunk_core::sim::documents::default_document(chunk_core::Lang::En);
    let expected = chunk_core::tokenizer::Encoding::Cl100kBase
        .tokenizer()
        .count(doc);
    assert_eq!(total, expected);
    assert_eq!(sim.number("sim-out-chunks"), total.div_ceil(60));
}
