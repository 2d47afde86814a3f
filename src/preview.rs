//! The chunk preview: the tokenized text cut into the same fixed windows as the formula, each
//! chunk with its token range, byte range, and its overlap with the previous chunk
//! highlighted. A window edge inside a multi-byte character is shown as the bytes on each side
//! (e.g. ‹E7 8C›), never as an invented replacement character. The spans (ranges, shared
//! tokens, where the fresh part starts) are `chunk_core::windows::window_spans`; this module
//! only caps what is shown and renders.
//!
//! Only the first [`PAGE`] chunks are rendered, then [`PAGE`] more per "show more" click, so a
//! 1 MB text with thousands of chunks stays smooth.

use crate::i18n::args as page_msg;
use std::sync::Arc;

use chunk_core::text_view::{segments, Segment};
use chunk_core::windows::{fixed_windows, window_spans, WindowSpan};
use leptos::prelude::*;

use crate::format;
use crate::i18n::{Key, Lang};
use crate::state::{Derived, Language, SourceText, Tokenization, Tokenized};

/// Chunks rendered at first and added per "show more".
pub const PAGE: usize = 20;
/// Most bytes of one chunk displayed; the rest is counted, not shown (a 100,000-token chunk
/// would otherwise put megabytes into the page). 8 KiB shows the whole of a usual chunk (512
/// tokens of prose are 2–3 KB); at 24 KiB, 20 chunks of long tokens (a 10 MB run of spaces:
/// 64 KB per chunk) cost one 100 ms layout task in Chromium.
pub const MAX_SHOWN_BYTES: usize = 8 * 1024;
/// Most lines of one chunk displayed: a chunk of thousands of line breaks costs the browser
/// seconds of layout even when it is only a few kilobytes.
pub const MAX_SHOWN_LINES: usize = 200;

/// The display end of a chunk `[b0, b1)` of `text`: at most [`MAX_SHOWN_BYTES`] (cut at a char
/// boundary, but never before `keep`) and at most [`MAX_SHOWN_LINES`] lines.
pub fn shown_end(text: &str, b0: usize, b1: usize, keep: usize) -> usize {
    let by_bytes = if b1 - b0 > MAX_SHOWN_BYTES {
        floor_boundary(text, b0 + MAX_SHOWN_BYTES).max(keep.min(b1))
    } else {
        b1
    };
    let by_lines = text.as_bytes()[b0..by_bytes]
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(MAX_SHOWN_LINES - 1)
        .map_or(by_bytes, |(i, _)| b0 + i + 1);
    by_bytes.min(by_lines)
}

/// The largest char boundary of `text` at or below `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary of `text` at or above `at`.
fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Hex of bytes as the page shows a cut character: `‹E7 8C›`.
pub fn hex_bytes(bytes: &[u8]) -> String {
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    format!("‹{}›", hex.join(" "))
}

/// A button, visible only while it has the keyboard focus, that moves the focus past a list of
/// chunks to the heading `target` (each chunk card scrolls, so each is a tab stop of its own:
/// without it a keyboard user tabs through every card).
#[component]
pub fn SkipChunks(
    /// The id of the heading after the list.
    target: &'static str,
) -> impl IntoView {
    let lang = expect_context::<Language>();
    view! {
        <button
            type="button"
            class="skip-link"
            data-testid="skip-chunks"
            on:click=move |_| crate::browser::focus_element(target)
        >
            {move || lang.t(Key::SkipChunks)}
        </button>
    }
}

