//! Entry point of the page: report panics to the browser console, then mount the app.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(rag_chunk_calculator::App);
}
