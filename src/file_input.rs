//! The text source: a paste box, a file picker and drag-and-drop of `.txt` / `.md` files (read
//! on this device only), the tokenizer status and the special-token notice.

use std::sync::Arc;

use leptos::html::Textarea;
use leptos::prelude::*;

use crate::format;
use crate::i18n::Key;
use crate::state::{AppState, Progress};

/// Largest file accepted, in bytes (10 MB): far above any document worth previewing chunk by
/// chunk, and small enough that reading and tokenizing it stays quick.
pub const MAX_FILE_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

/// Why a file was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// Not named `.txt` or `.md`.
    WrongType,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// Not valid UTF-8.
    NotUtf8,
    /// The browser could not read it.
    Unreadable,
}

/// Checks a file's name and size before reading it: only `.txt` and `.md` (any case) up to
/// [`MAX_FILE_BYTES`].
pub fn precheck_file(name: &str, size_bytes: f64) -> Result<(), FileProblem> {
    let lower = name.to_ascii_lowercase();
    if !(lower.ends_with(".txt") || lower.ends_with(".md")) {
        Err(FileProblem::WrongType)
    } else if size_bytes > MAX_FILE_BYTES {
        Err(FileProblem::TooLarge)
    } else {
        Ok(())
    }
}

/// Decodes a file's bytes as UTF-8, refusing invalid bytes rather than replacing them (the
/// page never shows invented U+FFFD characters).
pub fn decode_file(bytes: Vec<u8>) -> Result<String, FileProblem> {
    String::from_utf8(bytes).map_err(|_| FileProblem::NotUtf8)
}

/// A message about the last file, shown under the box.
#[derive(Clone, Debug, PartialEq)]
enum FileMessage {
    Loaded(String),
    Problem(String, FileProblem),
}

/// Paste box, file open / drop, status and special-token notice.
#[component]
pub fn TextSource() -> impl IntoView {
    let state = expect_context::<AppState>();
    // A NodeRef, because a loaded file or "clear" must write the box directly: the box is not
    // bound to the `text` signal (rewriting a 1 MB textarea on every keystroke would be slow
    // and would move the caret).
    let textarea = NodeRef::<Textarea>::new();
    let (message, set_message) = signal(None::<FileMessage>);
    let (dragging, set_dragging) = signal(false);

    let set_text = move |s: String| {
        if let Some(el) = textarea.get_untracked() {
            el.set_value(&s);
        }
        state.text.set(Arc::from(s));
    };
    let load = move |file: web_sys::File| {
        let name = file.name();
        if let Err(p) = precheck_file(&name, file.size()) {
            set_message.set(Some(FileMessage::Problem(name, p)));
            return;
        }
        leptos::task::spawn_local(async move {
            let result = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buf) => decode_file(js_sys::Uint8Array::new(&buf).to_vec()),
                Err(_) => Err(FileProblem::Unreadable),
            };
            match result {
                Ok(s) => {
                    set_text(s);
                    set_message.set(Some(FileMessage::Loaded(name)));
                }
                Err(p) => set_message.set(Some(FileMessage::Problem(name, p))),
            }
        });
    };
    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            load(file);
        }
        // Allow opening the same file again later.
        input.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            load(file);
        }
    };
    let on_dragover = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };

    let message_view = move || {
        message.get().map(|m| {
            let (class, text) = match m {
                FileMessage::Loaded(name) => {
                    ("file-msg ok", state.tf(Key::FileLoaded, &[("name", &name)]))
                }
                FileMessage::Problem(name, p) => {
                    let key = match p {
                        FileProblem::WrongType => Key::FileWrongType,
                        FileProblem::TooLarge => Key::FileTooLarge,
                        FileProblem::NotUtf8 => Key::FileNotUtf8,
                        FileProblem::Unreadable => Key::FileReadError,
                    };
                    let max = format::int(state.lang.get(), (MAX_FILE_BYTES / 1_048_576.0) as u128);
                    (
                        "file-msg error",
                        state.tf(key, &[("name", &name), ("max", &max)]),
                    )
                }
            };
            view! { <p class=class role="status" data-testid="file-message">{text}</p> }
        })
    };

    view! {
        <section class="panel text-source" aria-labelledby="text-heading">
            <h2 id="text-heading">{move || state.t(Key::TextHeading)}</h2>
            <label for="text-input">{move || state.t(Key::TextLabel)}</label>
            <textarea
                id="text-input"
                data-testid="text-input"
                class:dragging=dragging
                rows="10"
                spellcheck="false"
                placeholder=move || state.t(Key::TextPlaceholder)
                node_ref=textarea
                on:input=move |ev| state.text.set(Arc::from(event_target_value(&ev)))
                on:dragover=on_dragover
                on:dragleave=move |_| set_dragging.set(false)
                on:drop=on_drop
            ></textarea>
            <div class="text-actions">
                <label class="button file-button">
                    {move || state.t(Key::OpenFile)}
                    <input
                        type="file"
                        class="visually-hidden"
                        data-testid="file-input"
                        accept=".txt,.md,text/plain,text/markdown"
                        on:change=on_file
                    />
                </label>
                <span class="hint">{move || state.t(Key::DropHint)}</span>
                <button
                    type="button"
                    class="button secondary"
                    data-testid="clear-text"
                    on:click=move |_| {
                        set_text(String::new());
                        set_message.set(None);
                    }
                >
                    {move || state.t(Key::ClearText)}
                </button>
            </div>
            {message_view}
            <Status/>
            <SpecialTokens/>
        </section>
    }
}

