//! Trunk's post-build hook for the page's module (Trunk.toml): the page's wasm, as cargo linked
//! it (with its relocations: the page's `split` feature, build.rs), is split at its split
//! points (`src/panels.rs` and `src/extract_job.rs`, one module named `panels`) by
//! `wasm_split_cli_support`, then each
//! part goes through wasm-bindgen and, for a release build, Binaryen's wasm-opt, and replaces
//! what Trunk staged. Trunk's own wasm-bindgen run over the whole module is overwritten, so the
//! hashed names Trunk wrote into index.html stay valid.
//!
//! Written into `TRUNK_STAGING_DIR`, for the page's module `rag-chunk-calculator-<hash>`:
//! - `rag-chunk-calculator-<hash>.js` and `…_bg.wasm`: the form, the results card, the text box
//!   and the contexts they read (wasm-bindgen's glue and the module);
//! - `split-rag-chunk-calculator-<hash>.js`: the splitter's loader, which the module imports,
//!   and which fetches the panels' module relative to itself;
//! - `panels-rag-chunk-calculator-<hash>_bg.wasm`: the panels' module.
//!
//! Every name carries Trunk's hash of cargo's output (seahash over its bytes), which the hook
//! computes again to check that the module it splits is the one Trunk staged. The files the
//! service worker keeps cache-first by such a name (assets/sw.js) therefore change name with
//! the page's code, though not with the tools: a new splitter, wasm-bindgen or binaryen over
//! the same code gives other bytes under the same names (the tools are pinned: Cargo.lock,
//! scripts/wasm-opt/package-lock.json). index.html names the two new files on the loader's
//! script tag (Trunk.toml's `pattern_script`), for the service worker's install, and preloads
//! the loader (`pattern_preload`).
//!
//! Tools: `wasm-bindgen` on PATH, the version of Cargo.lock (scripts/ensure-tools.sh checks
//! it); wasm-opt is npm's `binaryen` (scripts/wasm-opt/package-lock.json), run with Node.
//!
//! Errors: a missing or ambiguous staged module, cargo's output missing or not the one Trunk
//! staged (another build wrote it since), a module linked without relocations (built without
//! the `split` feature), a split with other modules than `panels`, a failed or missing tool:
//! the hook says which and exits 1, and Trunk fails the build.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The page's binary (Cargo's name, and the prefix of Trunk's hashed names).
const PAGE: &str = "rag-chunk-calculator";
/// The split module's name (`#[wasm_split(panels, …)]` in src/panels.rs), and the file the
/// splitter writes for it.
const SPLIT_MODULE: &str = "panels";
/// Binaryen's features that rustc enables by default for wasm32-unknown-unknown (Rust 1.82 and
/// later): wasm-opt must accept them, and keeps them.
const WASM_OPT_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("page-split: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The hook's environment, from Trunk.
struct Env {
    staging: PathBuf,
    release: bool,
    root: PathBuf,
    target: PathBuf,
}

impl Env {
    fn read() -> Result<Env, String> {
        let staging = std::env::var_os("TRUNK_STAGING_DIR")
            .map(PathBuf::from)
            .ok_or("TRUNK_STAGING_DIR is not set (this program runs as a Trunk hook)")?;
        let release = std::env::var("TRUNK_PROFILE").is_ok_and(|p| p == "release");
        let root = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        Ok(Env {
            staging,
            release,
            root,
            target,
        })
    }

    fn profile(&self) -> &'static str {
        if self.release {
            "release"
        } else {
            "debug"
        }
    }
}

