//! Writes the site's model files into a build: `models/all-minilm-l6-v2.int8.safetensors`
//! and the static model's `models/potion-base-8m.int8.safetensors` with its vocabulary
//! (`models/potion-base-8m.vocab.txt`)
//! (`embed_core::site::file_path`) under the folder named on the command line, else under
//! `$TRUNK_STAGING_DIR` (run as Trunk's `post_build` hook, see `Trunk.toml`), from the model
//! folder `scripts/ensure-models.sh` makes ready: `$EMBED_MODELS_DIR/all-minilm-l6-v2/`, by
//! default `target/models/all-minilm-l6-v2/` of this workspace.
//!
//! `--fp32` writes the same layout with the published fp32 weights instead
//! (`models/all-minilm-l6-v2.fp32.safetensors`), for `bench/embed.mjs`; the page never has it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use embed_core::folder::{ModelFolder, StaticFolder};
use embed_core::site;

/// The page's model id, and the model folder's name under the models' folder.
const MODEL: &str = "all-minilm-l6-v2";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("site_model: {why}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let fp32 = args.iter().any(|a| a == "--fp32");
    args.retain(|a| a != "--fp32");
    let out = args
        .first()
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from))
        .ok_or("name the build's folder, or run as a Trunk hook (TRUNK_STAGING_DIR)")?;
    let models = std::env::var_os("EMBED_MODELS_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models"));
    let dir = models.join(MODEL);
    if !dir.join("model.safetensors").is_file() {
        return Err(format!(
            "{} has no model.safetensors: run scripts/ensure-models.sh first (make build, \
             make serve and make test do)",
            dir.display()
        ));
    }
    let folder = ModelFolder::read(&dir).map_err(|e| e.to_string())?;
    let files = folder.files();
    let (bytes, file) = if fp32 {
        (
            site::write_fp32(MODEL, files),
            format!("models/{MODEL}.fp32.safetensors"),
        )
    } else {
        (site::write_int8(MODEL, files), site::file_path(MODEL))
    };
    let bytes = bytes.map_err(|e| format!("{}: {e}", dir.display()))?;
    write(&out, &file, &bytes)?;
    if !fp32 {
        write_static(&models, &out)?;
    }
    Ok(())
}

/// The static model potion-base-8M: `models/potion-base-8m.int8.safetensors`
/// (`embed_core::site::write_static_int8`) and its vocabulary, `models/potion-base-8m.vocab.txt`
/// (written from its `tokenizer.json` by `scripts/ensure-models.sh`).
fn write_static(models: &Path, out: &Path) -> Result<(), String> {
    const STATIC: &str = "potion-base-8m";
    let dir = models.join(STATIC);
    let folder = StaticFolder::read(&dir).map_err(|e| format!("{e} (scripts/ensure-models.sh)"))?;
    let bytes = site::write_static_int8(STATIC, folder.files())
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    write(out, &site::file_path(STATIC), &bytes)?;
    write(
        out,
        &format!("models/{STATIC}.vocab.txt"),
        folder.vocab().as_bytes(),
    )
}

/// Writes `data` to `file` under `out` (its folders made as needed), and says so.
fn write(out: &Path, file: &str, data: &[u8]) -> Result<(), String> {
    let path = out.join(file);
    path.parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, data))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("site_model: {} ({} bytes)", path.display(), data.len());
    Ok(())
}