/// The tokenizer status: `data-state` is "tokenizing" while counting and "ready" once the
/// figures describe the current text (or there is no text).
#[component]
fn Status() -> impl IntoView {
    let state = expect_context::<AppState>();
    let ready = move || state.is_ready();
    let label = move || {
        let lang = state.lang.get();
        if !ready() {
            let fraction = match state.progress.get() {
                Progress::Running { done, total } if total > 0 => done as f64 / total as f64,
                _ => 0.0,
            };
            return state.tf(
                Key::StatusTokenizing,
                &[("percent", &format::percent_whole(lang, fraction))],
            );
        }
        if state.text.with(|t| t.is_empty()) {
            return state.t(Key::StatusNoText).into();
        }
        state.tokenized.with(|t| match t {
            Some(t) => state.tf(
                Key::StatusReady,
                &[
                    ("tokens", &format::int(lang, t.encoded.len() as u128)),
                    ("chars", &format::int(lang, t.chars)),
                    ("bytes", &format::int(lang, t.text.len() as u128)),
                    ("encoding", t.encoding.name()),
                ],
            ),
            None => String::new(),
        })
    };
    let progress_value = move || match state.progress.get() {
        Progress::Running { done, total } if total > 0 => done as f64 / total as f64,
        _ => 0.0,
    };
    view! {
        <div
            class="status"
            data-testid="status"
            data-state=move || if ready() { "ready" } else { "tokenizing" }
            role="status"
            aria-live="polite"
        >
            {move || (!ready()).then(|| view! { <progress max="1" value=progress_value></progress> })}
            <span>{label}</span>
        </div>
    }
}

/// Always says that special-token strings count as ordinary text; lists them when present.
#[component]
fn SpecialTokens() -> impl IntoView {
    let state = expect_context::<AppState>();
    let found = move || {
        state.tokenized.with(|t| {
            let t = t.as_ref()?;
            if t.specials.is_empty() {
                return None;
            }
            let mut names: Vec<(&str, usize)> = Vec::new();
            for (_, s) in &t.specials {
                match names.iter_mut().find(|(n, _)| n == s) {
                    Some((_, c)) => *c += 1,
                    None => names.push((s, 1)),
                }
            }
            let list = names
                .iter()
                .map(|(n, c)| format!("{n} ×{c}"))
                .collect::<Vec<_>>()
                .join(", ");
            Some(view! {
                <p
                    class="notice warn"
                    data-testid="notice-special-tokens"
                    data-count=t.specials.len().to_string()
                >
                    {state.tf(Key::SpecialFound, &[("list", &list)])}
                </p>
            })
        })
    };
    view! {
        {found}
        <p class="field-note">{move || state.t(Key::SpecialNote)}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_small_text_and_markdown_files_are_accepted() {
        assert_eq!(precheck_file("notes.txt", 10.0), Ok(()));
        assert_eq!(precheck_file("README.MD", 10.0), Ok(()));
        assert_eq!(precheck_file("a.pdf", 10.0), Err(FileProblem::WrongType));
        assert_eq!(precheck_file("txt", 10.0), Err(FileProblem::WrongType));
        assert_eq!(
            precheck_file("big.txt", MAX_FILE_BYTES + 1.0),
            Err(FileProblem::TooLarge)
        );
    }

    #[test]
    fn invalid_utf8_is_refused_not_replaced() {
        assert_eq!(
            decode_file("Mèo 猫".as_bytes().to_vec()),
            Ok("Mèo 猫".into())
        );
        assert_eq!(
            decode_file(vec![b'a', 0xE7, 0x8C]),
            Err(FileProblem::NotUtf8)
        );
    }
}