fn run() -> Result<(), String> {
    let env = Env::read()?;
    let stem = staged_stem(&env.staging)?;
    let input_path = env
        .target
        .join("wasm32-unknown-unknown")
        .join(env.profile())
        .join(format!("{PAGE}.wasm"));
    let input = std::fs::read(&input_path).map_err(|e| {
        format!(
            "cannot read the page's module {}: {e}",
            input_path.display()
        )
    })?;
    let built = trunk_hash(&input);
    if stem != format!("{PAGE}-{built}") {
        return Err(format!(
            "{} is not the module Trunk staged as {stem} (its hash is {built}): another build \
             wrote it since; build again",
            input_path.display()
        ));
    }
    if !has_relocations(&input)? {
        return Err(format!(
            "{} has no relocations: build the page with its `split` feature (index.html's \
             data-cargo-features), whose build.rs links with --emit-relocs",
            input_path.display()
        ));
    }

    // One directory per run: two builds at once (the root and the subpath builds compile the
    // same module, so their hashes are equal) do not share one.
    let work = env
        .target
        .join("page-split")
        .join(format!("{stem}-{}", std::process::id()));
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| io_error(&work, e))?;
    }
    std::fs::create_dir_all(&work).map_err(|e| io_error(&work, e))?;
    let link_name = format!("./split-{stem}.js");
    let main_module = format!("./{stem}.js");
    let main_wasm = work.join("main.wasm");
    let split = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&input);
        options.output_dir = &work;
        options.main_out_path = &main_wasm;
        options.link_name = &link_name;
        options.main_module = &main_module;
        options
    })
    .map_err(|e| format!("the split failed: {e:#}"))?;
    let panels_file = work.join(format!("split_{SPLIT_MODULE}.wasm"));
    if split.split_modules != [panels_file.clone()] {
        return Err(format!(
            "expected one split module, {}, found {:?}",
            panels_file.display(),
            split.split_modules
        ));
    }

    // wasm-bindgen over the main part, named as Trunk names it (the crate's name inside the
    // module and its glue; the hashed names on the files).
    let bindgen = work.join("bindgen");
    run_tool(
        Command::new("wasm-bindgen")
            .arg("--target=web")
            .arg("--no-typescript")
            // The function table stays exported: the panels' module imports it (and the
            // memory) to add its functions to the page's.
            .arg("--keep-lld-exports")
            .arg(format!("--out-dir={}", bindgen.display()))
            .arg(format!("--out-name={PAGE}"))
            .arg(&main_wasm),
    )?;
    let snippets = bindgen.join("snippets");
    if snippets.exists() {
        copy_dir(&snippets, &env.staging.join("snippets"))?;
    }
    copy(
        &bindgen.join(format!("{PAGE}.js")),
        &env.staging.join(format!("{stem}.js")),
    )?;

    // The two modules, optimized for size in a release build.
    let main_out = env.staging.join(format!("{stem}_bg.wasm"));
    let panels_name = format!("{SPLIT_MODULE}-{stem}_bg.wasm");
    let panels_out = env.staging.join(&panels_name);
    for (from, to) in [
        (bindgen.join(format!("{PAGE}_bg.wasm")), &main_out),
        (panels_file, &panels_out),
    ] {
        if env.release {
            wasm_opt(&env.root, &from, to)?;
        } else {
            copy(&from, to)?;
        }
    }

    // The loader, fetching the panels' module under its staged name.
    let loader_in = work.join(&link_name);
    let loader = std::fs::read_to_string(&loader_in).map_err(|e| io_error(&loader_in, e))?;
    let loader = rename_fetch(
        &loader,
        &format!("\"./split_{SPLIT_MODULE}.wasm\""),
        &format!("\"./{panels_name}\""),
    )?;
    let loader_out = env.staging.join(format!("split-{stem}.js"));
    std::fs::write(&loader_out, loader).map_err(|e| io_error(&loader_out, e))?;

    for file in [&main_out, &panels_out, &loader_out] {
        let size = std::fs::metadata(file)
            .map_err(|e| io_error(file, e))?
            .len();
        println!("page-split: {} {size} bytes", file.display());
    }
    // Kept only when a step failed, to look into.
    std::fs::remove_dir_all(&work).map_err(|e| io_error(&work, e))
}

/// `rag-chunk-calculator-<hash>`: the stem of the one page module Trunk staged.
fn staged_stem(staging: &Path) -> Result<String, String> {
    let prefix = format!("{PAGE}-");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(staging).map_err(|e| io_error(staging, e))? {
        let name = entry
            .map_err(|e| io_error(staging, e))?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(stem) = name.strip_suffix("_bg.wasm") {
            if stem.starts_with(&prefix) {
                found.push(stem.to_string());
            }
        }
    }
    match found.as_slice() {
        [stem] => Ok(stem.clone()),
        _ => Err(format!(
            "expected one staged page module {prefix}<hash>_bg.wasm in {}, found {found:?}",
            staging.display()
        )),
    }
}

