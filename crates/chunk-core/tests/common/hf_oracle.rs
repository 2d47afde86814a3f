//! The Python oracles of the native tests: a script of `differential/oracle/` run in the oracle
//! venv's Python (`CHUNK_ORACLE_PYTHON`) on one batch of JSON lines. The Hugging Face
//! `tokenizers` oracle of the open tokenizers' tests (`tests/wordpiece.rs`, `tests/unigram.rs`)
//! and LlamaIndex's retrieval metrics (`tests/retrieval.rs`) use it.

use std::io::Write;
use std::process::{Command, Stdio};

/// The lines `script` (a file of `differential/oracle/`, given `args`) prints for `lines`
/// (each a JSON value, written one a line); `None` when `CHUNK_ORACLE_SKIP=1` skips the `what`
/// tests on purpose. Panics without `CHUNK_ORACLE_PYTHON` (a skipped oracle must never look
/// like a pass) or when the oracle fails.
pub fn oracle_lines(
    what: &str,
    script: &str,
    args: &[&str],
    lines: &[serde_json::Value],
) -> Option<Vec<String>> {
    let python = match std::env::var("CHUNK_ORACLE_PYTHON") {
        Ok(p) if !p.is_empty() => p,
        _ if std::env::var("CHUNK_ORACLE_SKIP").as_deref() == Ok("1") => {
            eprintln!("{what} differential test NOT RUN: CHUNK_ORACLE_SKIP=1");
            return None;
        }
        _ => panic!(
            "CHUNK_ORACLE_PYTHON is not set, so the {what} test cannot run: use `make test` \
             (it creates the venv), or set CHUNK_ORACLE_SKIP=1 to skip"
        ),
    };
    let script = format!(
        "{}/tests/differential/oracle/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(python)
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the oracle");
    let input: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("the oracle exits");
    writer.join().expect("writer").expect("send the lines");
    assert!(out.status.success(), "the {what} oracle failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    Some(text.lines().map(str::to_owned).collect())
}

/// The ids `script` (a tokenizer oracle, given the data file `data`) gives each text, with the
/// sha256 of the data file it reports; `None` when the oracle is skipped on purpose
/// ([`oracle_lines`]). Panics when it answers another number of texts.
#[allow(dead_code)] // Not every test file that includes this module counts tokens.
pub fn hf_ids(
    what: &str,
    script: &str,
    data: &str,
    texts: &[String],
) -> Option<(String, Vec<Vec<u32>>)> {
    let texts_json: Vec<serde_json::Value> = texts
        .iter()
        .map(|t| serde_json::Value::String(t.clone()))
        .collect();
    let lines = oracle_lines(what, script, &[data], &texts_json)?;
    let mut lines = lines.iter();
    let head: serde_json::Value =
        serde_json::from_str(lines.next().expect("a first line")).expect("JSON");
    let ids: Vec<Vec<u32>> = lines
        .map(|l| serde_json::from_str(l).expect("a JSON list of ids"))
        .collect();
    assert_eq!(ids.len(), texts.len(), "one line of ids per text");
    let sha256 = head["sha256"].as_str().unwrap_or_default().to_string();
    Some((sha256, ids))
}
