//! Writes the prerendered page into a built `index.html`: the file named on the command line,
//! else `index.html` in `$TRUNK_STAGING_DIR` (the folder Trunk gives its `post_build` hooks,
//! see `Trunk.toml`). Beside it, the other languages' message bundles the page's module fetches
//! (`i18n/vi.txt` …, `rag_chunk_calculator::languages`).

use std::path::PathBuf;
use std::process::ExitCode;

use rag_chunk_calculator::i18n::bundle;
use rag_chunk_calculator::languages;

fn main() -> ExitCode {
    let path = match std::env::args_os().nth(1) {
        Some(path) => PathBuf::from(path),
        None => match std::env::var_os("TRUNK_STAGING_DIR") {
            Some(dir) => PathBuf::from(dir).join("index.html"),
            None => {
                eprintln!("prerender: name the built index.html, or run as a Trunk hook (TRUNK_STAGING_DIR)");
                return ExitCode::FAILURE;
            }
        },
    };
    let page = match std::fs::read_to_string(&path) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("prerender: cannot read {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let markup = prerender::wrap(&prerender::render_app());
    let out = match prerender::insert(&page, &markup) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("prerender: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&path, &out) {
        eprintln!("prerender: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!(
        "prerender: {} now holds the page's markup ({} bytes, {} in all)",
        path.display(),
        markup.len(),
        out.len()
    );
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    for lang in bundle::FETCHED {
        let file = dir.join(bundle::file_name(lang));
        let text = languages::write(lang);
        let written = std::fs::create_dir_all(file.parent().unwrap_or(dir))
            .and_then(|()| std::fs::write(&file, &text));
        if let Err(e) = written {
            eprintln!("prerender: cannot write {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
        println!("prerender: {} ({} bytes)", file.display(), text.len());
    }
    ExitCode::SUCCESS
}