/// Trunk's cache-busting hash of a file (trunk 0.21 `hashed`: seahash's `SeaHasher` over its
/// bytes, in lowercase hex without leading zeros).
fn trunk_hash(bytes: &[u8]) -> String {
    use std::hash::Hasher;
    let mut hasher = seahash::SeaHasher::new();
    hasher.write(bytes);
    format!("{:x}", hasher.finish())
}

/// Whether `wasm` holds the linker's relocations (`reloc.*` custom sections).
fn has_relocations(wasm: &[u8]) -> Result<bool, String> {
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| format!("the page's module does not parse: {e}"))?;
        if let wasmparser::Payload::CustomSection(section) = payload {
            if section.name().starts_with("reloc.") {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// `loader` with its one `from` (the panels' file name, a JS string) replaced by `to`.
fn rename_fetch(loader: &str, from: &str, to: &str) -> Result<String, String> {
    match loader.matches(from).count() {
        1 => Ok(loader.replace(from, to)),
        n => Err(format!(
            "the split's loader names {from} {n} times, expected once"
        )),
    }
}

/// Binaryen's wasm-opt, for size, without names or debug information.
fn wasm_opt(root: &Path, from: &Path, to: &Path) -> Result<(), String> {
    let tool = root.join("scripts/wasm-opt/node_modules/binaryen/bin/wasm-opt");
    if !tool.exists() {
        return Err(format!(
            "{} is missing: run scripts/ensure-tools.sh serve (make build does)",
            tool.display()
        ));
    }
    run_tool(
        Command::new("node")
            .arg(tool)
            .arg("-Oz")
            .arg("--strip-debug")
            .args(WASM_OPT_FEATURES)
            .arg(from)
            .arg("-o")
            .arg(to),
    )
}

fn run_tool(command: &mut Command) -> Result<(), String> {
    let name = command.get_program().to_string_lossy().into_owned();
    let status = command.status().map_err(|e| {
        format!("cannot run {name}: {e} (scripts/ensure-tools.sh serve installs the tools)")
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status}): {command:?}"))
    }
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| io_error(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| io_error(from, e))? {
        let entry = entry.map_err(|e| io_error(from, e))?;
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &dest)?;
        } else {
            copy(&path, &dest)?;
        }
    }
    Ok(())
}

fn io_error(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_fetches_the_staged_name_once() {
        let loader = "const a = fetch(new URL(\"./split_panels.wasm\", import.meta.url));";
        assert_eq!(
            rename_fetch(loader, "\"./split_panels.wasm\"", "\"./panels-x_bg.wasm\"").unwrap(),
            "const a = fetch(new URL(\"./panels-x_bg.wasm\", import.meta.url));"
        );
        assert!(rename_fetch("", "\"./split_panels.wasm\"", "x").is_err());
        assert!(rename_fetch(
            "\"./split_panels.wasm\" \"./split_panels.wasm\"",
            "\"./split_panels.wasm\"",
            "x"
        )
        .is_err());
    }

    #[test]
    fn the_hash_is_trunks() {
        // Trunk names a file by `format!("{:x}", SeaHasher::finish())` over its bytes, written
        // through `io::copy`; seahash's streaming hasher gives the same as one write.
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut streamed = seahash::SeaHasher::new();
        for chunk in bytes.chunks(8192) {
            std::hash::Hasher::write(&mut streamed, chunk);
        }
        assert_eq!(
            trunk_hash(&bytes),
            format!("{:x}", std::hash::Hasher::finish(&streamed))
        );
        assert_eq!(trunk_hash(b""), format!("{:x}", seahash::hash(b"")));
    }

    #[test]
    fn a_module_without_relocations_is_told_apart() {
        // The smallest module: the magic number and version 1.
        let bare = b"\0asm\x01\0\0\0";
        assert!(!has_relocations(bare).unwrap());
        // With a custom section `reloc.CODE` (empty payload).
        let mut with = bare.to_vec();
        with.extend_from_slice(&[0, 11, 10]);
        with.extend_from_slice(b"reloc.CODE");
        assert!(has_relocations(&with).unwrap());
        assert!(has_relocations(b"not wasm").is_err());
    }
}
