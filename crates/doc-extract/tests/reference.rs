//! The readers against reference extractions of the same fixtures (`tests/fixtures/moonstone.html`
//! and `moonstone.docx`, made by `tests/fixtures/make_documents.py`): BeautifulSoup with
//! html5lib and python-docx, run for real from the test venv (`CHUNK_ORACLE_PYTHON`, which
//! `make test` sets). The texts must hold the same characters in the same order once
//! whitespace and the crate's own markers (`# `, `- `, ` | `) are left out, the counts of
//! headings, list items and tables must be equal, and the cl100k_base token counts (whitespace
//! runs as one space) are printed: ours carries the markers, so it may be larger, by at most 3 %.

use std::path::PathBuf;
use std::process::Command;

use chunk_core::tokenizer::Encoding;
use doc_extract::{docx, html, Extracted};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// The reference extraction of `path` (`kind` "html" or "docx") as JSON.
fn reference(kind: &str, path: &PathBuf) -> serde_json::Value {
    let python = std::env::var("CHUNK_ORACLE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNK_ORACLE_PYTHON is not set, so the reference extraction cannot run: use \
             `make test` (it makes the venv) or set it to a Python with beautifulsoup4, \
             html5lib and python-docx"
        )
    });
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference.py");
    let out = Command::new(python)
        .arg(script)
        .arg(kind)
        .arg(path)
        .output()
        .expect("the reference Python starts");
    assert!(
        out.status.success(),
        "reference.py {kind} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("reference.py prints JSON")
}

/// `text` without the markers the crate writes at line starts (`#…# `, `- ` after an indent,
/// `N. `) and between cells (` | `), and without whitespace.
fn content(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim_start();
        let line = match line.find(|c| c != '#') {
            Some(n) if n > 0 && line[n..].starts_with(' ') => &line[n + 1..],
            _ => line,
        };
        let line = line.strip_prefix("- ").unwrap_or(line);
        let digits = line.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        let line = if digits > 0 && line[digits..].starts_with(". ") {
            &line[digits + 2..]
        } else {
            line
        };
        out.extend(
            line.replace(" | ", "")
                .chars()
                .filter(|c| !c.is_whitespace()),
        );
    }
    out
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn check(kind: &str, ours: &Extracted, reference: &serde_json::Value) {
    let theirs = reference["text"].as_str().expect("text");
    let (a, b) = (content(&ours.text), without_whitespace(theirs));
    if a != b {
        let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let around = |s: &str| {
            s.chars()
                .skip(at.saturating_sub(40))
                .take(80)
                .collect::<String>()
        };
        panic!(
            "{kind}: the texts differ at character {at}:\n ours: {}\n them: {}",
            around(&a),
            around(&b)
        );
    }
    let count = |key: &str| reference[key].as_u64().expect(key) as usize;
    assert_eq!(ours.headings, count("headings"), "{kind} headings");
    assert_eq!(ours.list_items, count("list_items"), "{kind} list items");
    assert_eq!(ours.tables, count("tables"), "{kind} tables");
    let bpe = Encoding::Cl100kBase.tokenizer();
    // Counted with whitespace runs as one space on both sides: the reference keeps the page's
    // source indentation, which no pipeline embeds as it is.
    let spaced = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (t_ours, t_theirs) = (bpe.count(&spaced(&ours.text)), bpe.count(&spaced(theirs)));
    let more = t_ours as f64 / t_theirs as f64 - 1.0;
    println!(
        "{kind}: {} characters equal; cl100k_base tokens: ours {t_ours}, reference {t_theirs} \
         ({:+.2} %); headings {}, list items {}, tables {}",
        a.chars().count(),
        more * 100.0,
        ours.headings,
        ours.list_items,
        ours.tables
    );
    assert!(
        more.abs() <= 0.03,
        "{kind}: token counts differ by {:.2} %",
        more * 100.0
    );
}

#[test]
fn html_reader_keeps_what_beautifulsoup_keeps() {
    let path = fixture("moonstone.html");
    let page = std::fs::read_to_string(&path).expect("fixture");
    let ours = html::extract(&page);
    let theirs = reference("html", &path);
    check("html", &ours, &theirs);
    assert_eq!(ours.title.as_deref(), theirs["title"].as_str());
    // The body's hidden block, style-hidden paragraph and noscript (the script and the style
    // sit in head, left out whole); its one image.
    assert_eq!((ours.removed, ours.images), (3, 1));
}

#[test]
fn docx_reader_keeps_what_python_docx_keeps() {
    let path = fixture("moonstone.docx");
    let bytes = std::fs::read(&path).expect("fixture");
    let ours = docx::extract(&bytes).expect("a DOCX");
    check("docx", &ours, &reference("docx", &path));
}
