//! The text a reader sees on an HTML page, with its headings, lists, tables and code as
//! markdown-like structure (the crate's rules), and what was left out.
//!
//! The page is parsed as browsers parse it (html5ever, the WHATWG algorithm), then walked in
//! document order. Left out, each with everything inside it:
//! - **Non-content elements** ([`REMOVED`]: scripts, styles, `template`, `noscript`, embedded
//!   objects and forms' `select`), wherever they are: in `head` (which is left out whole), in
//!   `body`, inside a hidden or boilerplate element. Each is counted in
//!   [`Extracted::removed`] once; one inside another (a `template`'s script, what a parser
//!   without scripting reads inside a `noscript`) is the outer one's content, not counted.
//! - **Hidden elements**: the `hidden` attribute, `aria-hidden="true"`, an inline `style` with
//!   `display: none` or `visibility: hidden`, or a rule of the page's own `<style>` sheets
//!   that sets one of those for a selector matching the element (see *The cascade* below).
//!   The outermost one is counted in [`Extracted::removed`].
//! - **Page boilerplate** (dropped, not marked: a chunk should hold what the page says, not its
//!   menus): every `nav` (and `role="navigation"`), and a page-level `header`, `footer` or
//!   `aside` (and `role="banner"`, `"contentinfo"`, `"complementary"`), page-level meaning not
//!   inside an `article`, `aside`, `main`, `nav` or `section` (or an element with the role
//!   `article`, `complementary`, `main`, `navigation` or `region`) — the scoping by which
//!   HTML-AAM maps `header` to the `banner` landmark and `footer` to `contentinfo`, applied to
//!   `aside` too. So an article's own header (its title, its byline) is kept, and so is an `h1`
//!   in a page-level header outside its menus (many pages put the article's title there). The
//!   outermost one is counted in [`Extracted::boilerplate`]. An element both hidden and boilerplate counts as
//!   hidden.
//!
//! **The cascade**, as far as it goes: a rule outside any at-rule block (`@media`, `@supports`:
//! their rules are left alone, so `@media print` hides nothing here) whose declarations contain
//! `display: none` or `visibility: hidden` hides what its selectors match, where a selector is
//! compound selectors (an optional element name, classes, an optional id: `nav`, `.skip`,
//! `div.menu#top`) joined by descendant combinators (`.sidebar a`); such a rule never hides
//! `html` or `body` (pages hide themselves until a script shows them). Not covered, so what
//! they hide is kept: external style sheets (`<link rel=stylesheet>`) and `@import`; other
//! combinators (`>`, `+`, `~`), attribute selectors, pseudo-classes and `*`; styles set by
//! scripts; the closed content of `details`; elements moved or clipped out of view (`position`,
//! `clip`, zero size, `opacity: 0`). Not covered either, so what they show is dropped:
//! specificity and order (a later or more specific `display: block` does not bring back an
//! element a rule hides), and `visibility: visible` on a child of a `visibility: hidden`
//! element.
//!
//! Written: headings as `#` lines, list items as `- ` / `N. ` lines, table rows as cells joined
//! by ` | `; whitespace collapses outside `pre`. Every `pre` is a fenced code block (` ``` `, or
//! longer when the code holds a run of backticks), whether or not it holds `code`: HTML's
//! preformatted text is markdown's fenced block, which keeps its whitespace and which
//! markdown-aware strategies do not split as prose. Its language ([`code_language`]) follows
//! the opening fence when the block names one. An inline `code` (outside `pre`) is written
//! between backticks, as many as one more than its longest run of backticks, with a space inside
//! them when it starts or ends with a backtick (CommonMark's code spans).

use ego_tree::iter::Edge;
use ego_tree::NodeId;
use scraper::node::Element;
use scraper::{ElementRef, Html, Node};

use crate::writer::{fence_for, longest_backticks, Writer};
use crate::Extracted;

