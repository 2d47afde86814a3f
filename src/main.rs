//! Entry point of the page: report panics to the browser console, then mount the app.

fn main() {
    console_error_panic_hook::set_once();
    // The tokenizer's Web Worker starts this same module; it has no document to mount into.
    if rag_chunk_calculator::tokenize_worker::in_worker() {
        return;
    }
    leptos::mount::mount_to_body(rag_chunk_calculator::App);
}
