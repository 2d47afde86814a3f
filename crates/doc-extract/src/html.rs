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

/// True for an element hidden from readers: the `hidden` attribute, or an inline style with
/// `display: none` or `visibility: hidden`.
fn hidden(e: &scraper::node::Element) -> bool {
    if e.attr("hidden").is_some() {
        return true;
    }
    e.attr("style").is_some_and(|s| {
        let s: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
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
    let mut w = Writer::default();
    let mut found = Extracted::default();
    // The element being skipped, with everything inside it, until it closes.
    let mut skipping: Option<ego_tree::NodeId> = None;
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
                    }
                    continue;
                }
                match node.value() {
                    Node::Text(t) if pre_depth > 0 => w.raw(t),
                    Node::Text(t) => w.text(t),
                    Node::Element(e) => {
                        let name = e.name();
                        if REMOVED.contains(&name) || hidden(e) {
                            skipping = Some(node.id());
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
                            if name == "pre" {
                                pre_depth += 1;
                            }
                            w.end_line(2);
                        } else if LINES.contains(&name) {
                            w.end_line(1);
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if let Some(id) = skipping {
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
        // `head` is left out whole, its style with it, and counted as no element removed.
        assert_eq!(e.removed, 0);
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
    fn broken_html_is_repaired_not_refused() {
        let e = extract("<p>one<p>two</div></span><li>three");
        assert_eq!(e.text, "one\n\ntwo\n\n- three");
        assert_eq!(extract("").text, "");
        assert_eq!(extract("<<<>>>&amp;&bogus;").text, "<<<>>>&&bogus;");
    }
}
