//! What the embedding reference tests share: the models' folder and the oracle venv's Python
//! from the environment, and running a Python reference over texts.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The models' folder (`EMBED_MODELS_DIR`, from `scripts/ensure-models.sh`) and the oracle
/// venv's Python (`CHUNK_ORACLE_PYTHON`); `None` when `CHUNK_ORACLE_SKIP=1` skips the `what`
/// test on purpose, saying so. Panics when either is unset (a skipped reference must never
/// look like a pass).
pub fn oracle_env(what: &str) -> Option<(PathBuf, String)> {
    if std::env::var("CHUNK_ORACLE_SKIP").as_deref() == Ok("1") {
        eprintln!("{what} test NOT RUN: CHUNK_ORACLE_SKIP=1");
        return None;
    }
    let need = |var: &str| {
        std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| {
                panic!(
                    "{var} is not set, so the {what} test cannot run: use `make test` \
                     (scripts/ensure-models.sh and scripts/ensure-oracle.sh), or set \
                     CHUNK_ORACLE_SKIP=1 to skip"
                )
            })
    };
    Some((
        PathBuf::from(need("EMBED_MODELS_DIR")),
        need("CHUNK_ORACLE_PYTHON"),
    ))
}

/// The lines `script` (a file of `tests/oracle/`) prints when run by `python` on the model
/// folder `dir`, given `texts` as JSON strings, one a line. Panics when it fails.
pub fn oracle_lines(python: &str, script: &str, dir: &Path, texts: &[String]) -> Vec<String> {
    let script = format!("{}/tests/oracle/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(python)
        .arg(script)
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the reference");
    let input: String = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap() + "\n")
        .collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("the reference exits");
    assert!(out.status.success(), "the reference failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}
