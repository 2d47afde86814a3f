//! The text a reader sees on an HTML page, with its headings, lists and tables as
//! markdown-like structure (the crate's rules).

use ego_tree::iter::Edge;
use scraper::{Html, Node};

use crate::writer::Writer;
use crate::Extracted;

/// Elements left out with everything inside them: not content a reader sees as text.
const REMOVED: &[&str] = &[
    "head", "script", "style", "noscript", "template", "iframe", "object", "svg", "canvas",
    "select",
];

/// Blocks set off by a blank line.
const PARAGRAPHS: &[&str] = &[
    "p",
    "pre",
    "blockquote",
    "table",
    "figure",
    "hr",
    "address",
    "dl",
    "details",
    "fieldset",
];

/// Blocks that start and end a line.
const LINES: &[&str] = &[
    "div",
    "section",
    "article",
    "aside",
    "header",
    "footer",
    "main",
    "nav",
    "form",
    "dt",
    "dd",
    "figcaption",
    "caption",
    "summary",
    "legend",
    "body",
    "html",
    "hgroup",
    "dialog",
    "menu",
];

/// True when CSS declarations `decls` hide an element: `display: none` or `visibility: hidden`
/// (whitespace and case ignored).
fn hides(decls: &str) -> bool {
    let s: String = decls
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    s.contains("display:none") || s.contains("visibility:hidden")
}

/// A simple CSS selector of the page's own style sheets that hides what it matches: an
/// optional element name, classes and an optional id (`nav`, `.skip`, `div.menu#top`).
#[derive(Debug, Default, PartialEq)]
struct HidingSelector {
    name: Option<String>,
    classes: Vec<String>,
    id: Option<String>,
}

impl HidingSelector {
    /// The selector `text`, when it is such a simple one (no combinator, attribute or pseudo
    /// class: those are left to the reader, which then keeps the element).
    fn parse(text: &str) -> Option<HidingSelector> {
        let text = text.trim();
        let ident = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        if text.is_empty() || !text.chars().all(|c| ident(c) || c == '.' || c == '#') {
            return None;
        }
        let mut sel = HidingSelector::default();
        let mut rest = text;
        let head_len = rest.find(['.', '#']).unwrap_or(rest.len());
        if head_len > 0 {
            sel.name = Some(rest[..head_len].to_ascii_lowercase());
        }
        rest = &rest[head_len..];
        while let Some(kind) = rest.chars().next() {
            let body = &rest[1..];
            let len = body.find(['.', '#']).unwrap_or(body.len());
            if len == 0 {
                return None;
            }
            match kind {
                '.' => sel.classes.push(body[..len].to_owned()),
                _ if sel.id.is_none() => sel.id = Some(body[..len].to_owned()),
                _ => return None,
            }
            rest = &body[len..];
        }
        Some(sel)
    }

    fn matches(&self, e: &scraper::node::Element) -> bool {
        self.name.as_deref().is_none_or(|n| e.name() == n)
            && self.id.as_deref().is_none_or(|id| e.id() == Some(id))
            && self
                .classes
                .iter()
                .all(|c| e.has_class(c, scraper::CaseSensitivity::CaseSensitive))
    }
}