/// The chunk preview panel.
#[component]
pub fn Preview() -> impl IntoView {
    let lang = expect_context::<Language>();
    let tokenization = expect_context::<Tokenization>();
    let derived = expect_context::<Derived>();
    // How many chunks are rendered; a signal because the "show more" button changes it.
    let (shown, set_shown) = signal(PAGE);

    // The windows over the current tokenization. A Memo: recomputing them (and comparing) is
    // cheap next to re-rendering chunks, and unrelated changes (language, price) must not
    // rebuild the chunk list.
    let windows = Memo::new(move |_| {
        let input = derived.checked.with(|c| c.input)?;
        let n = tokenization
            .tokenized
            .with(|t| t.as_ref().map(|t| t.tokens()))?;
        let size = usize::try_from(input.chunk_size).ok()?;
        let overlap = usize::try_from(input.chunk_overlap).unwrap_or(usize::MAX);
        fixed_windows(n, size, overlap).map(|f| f.windows)
    });
    // Back to the first page whenever the cut changes.
    Effect::new(move |_| {
        windows.track();
        set_shown.set(PAGE);
    });

    let body = move || {
        let Some(tok) = tokenization.tokenized.get() else {
            return view! { <p class="empty" data-testid="preview-empty">{lang.t(Key::PreviewEmpty)}</p> }
                .into_any();
        };
        let Some(ws) = windows.get() else {
            return view! { <p class="empty">{lang.t(Key::ErrFixFields)}</p> }.into_any();
        };
        let spans = window_spans(&tok.offsets, &ws);
        let total = spans.len();
        let limit = shown.get().min(total);
        let l = lang.get();
        let items = spans[..limit]
            .iter()
            .map(|s| view! { <ChunkView span=*s tok=tok.clone()/> })
            .collect_view();
        let more = (limit < total).then(|| {
            let n = PAGE.min(total - limit);
            view! {
                <div class="more">
                    <p>
                        {lang.tf(page_msg::ShowingOf { shown: &format::int(l, limit as u128), total: &format::int(l, total as u128) })}
                    </p>
                    <button
                        type="button"
                        class="button"
                        data-testid="show-more"
                        on:click=move |_| set_shown.update(|s| *s += PAGE)
                    >
                        {lang.tf(page_msg::ShowMore { n: &format::int(l, n as u128) })}
                    </button>
                </div>
            }
        });
        view! {
            <ol class="chunks" data-count=total.to_string()>{items}</ol>
            {more}
        }
        .into_any()
    };

    view! {
        <section
            class="panel preview"
            aria-labelledby="preview-heading"
            data-testid="chunk-preview"
            class:stale=move || !derived.ready.get()
        >
            <h2 id="preview-heading">{move || lang.t(Key::PreviewHeading)}</h2>
            <SkipChunks target="ab-heading"/>
            <p class="intro">{move || lang.t(Key::PreviewIntro)}</p>
            <p class="legend">
                <mark class="overlap">"abc"</mark>
                " "
                {move || lang.t(Key::LegendOverlap)}
                <span class="sep">" · "</span>
                <span class="partial">"‹E7 8C›"</span>
                " "
                {move || lang.t(Key::LegendBytes)}
            </p>
            {body}
        </section>
    }
}

