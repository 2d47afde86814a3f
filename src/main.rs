//! Entry point of the page: report panics to the browser console, then mount the app over the
//! prerendered markup.

fn main() {
    console_error_panic_hook::set_once();
    rag_chunk_calculator::prerendered::mount();
}