/// Elements left out with everything inside them, wherever they are: not content a reader sees
/// as text. (`head` is left out whole too, apart from its `title`.)
pub const REMOVED: &[&str] = &[
    "script", "style", "noscript", "template", "iframe", "object", "svg", "canvas", "select",
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

/// A compound selector: an optional element name, classes and an optional id (`div.menu#top`).
#[derive(Debug, Default, PartialEq)]
struct Compound {
    name: Option<String>,
    classes: Vec<String>,
    id: Option<String>,
}

impl Compound {
    /// The compound selector `text`, when it is made of a name, classes and one id only.
    fn parse(text: &str) -> Option<Compound> {
        let ident = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        if text.is_empty() || !text.chars().all(|c| ident(c) || c == '.' || c == '#') {
            return None;
        }
        let mut sel = Compound::default();
        let head_len = text.find(['.', '#']).unwrap_or(text.len());
        if head_len > 0 {
            sel.name = Some(text[..head_len].to_ascii_lowercase());
        }
        let mut rest = &text[head_len..];
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

    fn matches(&self, e: &Element) -> bool {
        self.name.as_deref().is_none_or(|n| e.name() == n)
            && self.id.as_deref().is_none_or(|id| e.id() == Some(id))
            && self
                .classes
                .iter()
                .all(|c| e.has_class(c, scraper::CaseSensitivity::CaseSensitive))
    }
}

/// A selector of the page's own style sheets that hides what it matches: compound selectors
/// joined by descendant combinators (`nav`, `.sidebar a`, `div#main p.note`), outermost first.
#[derive(Debug, PartialEq)]
struct HidingSelector(Vec<Compound>);

impl HidingSelector {
    /// The selector `text`, when it is such a one (no other combinator, attribute or pseudo
    /// class: those are left to the reader, which then keeps the element).
    fn parse(text: &str) -> Option<HidingSelector> {
        let parts: Option<Vec<Compound>> = text.split_whitespace().map(Compound::parse).collect();
        parts.filter(|p| !p.is_empty()).map(HidingSelector)
    }

    /// True when the element `e` is the last compound's and its ancestors hold the others in
    /// order (descendant combinators only, so the nearest matching ancestor is always a right
    /// choice).
    fn matches(&self, e: ElementRef<'_>) -> bool {
        let Some((last, outer)) = self.0.split_last() else {
            return false;
        };
        if !last.matches(e.value()) {
            return false;
        }
        let mut ancestors = e.ancestors().filter_map(ElementRef::wrap);
        outer
            .iter()
            .rev()
            .all(|part| ancestors.any(|a| part.matches(a.value())))
    }
}

/// The selectors that the page's own `<style>` sheets hide (`display: none`,
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
                // A statement at-rule (`@import url(x);`) ends at its semicolon.
                ';' if depth == 0 => start = i + 1,
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

/// True for an element hidden from readers: the `hidden` attribute, `aria-hidden="true"`, an
/// inline style with `display: none` or `visibility: hidden`, or a selector of the page's own
/// style sheets that hides it ([`hiding_selectors`]; not `html` or `body`, which a page hides
/// only until its scripts show it).
fn hidden(e: ElementRef<'_>, sheets: &[HidingSelector]) -> bool {
    let v = e.value();
    // A sheet that hides the whole page (until a script shows it) is not followed.
    let page = matches!(v.name(), "html" | "body");
    v.attr("hidden").is_some()
        || v.attr("aria-hidden")
            .is_some_and(|a| a.trim().eq_ignore_ascii_case("true"))
        || v.attr("style").is_some_and(hides)
        || (!page && sheets.iter().any(|s| s.matches(e)))
}

/// The first ARIA role an element names (`role="navigation"`), lower-cased.
fn role(e: &Element) -> Option<String> {
    e.attr("role")
        .and_then(|r| r.split_whitespace().next())
        .map(str::to_ascii_lowercase)
}

/// True for an element that scopes a `header`, `footer` or `aside` to itself (HTML-AAM:
/// sectioning content and `main`, or an element with one of their roles).
fn scopes(e: &Element) -> bool {
    matches!(e.name(), "article" | "aside" | "main" | "nav" | "section")
        || role(e).is_some_and(|r| {
            matches!(
                r.as_str(),
                "article" | "complementary" | "main" | "navigation" | "region"
            )
        })
}

/// True for page boilerplate (see the module's documentation): `nav`, or a `header`, `footer`
/// or `aside` (or an element with their landmark roles) when `scoped` is false.
fn boilerplate(e: &Element, scoped: bool) -> bool {
    let role = role(e);
    e.name() == "nav"
        || role.as_deref() == Some("navigation")
        || (!scoped
            && (matches!(e.name(), "header" | "footer" | "aside")
                || matches!(
                    role.as_deref(),
                    Some("banner" | "contentinfo" | "complementary")
                )))
}

/// True for a `header` or an element with `role="banner"` (left out when page-level), unless
/// its role makes it navigation (a menu's heading is not the page's title).
fn is_banner(e: &Element) -> bool {
    let role = role(e);
    (e.name() == "header" || role.as_deref() == Some("banner"))
        && role.as_deref() != Some("navigation")
}

/// An inline code span for the text `code`: its whitespace collapsed, between as many
/// backticks as one more than its longest run of them, padded with a space inside when it
/// starts or ends with a backtick (CommonMark). Empty when `code` is only whitespace.
fn code_span(code: &str) -> String {
    let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if code.is_empty() {
        return code;
    }
    let ticks = "`".repeat(longest_backticks(&code) + 1);
    let pad = if code.starts_with('`') || code.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{code}{pad}{ticks}")
}

/// The language a code block names, looked for on its `code` child, then on the `pre`, then
/// on the `pre`'s parent and grandparent (the wrappers documentation sites put around it); on
/// each, the first of: a class `language-x` (CommonMark's renderers, highlight.js, Prism,
/// Docusaurus), `lang-x` (Prettify), `highlight-source-x` (GitHub), `highlight-x` (Sphinx;
/// not `highlight-default`, which names no language), or a `data-lang` attribute (Hugo,
/// Asciidoctor). A language holds no whitespace or backtick; `None` when none is named.
pub fn code_language(pre: ElementRef<'_>) -> Option<String> {
    const PREFIXES: [&str; 4] = ["language-", "lang-", "highlight-source-", "highlight-"];
    let valid = |l: &&str| !l.is_empty() && *l != "default" && !l.contains('`');
    let code = pre
        .children()
        .filter_map(ElementRef::wrap)
        .find(|c| c.value().name() == "code");
    let wrappers = pre.ancestors().filter_map(ElementRef::wrap).take(2);
    code.into_iter()
        .chain(std::iter::once(pre))
        .chain(wrappers)
        .find_map(|e| {
            let v = e.value();
            v.classes()
                .find_map(|c| {
                    PREFIXES
                        .iter()
                        .find_map(|p| c.strip_prefix(p))
                        .filter(valid)
                })
                .or_else(|| {
                    v.attr("data-lang")
                        .map(str::trim)
                        .filter(|l| valid(l) && !l.contains(char::is_whitespace))
                })
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

/// An element being left out with everything inside it, until it closes.
struct Skip {
    id: NodeId,
    /// It is `head` (whose `title` is read).
    head: bool,
    /// It is itself one of [`REMOVED`]: what it holds is its content, not counted.
    removed: bool,
    /// The outermost [`REMOVED`] element open inside it, already counted.
    inner: Option<NodeId>,
    /// It is a page-level `header` (or `role="banner"`), whose `h1` is kept ([`BannerWalk`]).
    banner: bool,
}

/// What a page-level header's skip knows of the elements open inside it, to keep its title:
/// an `h1` that neither is nor lies inside one that is hidden, a `nav` or `role="navigation"`
/// (or one of [`REMOVED`]: [`Skip::inner`]). Many pages put their one `h1` (the article's
/// title) in the site's top `header`; leaving the header out must not lose it. Each element is
/// looked at once, as it opens (a search of every `h1`'s ancestors was quadratic).
#[derive(Default)]
struct BannerWalk {
    /// Open elements inside the banner that leave out what they hold or scope a header,
    /// footer or aside ([`scopes`]), innermost last: `(node, leaves out, scopes)`.
    open: Vec<(NodeId, bool, bool)>,
    /// How many of `open` leave out what they hold.
    leaving_out: usize,
}

impl BannerWalk {
    /// An element opening inside the banner: true when it is the banner's title (then it is
    /// not kept in `open`).
    fn opens(&mut self, el: ElementRef<'_>, sheets: &[HidingSelector]) -> bool {
        let e = el.value();
        let leaves_out =
            e.name() == "nav" || role(e).as_deref() == Some("navigation") || hidden(el, sheets);
        if e.name() == "h1" && !leaves_out && self.leaving_out == 0 {
            return true;
        }
        let scoping = scopes(e);
        if leaves_out || scoping {
            self.open.push((el.id(), leaves_out, scoping));
            self.leaving_out += usize::from(leaves_out);
        }
        false
    }

    /// A node closing inside the banner.
    fn closes(&mut self, node: NodeId) {
        if let Some(&(id, leaves_out, _)) = self.open.last() {
            if id == node {
                self.open.pop();
                self.leaving_out -= usize::from(leaves_out);
            }
        }
    }

    /// The open elements that scope headers (what the walk's count must add while the title
    /// is written, so that a footer inside it is not taken for the page's).
    fn scoping(&self) -> usize {
        self.open.iter().filter(|&&(_, _, s)| s).count()
    }
}

/// The walk's open structures, besides the text.
#[derive(Default)]
struct Walk {
    /// The open code block (the outermost `pre`) and its fence.
    block: Option<(NodeId, String)>,
    /// The open inline `code` outside a block, and its text so far.
    span: Option<(NodeId, String)>,
    /// Open lists, innermost last: (ordered, next number).
    lists: Vec<(bool, u64)>,
    /// Cells written in each open table row, innermost last.
    rows: Vec<usize>,
}

impl Walk {
    /// Writes what opening the kept element `el` starts (outside an inline code span).
    fn open(&mut self, el: ElementRef<'_>, w: &mut Writer, found: &mut Extracted) {
        let e = el.value();
        let name = e.name();
        if let Some(level) = heading_level(name) {
            found.headings += 1;
            w.end_line(2);
            w.marker(&format!("{} ", "#".repeat(level)));
        } else if name == "code" && self.block.is_none() {
            self.span = Some((el.id(), String::new()));
        } else if name == "ul" || name == "ol" {
            if self.lists.is_empty() {
                w.end_line(2);
            }
            let start = e.attr("start").and_then(|n| n.trim().parse().ok());
            self.lists.push((name == "ol", start.unwrap_or(1)));
        } else if name == "li" {
            found.list_items += 1;
            let indent = "  ".repeat(self.lists.len().saturating_sub(1));
            let marker = match self.lists.last_mut() {
                // `start` is the page's number: the counter saturates, as the DOCX reader's.
                Some((true, n)) => {
                    let this = *n;
                    *n = n.saturating_add(1);
                    format!("{indent}{this}. ")
                }
                _ => format!("{indent}- "),
            };
            w.marker(&marker);
        } else if name == "tr" {
            w.end_line(1);
            self.rows.push(0);
        } else if name == "td" || name == "th" {
            if let Some(cells) = self.rows.last_mut() {
                if *cells > 0 {
                    w.separator(" | ");
                }
                *cells += 1;
            }
        } else if name == "br" {
            w.end_line(1);
        } else if PARAGRAPHS.contains(&name) {
            if name == "table" {
                found.tables += 1;
            }
            w.end_line(2);
            if name == "pre" && self.block.is_none() {
                // A code block keeps its fence, so markdown-aware strategies see the code as
                // code.
                found.code_blocks += 1;
                let code: String = el.text().collect();
                let fence = fence_for(&code);
                let lang = code_language(el).unwrap_or_default();
                w.marker(&format!("{fence}{lang}"));
                w.end_line(1);
                self.block = Some((el.id(), fence));
            }
        } else if LINES.contains(&name) {
            w.end_line(1);
        }
    }

    /// Writes what closing the kept element `e` (node `id`) ends.
    fn close(&mut self, e: &Element, id: NodeId, w: &mut Writer) {
        if let Some((span, code)) = self.span.take() {
            if span == id {
                // Whitespace at the span's edges stays outside its backticks.
                if code.starts_with(char::is_whitespace) {
                    w.text(" ");
                }
                w.text(&code_span(&code));
                if code.ends_with(char::is_whitespace) {
                    w.text(" ");
                }
            } else {
                self.span = Some((span, code));
            }
            return;
        }
        let name = e.name();
        if heading_level(name).is_some() {
            w.end_line(2);
        } else if name == "ul" || name == "ol" {
            self.lists.pop();
            w.end_line(if self.lists.is_empty() { 2 } else { 1 });
        } else if name == "li" {
            w.end_line(1);
        } else if name == "tr" {
            self.rows.pop();
            w.end_line(1);
        } else if PARAGRAPHS.contains(&name) {
            if self.block.as_ref().is_some_and(|(b, _)| *b == id) {
                if let Some((_, fence)) = self.block.take() {
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

/// Extracts the page `html` (any HTML; errors are repaired as browsers repair them, so every
/// input gives a text).
pub fn extract(html: &str) -> Extracted {
    let doc = Html::parse_document(html);
    let sheets = hiding_selectors(&doc);
    let mut w = Writer::default();
    let mut found = Extracted::default();
    let mut walk = Walk::default();
    let mut skipping: Option<Skip> = None;
    // Inside a banner's skip: what decides whether an h1 is its title.
    let mut banner = BannerWalk::default();
    // A banner's title being written: the banner's skip to resume when it closes, its node,
    // and the scoping elements open around it inside the banner (added to `scoped`).
    let mut lifted: Option<(Skip, NodeId, usize)> = None;
    // Open elements that scope a header, footer or aside ([`scopes`]).
    let mut scoped = 0usize;
    let mut in_title = false;
    let mut title = String::new();
    for edge in doc.tree.root().traverse() {
        match edge {
            Edge::Open(node) => {
                if let Some(skip) = skipping.as_mut() {
                    // Not inside a title already lifted (an h1 holding a header of its own).
                    let title_of_banner = skip.banner
                        && skip.inner.is_none()
                        && lifted.is_none()
                        && ElementRef::wrap(node).is_some_and(|el| banner.opens(el, &sheets));
                    if title_of_banner {
                        let around = banner.scoping();
                        scoped += around;
                        lifted = skipping.take().map(|skip| (skip, node.id(), around));
                    }
                }
                if let Some(skip) = skipping.as_mut() {
                    match node.value() {
                        Node::Text(t) if in_title => title.push_str(t),
                        Node::Element(e) => {
                            if skip.head
                                && e.name() == "title"
                                && found.title.is_none()
                                && title.is_empty()
                            {
                                in_title = true;
                            }
                            if !skip.removed && skip.inner.is_none() && REMOVED.contains(&e.name())
                            {
                                skip.inner = Some(node.id());
                                found.removed += 1;
                            }
                        }
                        _ => {}
                    }
                    continue;
                }
                let el = match node.value() {
                    Node::Text(t) => {
                        match walk.span.as_mut() {
                            Some((_, code)) => code.push_str(t),
                            None if walk.block.is_some() => w.raw(t),
                            None => w.text(t),
                        }
                        continue;
                    }
                    Node::Element(_) => ElementRef::wrap(node).expect("an element node"),
                    _ => continue,
                };
                let e = el.value();
                let name = e.name();
                let removed = REMOVED.contains(&name);
                // What the skip below leaves out: `head`, a removed or hidden element, or
                // boilerplate (a page-level header of which is a banner, whose title is kept).
                let mut banner_skip = false;
                if name == "head" || removed || hidden(el, &sheets) {
                    found.removed += usize::from(name != "head");
                } else if boilerplate(e, scoped > 0) {
                    found.boilerplate += 1;
                    banner_skip = is_banner(e);
                } else {
                    if scopes(e) {
                        scoped += 1;
                    }
                    if name == "img" {
                        found.images += 1;
                    }
                    if walk.span.is_none() {
                        walk.open(el, &mut w, &mut found);
                    }
                    continue;
                }
                skipping = Some(Skip {
                    id: node.id(),
                    head: name == "head",
                    removed,
                    inner: None,
                    banner: banner_skip,
                });
            }
            Edge::Close(node) => {
                if let Some(skip) = skipping.as_mut() {
                    if in_title && matches!(node.value(), Node::Element(e) if e.name() == "title") {
                        in_title = false;
                        let t = title.split_whitespace().collect::<Vec<_>>().join(" ");
                        found.title = (!t.is_empty()).then_some(t);
                    }
                    if skip.inner == Some(node.id()) {
                        skip.inner = None;
                    }
                    if skip.banner {
                        banner.closes(node.id());
                    }
                    if skip.id == node.id() {
                        skipping = None;
                        banner = BannerWalk::default();
                    }
                    continue;
                }
                if let Node::Element(e) = node.value() {
                    if scopes(e) {
                        scoped = scoped.saturating_sub(1);
                    }
                    walk.close(e, node.id(), &mut w);
                }
                if lifted.as_ref().is_some_and(|(_, id, _)| *id == node.id()) {
                    if let Some((skip, _, around)) = lifted.take() {
                        scoped -= around;
                        skipping = Some(skip);
                    }
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
        assert_eq!((e.removed, e.boilerplate, e.code_blocks), (1, 0, 0));
    }

    #[test]
    fn scripts_styles_hidden_elements_and_images_are_left_out() {
        let page = "<body><p>seen</p><script>var x = '<p>no</p>';</script><div hidden>no</div>\
            <span style='DISPLAY : none'>no</span><p style='visibility:hidden'>no</p>\
            <noscript>no</noscript><img src=a.png alt='no'><template><p>no</p></template>\
            <p aria-hidden=TRUE>no</p><p aria-hidden=false>kept</p>\
            <p>also seen</p></body>";
        let e = extract(page);
        assert_eq!(e.text, "seen\n\nkept\n\nalso seen");
        assert_eq!((e.removed, e.images), (7, 1));
    }

    #[test]
    fn scripts_and_styles_are_counted_wherever_they_are_but_not_inside_one_another() {
        // The head's script and style; a script and a style inside a hidden block and inside
        // the page's footer; a template whose script is its own content; a nested script deep
        // in the body.
        let page = "<html><head><title>t</title><script>x()</script><style>p{}</style>\
            <meta charset=utf-8></head><body><div hidden><script>a()</script><p><style>b{}</style></p></div>\
            <footer><script>c()</script></footer><template><script>d()</script></template>\
            <div><section><p>text<script>e()</script></p></section></div></body></html>";
        let e = extract(page);
        assert_eq!(e.text, "text");
        // head 2, hidden block 1 + its 2, footer's 1, template 1, body's 1.
        assert_eq!((e.removed, e.boilerplate), (8, 1));
        assert_eq!(e.title.as_deref(), Some("t"));
    }

    #[test]
    fn elements_the_pages_own_style_sheet_hides_are_left_out() {
        let page = "<html><head><style>/* site */ nav, .skip-link { display : NONE }\
            #cookie{visibility:hidden} @media print { main { display: none } }\
            @import url(x.css); div p.note { display: none } a:hover { display: none }\
            div > p.tip { display: none } body { display: none } .shown { display: block }\
            </style></head><body>\
            <nav><a href=/>Home</a> <a href=/docs>Docs</a></nav><a class=skip-link href=#m>Skip</a>\
            <div id=cookie>Accept cookies</div><main><p>Body text.</p>\
            <div><p class=note>a note</p><p class=tip>kept: a child combinator is the reader's</p></div>\
            <p class=note>kept: no div around it</p></main></body></html>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "Body text.\n\nkept: a child combinator is the reader's\n\nkept: no div around it"
        );
        assert_eq!(
            (e.removed, e.boilerplate),
            (5, 0),
            "the style element, nav (hidden, so not counted as boilerplate), the skip link, \
             the banner, the note"
        );
        assert_eq!(
            HidingSelector::parse(" div.menu#top  a "),
            Some(HidingSelector(vec![
                Compound {
                    name: Some("div".into()),
                    classes: vec!["menu".into()],
                    id: Some("top".into())
                },
                Compound {
                    name: Some("a".into()),
                    ..Compound::default()
                }
            ]))
        );
        assert_eq!(HidingSelector::parse("div > p"), None);
        assert_eq!(HidingSelector::parse("a:hover"), None);
        assert_eq!(HidingSelector::parse("#a#b"), None);
        assert_eq!(HidingSelector::parse("  "), None);
        assert_eq!(strip_comments("a/* x */b/* open"), "ab");
    }

    #[test]
    fn page_boilerplate_is_left_out_but_an_articles_header_and_footer_are_kept() {
        let page = "<body><header><a href=/>Site</a></header><div role=navigation>Menu</div>\
            <main><header><h1>Title</h1></header><aside>A note kept.</aside>\
            <article><header>By A. Writer</header><p>Text.</p><footer>Tags: a</footer></article>\
            <nav><ul><li>in-page contents</li></ul></nav></main>\
            <aside>Related</aside><div role=contentinfo>(c)</div><footer>Site footer</footer></body>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "# Title\n\nA note kept.\nBy A. Writer\n\nText.\n\nTags: a"
        );
        assert_eq!((e.boilerplate, e.removed, e.list_items), (6, 0, 0));
    }

    #[test]
    fn the_title_in_a_page_level_header_is_kept_and_the_rest_of_it_left_out() {
        let page = "<body><header><a href=/>Site</a><h1>The <em>article</em> title</h1>\
            <nav><h1>Menu</h1><a href=/a>A</a></nav><h2>Tagline</h2>\
            <div hidden><h1>Hidden</h1></div><h1 aria-hidden=true>Also hidden</h1></header>\
            <p>Text.</p><footer><h1>Footer title</h1></footer>\
            <div role=banner><p>Banner</p><h1>Second title</h1></div><p>End.</p>\
            <header role=navigation><h1>Menu title</h1></header>\
            <header><h1>A<header>B<h1>C</h1></header>D</h1>E</header></body>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "# The article title\n\nText.\n\n# Second title\n\nEnd.\n\n# AD"
        );
        // A header whose role is navigation is a menu; an h1 inside a lifted one (under a
        // header of its own) stays out with that header.
        assert_eq!((e.headings, e.boilerplate), (3, 6));
        // A title inside a section of the header: a footer inside it is the section's, kept
        // as it is without the header around.
        let scoped = "<header><section><h1>T<footer>F</footer></h1></section></header><p>B</p>";
        let bare = "<section><h1>T<footer>F</footer></h1></section><p>B</p>";
        assert_eq!(extract(scoped).text, extract(bare).text);
        assert_eq!(extract(bare).text, "# T\nF\n\nB");
    }

    #[test]
    fn preformatted_text_is_a_fenced_block_that_keeps_its_whitespace() {
        let e = extract("<p>a  b</p><pre>  x\n    y  </pre><p>c</p>");
        assert_eq!(e.text, "a b\n\n```\n  x\n    y\n```\n\nc");
        assert_eq!(e.code_blocks, 1);
    }

    #[test]
    fn code_blocks_keep_their_fences_and_language() {
        let page = "<p>Run it:</p><pre><code class=\"language-rust\">fn main() {\n    println!(\"hi\");\n}\n</code></pre>\
            <pre><code>has ``` inside</code></pre><pre>plain  preformatted</pre><p>after</p>";
        let e = extract(page);
        assert_eq!(
            e.text,
            "Run it:\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n\
             ````\nhas ``` inside\n````\n\n```\nplain  preformatted\n```\n\nafter"
        );
        assert_eq!(e.code_blocks, 3);
    }

    #[test]
    fn a_code_blocks_language_is_read_in_the_forms_documentation_sites_write() {
        let lang = |html: &str| {
            let doc = Html::parse_fragment(html);
            let pre = doc
                .select(&scraper::Selector::parse("pre").expect("selector"))
                .next()
                .expect("a pre");
            code_language(pre)
        };
        let cases = [
            ("<pre><code class='hljs language-rust edition2024'>x</code></pre>", Some("rust")),
            ("<pre class='prettyprint lang-py'>x</pre>", Some("py")),
            ("<div class='highlight highlight-source-shell'><pre>x</pre></div>", Some("shell")),
            ("<div class='highlight-python notranslate'><div class='highlight'><pre>x</pre></div></div>", Some("python")),
            ("<div class='highlight-default'><div class='highlight'><pre>x</pre></div></div>", None),
            ("<pre><code data-lang='go'>x</code></pre>", Some("go")),
            ("<div class='language-ts vp-code'><pre><code>x</code></pre></div>", Some("ts")),
            ("<pre><code class='language-'>x</code></pre>", None),
            ("<pre><code>x</code></pre>", None),
        ];
        for (html, want) in cases {
            assert_eq!(lang(html).as_deref(), want, "{html}");
        }
        let e =
            extract("<div class='highlight highlight-source-shell'><pre>cargo test</pre></div>");
        assert_eq!(e.text, "```shell\ncargo test\n```");
    }

    #[test]
    fn inline_code_is_a_code_span_between_enough_backticks() {
        let e = extract(
            "<p>Call <code>parse()</code>, <code> a\n  b </code>x, <code>a`b</code>, \
             <code>`</code> and <code><a href=#>linked</a><script>no()</script></code><code> </code>end.</p>\
             <h2>The <code>String</code> type</h2>",
        );
        assert_eq!(
            e.text,
            "Call `parse()`, `a b` x, ``a`b``, `` ` `` and `linked` end.\n\n## The `String` type"
        );
        assert_eq!(e.removed, 1);
        assert_eq!(code_span("a `` b"), "```a `` b```");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span(" \n "), "");
    }

    #[test]
    fn broken_html_is_repaired_not_refused() {
        let e = extract("<p>one<p>two</div></span><li>three");
        assert_eq!(e.text, "one\n\ntwo\n\n- three");
        assert_eq!(extract("").text, "");
        assert_eq!(extract("<<<>>>&amp;&bogus;").text, "<<<>>>&&bogus;");
    }
}