/// One chunk: header with its ranges, then its text with the shared part highlighted.
#[component]
fn ChunkView(span: WindowSpan, tok: Arc<Tokenized>) -> impl IntoView {
    // Built once per render of the list (the list re-renders on a language change), so the
    // language is read without subscribing.
    let lang = expect_context::<Language>().lang.get_untracked();
    // A PDF's pages, when this tokenization is of the text they belong to (the pages are
    // written with the text; a tokenization of an older text has none).
    let source = expect_context::<SourceText>();
    let pages = source
        .pages
        .get_untracked()
        .filter(|_| source.text.with_untracked(|t| Arc::ptr_eq(t, &tok.text)))
        .map(|p| p.pages_of(&(span.bytes.0..span.bytes.1)));
    let n = |x: usize| format::int(lang, x as u128);
    let (b0, b1) = span.bytes;
    let text: &str = &tok.text;
    // Display cap: cut at a char boundary so the cap never looks like a window edge.
    let shown_end = shown_end(text, b0, b1, span.fresh_from);
    // The highlight ends at the first char boundary at or after the shared tokens, so a
    // character split between shared and fresh tokens shows whole (it is not a window edge);
    // the chunk's own edges are still cut at the exact byte.
    let shared_end = if span.overlap_tokens == 0 {
        b0
    } else {
        ceil_boundary(text, span.fresh_from).clamp(b0, shown_end)
    };
    let shared = render_segments(lang, text, b0, shared_end);
    let fresh = render_segments(lang, text, shared_end, shown_end);
    let hidden = b1 - shown_end;
    // Numbered from 0 with inclusive ranges, as in the simulator (SPEC §4's "chunk #2 holds
    // tokens 80–139"); data-* attributes keep half-open ranges for tools.
    let title = page_msg::ChunkTitle { n: &n(span.index) }.fill(lang);
    let label = title.clone();
    let tokens = page_msg::ChunkTokens {
        start: &n(span.window.start),
        end: &n(span.window.end.saturating_sub(1)),
    }
    .fill(lang);
    let bytes = page_msg::ChunkBytes {
        start: &n(b0),
        end: &n(b1.saturating_sub(1)),
    }
    .fill(lang);
    let overlap = (span.overlap_tokens > 0).then(|| {
        page_msg::ChunkOverlap {
            n: &n(span.overlap_tokens),
        }
        .fill(lang)
    });
    // A fixed window ends at the size limit, the last one at the end of the text (the names
    // of the strategies' `Boundary`, as `data-reason` of every strategy's chunks).
    let reason = if span.window.end >= tok.tokens() {
        chunk_core::strategy::Boundary::EndOfText.as_str()
    } else {
        chunk_core::strategy::Boundary::SizeLimit.as_str()
    };
    view! {
        <li
            class="chunk"
            data-testid="chunk"
            data-index=span.index.to_string()
            data-start=span.window.start.to_string()
            data-end=span.window.end.to_string()
            data-byte-start=b0.to_string()
            data-byte-end=b1.to_string()
            data-overlap=span.overlap_tokens.to_string()
            data-tokens=span.window.end - span.window.start
            data-reason=reason
            data-page-start=pages.map(|p| p.0)
            data-page-end=pages.map(|p| p.1)
        >
            <header class="chunk-head">
                <strong>{title}</strong>
                <span>{tokens}</span>
                <span>{bytes}</span>
                {pages.map(|(first, last)| view! {
                    <span class="chunk-pages" data-testid="chunk-pages">
                        {crate::format::chunk_pages(lang, first, last)}
                    </span>
                })}
                {overlap.map(|o| view! { <span class="chunk-overlap">{o}</span> })}
            </header>
            // The text scrolls inside its card, so the card is focusable (a keyboard scrolls
            // it) and named; `SkipChunks` goes past them all.
            <pre class="chunk-text" tabindex="0" role="region" aria-label=label>
                <span class="cut" aria-hidden="true"></span>
                {(shared_end > b0).then(|| view! { <mark class="overlap">{shared}</mark> })}
                {fresh}
                {(hidden == 0).then(|| view! { <span class="cut" aria-hidden="true"></span> })}
            </pre>
            {(hidden > 0).then(|| view! {
                <p class="truncated">{page_msg::ChunkTruncated { n: &n(hidden) }.fill(lang)}</p>
            })}
        </li>
    }
}

/// Renders bytes `[start, end)` of `text`: whole characters as text, a character cut by the
/// range's edge as its bytes in hex with a tooltip naming the whole character.
pub(crate) fn render_segments(lang: Lang, text: &str, start: usize, end: usize) -> AnyView {
    if start >= end {
        return ().into_any();
    }
    segments(text, start, end)
        .into_iter()
        .map(|seg| match seg {
            Segment::Text(t) => t.into_any(),
            Segment::PartialChar { bytes, whole, .. } => {
                let title = page_msg::PartialTitle {
                    n: &bytes.len().to_string(),
                    total: &whole.len_utf8().to_string(),
                    ch: &whole.to_string(),
                    code: &format!("U+{:04X}", u32::from(whole)),
                }
                .fill(lang);
                view! { <span class="partial" title=title>{hex_bytes(&bytes)}</span> }.into_any()
            }
        })
        .collect_view()
        .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_capped_by_bytes_and_by_lines() {
        let short = "a\nb\n";
        assert_eq!(shown_end(short, 0, short.len(), 0), short.len());
        let lines = "x\n".repeat(1000);
        assert_eq!(shown_end(&lines, 0, lines.len(), 0), 2 * MAX_SHOWN_LINES);
        assert_eq!(
            shown_end(&lines, 10, lines.len(), 10),
            10 + 2 * MAX_SHOWN_LINES
        );
        let cats = "猫".repeat(MAX_SHOWN_BYTES);
        let end = shown_end(&cats, 0, cats.len(), 0);
        assert!(end <= MAX_SHOWN_BYTES && cats.is_char_boundary(end) && end > MAX_SHOWN_BYTES - 3);
    }

    #[test]
    fn hex_and_boundaries() {
        assert_eq!(hex_bytes(&[0xE7, 0x8C]), "‹E7 8C›");
        assert_eq!(floor_boundary("a猫", 2), 1);
        assert_eq!(floor_boundary("a猫", 4), 4);
        assert_eq!(floor_boundary("a猫", 99), 4);
        assert_eq!(ceil_boundary("a猫", 2), 4);
        assert_eq!(ceil_boundary("a猫", 1), 1);
    }
}
