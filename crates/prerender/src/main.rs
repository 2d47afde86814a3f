//! Writes the prerendered page into a built `index.html`: the file named on the command line,
//! else `index.html` in `$TRUNK_STAGING_DIR` (the folder Trunk gives its `post_build` hooks,
//! see `Trunk.toml`).

use std::path::PathBuf;
use std::process::ExitCode;

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
    ExitCode::SUCCESS
}
