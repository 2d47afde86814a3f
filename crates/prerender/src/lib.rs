//! The page's first paint without its wasm: the app's `App`, rendered natively in the default
//! language (English) at build time, written into the built `index.html`'s `<body>`. The
//! markup comes from the same components as the live page, so its text comes from the same
//! message catalogs; nothing of it is written twice.
//!
//! What a visitor sees until the app starts: the whole page as it opens (title, tagline,
//! settings form, the empty text box, the simulator on its default document, the FAQ), links
//! and the FAQ's `<details>` working. Its form controls are disabled in the markup (the wrapper
//! is a disabled `<fieldset>`), for a browser without JavaScript; `assets/boot.js` enables them
//! as soon as scripts run, and the app takes over what a visitor typed, picked or dropped
//! there (`rag_chunk_calculator::prerendered`). When the wasm has started, `rag_chunk_calculator::prerendered::mount`
//! mounts the live app and removes this markup in the same task, so no frame shows both.
//!
//! Trunk runs the binary after every build (`[[hooks]]` in `Trunk.toml`, stage `post_build`)
//! on the staged `index.html`.

use leptos::prelude::*;
use rag_chunk_calculator::i18n::{self, Key, Lang};
use rag_chunk_calculator::prerendered::CONTAINER_ID;

/// An executor that never runs what it is given: effects and spawned tasks are the live page's
/// work (workers, timers, the document's title), none of which belongs in the markup.
struct Idle;

impl any_spawner::CustomExecutor for Idle {
    fn spawn(&self, _: any_spawner::PinnedFuture<()>) {}
    fn spawn_local(&self, _: any_spawner::PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

/// The page's markup as the app first renders it natively: English (a native build has no
/// saved or browser language), the default settings, no text.
pub fn render_app() -> String {
    // Set once for the process; a second call finds it set, which is as good.
    let _ = any_spawner::Executor::init_custom_executor(Idle);
    let owner = Owner::new();
    // Untracked, as a mount is: the render reads every signal once and subscribes to none.
    owner.with(|| untrack(|| view! { <rag_chunk_calculator::App/> }.to_html()))
}

/// `app` wrapped for the takeover: the container the live app removes, a `<fieldset>` whose
/// `disabled` switches off every form control inside it until then (with no script), without
/// the role of a group (`role="none"`). First in it, hidden, the English notice that
/// `assets/boot.js` shows when the page's module cannot start ([`BOOT_FAILED_ID`]), so that a
/// page that will never work does not look as if it were about to.
pub fn wrap(app: &str) -> String {
    let notice = escape(i18n::text(Lang::En, Key::BootFailed));
    let waiting = escape(i18n::text(Lang::En, Key::BootWaiting));
    format!(
        r#"<fieldset id="{CONTAINER_ID}" role="none" disabled><p id="{BOOT_FAILED_ID}" class="notice" role="alert" hidden>{notice}</p><p id="{BOOT_WAITING_ID}" class="notice" role="status" hidden>{waiting}</p>{app}</fieldset>"#
    )
}

/// The `id` of the notice [`wrap`] writes that `assets/boot.js` shows when a visitor edits the
/// form before the app has started: what they type is kept (`src/prerendered.rs`).
pub const BOOT_WAITING_ID: &str = "boot-waiting";

/// The `id` of the notice [`wrap`] writes, which `assets/boot.js` shows.
pub const BOOT_FAILED_ID: &str = "boot-failed";

/// `text` with the characters HTML gives a meaning to written as references.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Why a built `index.html` cannot take the markup.
#[derive(Debug, PartialEq, Eq)]
pub enum InsertError {
    /// It has no `</body>`.
    NoBody,
    /// It holds the container already (the tool ran twice on it).
    AlreadyThere,
}

impl std::fmt::Display for InsertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoBody => write!(f, "index.html has no </body>"),
            Self::AlreadyThere => write!(f, "index.html holds #{CONTAINER_ID} already"),
        }
    }
}

impl std::error::Error for InsertError {}

/// `index_html` with `markup` as the last thing in its `<body>` (after the `<noscript>`, before
/// the live app, which mounts after it). The head, and with it the Content-Security-Policy, is
/// left as it is.
pub fn insert(index_html: &str, markup: &str) -> Result<String, InsertError> {
    if index_html.contains(&format!(r#"id="{CONTAINER_ID}""#)) {
        return Err(InsertError::AlreadyThere);
    }
    let end = index_html.rfind("</body>").ok_or(InsertError::NoBody)?;
    let (before, after) = index_html.split_at(end);
    Ok(format!("{before}{markup}\n  {after}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markup_goes_last_in_the_body_once() {
        let page = "<html><head><title>t</title></head><body><noscript>n</noscript></body></html>";
        let out = insert(page, &wrap("<main>x</main>")).unwrap();
        let notice = i18n::text(Lang::En, Key::BootFailed);
        let waiting = i18n::text(Lang::En, Key::BootWaiting);
        for text in [notice, waiting] {
            assert!(
                !text.contains(['<', '>', '&', '"']),
                "escape() untested by {text:?}"
            );
        }
        assert_eq!(
            out,
            format!(
                r#"<html><head><title>t</title></head><body><noscript>n</noscript><fieldset id="{CONTAINER_ID}" role="none" disabled><p id="{BOOT_FAILED_ID}" class="notice" role="alert" hidden>{notice}</p><p id="{BOOT_WAITING_ID}" class="notice" role="status" hidden>{waiting}</p><main>x</main></fieldset>
  </body></html>"#
            )
        );
        assert_eq!(insert(&out, "y"), Err(InsertError::AlreadyThere));
        assert_eq!(insert("<p>no body</p>", "y"), Err(InsertError::NoBody));
    }

    #[test]
    fn escaped_text_reads_as_the_text() {
        assert_eq!(
            escape(r#"a < b & "c" > d"#),
            "a &lt; b &amp; &quot;c&quot; &gt; d"
        );
        assert_eq!(escape("“quoted” — fine"), "“quoted” — fine");
    }
}