/// The simple selectors that the page's own `<style>` sheets hide (`display: none`,
/// `visibility: hidden`), outside any at-rule block (`@media print` hides for paper only).
fn hiding_selectors(doc: &Html) -> Vec<HidingSelector> {
    let mut out = Vec::new();
    let Ok(style) = scraper::Selector::parse("style") else {
        return out;
    };
    for sheet in doc.select(&style) {
        let css: String = sheet.text().collect();
        let css = strip_comments(&css);
        let mut depth = 0usize;
        let mut start = 0usize;
        let mut prelude: Option<&str> = None;
        for (i, c) in css.char_indices() {
            match c {
                '{' => {
                    if depth == 0 {
                        prelude = Some(&css[start..i]);
                        start = i + 1;
                    }
                    depth += 1;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if let Some(p) = prelude.take() {
                            let (p, decls) = (p.trim(), &css[start..i]);
                            if !p.starts_with('@') && hides(decls) {
                                out.extend(p.split(',').filter_map(HidingSelector::parse));
                            }
                        }
                        start = i + 1;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// `css` without its `/* … */` comments.
fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..]
            .find("*/")
            .map_or("", |end| &rest[at + 2 + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// True for an element hidden from readers: the `hidden` attribute, an inline style with
/// `display: none` or `visibility: hidden`, or a simple selector of the page's own style
/// sheets that hides it ([`hiding_selectors`]).
fn hidden(e: &scraper::node::Element, sheets: &[HidingSelector]) -> bool {
    e.attr("hidden").is_some()
        || e.attr("style").is_some_and(hides)
        || sheets.iter().any(|s| s.matches(e))
}

/// The fence of a code block whose text is `code`: three backticks, or one more than the
/// longest run of backticks inside it, so that the code cannot close it.
fn fence_for(code: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

/// The language a code block names in its class (`language-rust`, `lang-py`), on the `pre`
/// or on its `code`.
fn code_language(pre: scraper::ElementRef<'_>) -> Option<String> {
    let code = scraper::Selector::parse("code").ok()?;
    std::iter::once(pre)
        .chain(pre.select(&code))
        .flat_map(|e| e.value().classes())
        .find_map(|c| {
            c.strip_prefix("language-")
                .or_else(|| c.strip_prefix("lang-"))
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
        })
}

/// The heading level of `h1`…`h6`.
fn heading_level(name: &str) -> Option<usize> {
    match name {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ => None,
    }
}

/// Extracts the page `html` (any HTML; errors are repaired as browsers repair them, so every
/// input gives a text).
pub fn extract(html: &str) -> Extracted {
    let doc = Html::parse_document(html);
    let sheets = hiding_selectors(&doc);
    let mut w = Writer::default();
    let mut found = Extracted::default();
    // The fences of the open code blocks (`pre` holding `code`), innermost last.
    let mut fences: Vec<Option<String>> = Vec::new();
    // The element being skipped, with everything inside it, until it closes, and whether it
    // is the head.
    let mut skipping: Option<(ego_tree::NodeId, bool)> = None;
    let mut pre_depth = 0usize;
    // Open lists, innermost last: (ordered, next number).
    let mut lists: Vec<(bool, u64)> = Vec::new();
    // Cells written in each open table row, innermost last.
    let mut rows: Vec<usize> = Vec::new();
    let mut in_title = false;
    let mut title = String::new();
    for edge in doc.tree.root().traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    if in_title {
                        if let Node::Text(t) = node.value() {
                            title.push_str(t);
                        }
                    }
                    if let Node::Element(e) = node.value() {
                        if e.name() == "title" && found.title.is_none() && title.is_empty() {
                            in_title = true;
                        }
                        // What the head holds of the elements left out (its scripts and
                        // styles) is counted; the head itself is not content either way.
                        let in_head = skipping.is_some_and(|(_, head)| head);
                        if in_head && REMOVED.contains(&e.name()) {
                            found.removed += 1;
                        }
                    }
                    continue;
                }
                match node.value() {
                    Node::Text(t) if pre_depth > 0 => w.raw(t),
                    Node::Text(t) => w.text(t),
                    Node::Element(e) => {
                        let name = e.name();
                        if REMOVED.contains(&name) || hidden(e, &sheets) {
                            skipping = Some((node.id(), name == "head"));
                            if name != "head" {
                                found.removed += 1;
                            }
                            continue;
                        }
                        if let Some(level) = heading_level(name) {
                            found.headings += 1;
                            w.end_line(2);
                            w.marker(&format!("{} ", "#".repeat(level)));
                        } else if name == "ul" || name == "ol" {
                            if lists.is_empty() {
                                w.end_line(2);
                            }
                            let start = e.attr("start").and_then(|s| s.trim().parse().ok());
                            lists.push((name == "ol", start.unwrap_or(1)));
                        } else if name == "li" {
                            found.list_items += 1;
                            let indent = "  ".repeat(lists.len().saturating_sub(1));
                            let marker = match lists.last_mut() {
                                Some((true, n)) => {
                                    *n += 1;
                                    format!("{indent}{}. ", *n - 1)
                                }
                                _ => format!("{indent}- "),
                            };
                            w.marker(&marker);
                        } else if name == "tr" {
                            w.end_line(1);
                            rows.push(0);
                        } else if name == "td" || name == "th" {
                            if let Some(cells) = rows.last_mut() {
                                if *cells > 0 {
                                    w.separator(" | ");
                                }
                                *cells += 1;
                            }
                        } else if name == "br" {
                            w.end_line(1);
                        } else if name == "img" {
                            found.images += 1;
                        } else if PARAGRAPHS.contains(&name) {
                            if name == "table" {
                                found.tables += 1;
                            }
                            w.end_line(2);
                            if name == "pre" {
                                pre_depth += 1;
                                // A code block keeps its fence, so markdown-aware strategies
                                // see the code as code.
                                let fence = scraper::ElementRef::wrap(node).and_then(|pre| {
                                    let has_code = pre
                                        .children()
                                        .filter_map(scraper::ElementRef::wrap)
                                        .any(|c| c.value().name() == "code");
                                    has_code.then(|| {
                                        let code: String = pre.text().collect();
                                        let fence = fence_for(&code);
                                        let lang = code_language(pre).unwrap_or_default();
                                        w.marker(&format!("{fence}{lang}"));
                                        w.end_line(1);
                                        fence
                                    })
                                });
                                fences.push(fence);
                            }
                        } else if LINES.contains(&name) {
                            w.end_line(1);
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if let Some((id, _)) = skipping {
                    if let Node::Element(e) = node.value() {
                        if e.name() == "title" && in_title {
                            in_title = false;
                            let t = title.split_whitespace().collect::<Vec<_>>().join(" ");
                            found.title = (!t.is_empty()).then_some(t);
                        }
                    }
                    if id == node.id() {
                        skipping = None;
                    }
                    continue;
                }
                let Node::Element(e) = node.value() else {
                    continue;
                };
                let name = e.name();
                if heading_level(name).is_some() {
                    w.end_line(2);
                } else if name == "ul" || name == "ol" {
                    lists.pop();
                    w.end_line(if lists.is_empty() { 2 } else { 1 });
                } else if name == "li" {
                    w.end_line(1);
                } else if name == "tr" {
                    rows.pop();
                    w.end_line(1);
                } else if PARAGRAPHS.contains(&name) {
                    if name == "pre" {
                        pre_depth = pre_depth.saturating_sub(1);
                        if let Some(Some(fence)) = fences.pop() {
                            w.end_line(1);
                            w.marker(&fence);
                        }
                    }
                    w.end_line(2);
                } else if LINES.contains(&name) {
                    w.end_line(1);
                }
            }
        }
    }
    found.text = w.finish();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lists_tables_and_paragraphs_become_markdown_like_lines() {
        let page = "<!doctype html><html><head><title> The  page </title><style>p{}</style></head>\
            <body><h1>Title</h1><p>One <b>bold</b>\n word.</p><ul><li>a</li><li>b<ol start=3>\
            <li>c</li><li>d</li></ol></li></ul><table><tr><th>x</th><th>y</th></tr>\
            <tr><td>1</td><td>2</td></tr></table><p>end<br>line</p></body></html>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "# Title\n\nOne bold word.\n\n- a\n- b\n  3. c\n  4. d\n\nx | y\n1 | 2\n\nend\nline"
        );
        assert_eq!(e.title.as_deref(), Some("The page"));
        assert_eq!((e.headings, e.list_items, e.tables), (1, 4, 1));
        // `head` is left out whole; its style is counted as an element removed.
        assert_eq!(e.removed, 1);
    }

    #[test]
    fn scripts_styles_hidden_elements_and_images_are_left_out() {
        let page = "<body><p>seen</p><script>var x = '<p>no</p>';</script><div hidden>no</div>\
            <span style='DISPLAY : none'>no</span><p style='visibility:hidden'>no</p>\
            <noscript>no</noscript><img src=a.png alt='no'><template><p>no</p></template>\
            <p>also seen</p></body>";
        let e = extract(page);
        assert_eq!(e.text, "seen\n\nalso seen");
        assert_eq!((e.removed, e.images), (6, 1));
    }

    #[test]
    fn preformatted_text_keeps_its_whitespace() {
        let e = extract("<p>a  b</p><pre>  x\n    y  </pre><p>c</p>");
        assert_eq!(e.text, "a b\n\n  x\n    y\n\nc");
    }

    #[test]
    fn the_heads_scripts_and_styles_are_counted_as_left_out() {
        let e = extract(
            "<html><head><title>t</title><script>x()</script><style>p{}</style><meta charset=utf-8></head><body><p>text</p></body></html>",
        );
        assert_eq!((e.text.as_str(), e.removed), ("text", 2));
    }

    #[test]
    fn elements_the_pages_own_style_sheet_hides_are_left_out() {
        let page = "<html><head><style>/* site */ nav, .skip-link { display : NONE }\
            #cookie{visibility:hidden} @media print { main { display: none } }\
            div p.note { display: none } a:hover { display: none }</style></head><body>\
            <nav><a href=/>Home</a> <a href=/docs>Docs</a></nav><a class=skip-link href=#m>Skip</a>\
            <div id=cookie>Accept cookies</div><main><p>Body text.</p>\
            <div><p class=note>kept: a descendant selector is the reader's to judge</p></div></main></body></html>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "Body text.\n\nkept: a descendant selector is the reader's to judge"
        );
        assert_eq!(
            e.removed, 4,
            "the style element, nav, the skip link, the banner"
        );
        assert_eq!(
            HidingSelector::parse("div.menu#top"),
            Some(HidingSelector {
                name: Some("div".into()),
                classes: vec!["menu".into()],
                id: Some("top".into())
            })
        );
        assert_eq!(HidingSelector::parse("div > p"), None);
        assert_eq!(HidingSelector::parse("a:hover"), None);
        assert_eq!(HidingSelector::parse("#a#b"), None);
        assert_eq!(strip_comments("a/* x */b/* open"), "ab");
    }

    #[test]
    fn code_blocks_keep_their_fences_and_language() {
        let page = "<p>Run it:</p><pre><code class=\"language-rust\">fn main() {\n    println!(\"hi\");\n}\n</code></pre>\
            <pre><code>has ``` inside</code></pre><pre>plain  preformatted</pre><p>after</p>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "Run it:\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n\
             ````\nhas ``` inside\n````\n\nplain  preformatted\n\nafter"
        );
        assert_eq!(fence_for("a `` b"), "```");
        assert_eq!(fence_for("````"), "`````");
    }

    #[test]
    fn broken_html_is_repaired_not_refused() {
        let e = extract("<p>one<p>two</div></span><li>three");
        assert_eq!(e.text, "one\n\ntwo\n\n- three");
        assert_eq!(extract("").text, "");
        assert_eq!(extract("<<<>>>&amp;&bogus;").text, "<<<>>>&&bogus;");
    }
}
