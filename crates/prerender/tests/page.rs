//! The prerendered page holds the page's content in English, from the message catalogs (the
//! expected strings are read from them here, never copied), the calculator form's hooks, and
//! nothing the Content-Security-Policy would block.

use rag_chunk_calculator::i18n::{text, Key, Lang};
use rag_chunk_calculator::prerendered::CONTAINER_ID;

/// `s` as HTML text: what the renderer writes for it.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn page() -> String {
    prerender::wrap(&prerender::render_app())
}

#[test]
fn the_page_holds_the_english_content() {
    let html = page();
    let en = |key| escaped(text(Lang::En, key));
    assert!(
        html.contains(&format!("<h1>{}</h1>", en(Key::Title))),
        "title"
    );
    assert!(html.contains(&en(Key::Tagline)), "tagline");
    assert!(html.contains(&en(Key::FaqHeading)), "FAQ heading");
    for q in [Key::FaqQ1, Key::FaqQ2, Key::FaqQ3, Key::FaqQ4, Key::FaqQ5] {
        let summary = format!("<summary>{}</summary>", en(q));
        assert!(html.contains(&summary), "FAQ question {summary}");
    }
    // The worked example of the FAQ, with numbers as the live page writes them in English.
    assert!(html.contains("11,408"), "grouped thousands");
}

#[test]
fn the_page_holds_the_calculator_form() {
    let html = page();
    for hook in [
        "language",
        "doc-length",
        "length-unit",
        "chunk-size",
        "chunk-overlap",
        "embedding-model",
        "price",
        "tokenizer",
        "text-input",
        "file-input",
        "status",
        "out-chunks",
        "out-total-tokens",
        "out-cost",
        "compare",
    ] {
        let attr = format!(r#"data-testid="{hook}""#);
        assert_eq!(html.matches(&attr).count(), 1, "{attr} once");
    }
    // The fields show their starting values (attributes: properties are not HTML).
    for (hook, value) in [
        ("doc-length", "10000"),
        ("chunk-size", "512"),
        ("chunk-overlap", "64"),
        ("price", "0.02"),
    ] {
        let at = html.find(&format!(r#"data-testid="{hook}""#)).unwrap();
        let tag = &html[html[..at].rfind('<').unwrap()..at + html[at..].find('>').unwrap()];
        assert!(tag.contains(&format!(r#"value="{value}""#)), "{tag}");
    }
}

#[test]
fn the_page_is_one_disabled_container_without_inline_code_or_style() {
    let html = page();
    assert!(html.starts_with(&format!(
        r#"<fieldset id="{CONTAINER_ID}" role="none" disabled>"#
    )));
    // The CSP (index.html) allows styles and scripts from files only.
    for inline in [
        " style=",
        "<style",
        "<script",
        " onclick=",
        " onload=",
        "javascript:",
    ] {
        assert!(!html.contains(inline), "{inline} in the markup");
    }
    // Links must not depend on the public URL (`--public-url`): no root-absolute path.
    for attr in [r#" href="/"#, r#" src="/"#, r#" action="/"#] {
        assert!(!html.contains(attr), "{attr} in the markup");
    }
}
