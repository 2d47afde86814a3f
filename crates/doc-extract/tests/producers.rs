//! The PDF reader on PDFs as people make them: the same pages of the novel written by six
//! producers (`tests/fixtures/pdf-producers/`, made by its `make.py`: Chromium's print to PDF,
//! LibreOffice, Ghostscript's ps2pdf, pdfTeX, fpdf2, reportlab), read by the crate and by pypdf
//! run for real from the test venv (`CHUNK_ORACLE_PYTHON`, which `make test` sets).
//!
//! For each file, `tests/producers.py` measures, in Python, the word-level agreement of the two
//! texts (words are whitespace-separated runs; `difflib.SequenceMatcher(None, ours, pypdf)
//! .ratio()` over the word lists) and lists our split words (2 to 4 adjacent words of ours
//! that make one word of pypdf's, where pypdf's text never has those words side by side). Every
//! producer must agree to at least [`MIN_RATIO`] with no split word. The table printed (with
//! `--nocapture`) gives per producer: words (ours, pypdf's), ratio, split words, and glyphs our
//! reader found without text.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use doc_extract::pdf;

/// The least word-level agreement with pypdf a producer's file may have.
const MIN_RATIO: f64 = 0.995;

/// Each producer's file, and the least number of words pypdf reads in it: the front matter and
/// the Prologue, some 2,210 words (Chromium's has the lines of ligatures and kerning three
/// times), or LibreOffice's four pages of the DOCX fixture, some 1,350; so that a file that
/// lost its text (or a pypdf that read less) fails plainly, not only on its ratio.
const PRODUCERS: [(&str, usize); 6] = [
    ("chromium", 2_250),
    ("libreoffice", 1_340),
    ("ghostscript", 2_200),
    ("pdftex", 2_200),
    ("fpdf2", 2_200),
    ("reportlab", 2_200),
];

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/pdf-producers")
        .join(format!("{name}.pdf"))
}

/// What `producers.py` measured for one file.
struct Agreement {
    ours: usize,
    pypdf: usize,
    ratio: f64,
    /// Each split word as "pieces -> word".
    splits: Vec<String>,
}

fn agreement(path: &PathBuf, ours: &str) -> Agreement {
    let python = std::env::var("CHUNK_ORACLE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNK_ORACLE_PYTHON is not set, so pypdf cannot run: use `make test` (it makes \
             the venv) or set it to a Python with pypdf"
        )
    });
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/producers.py");
    let mut child = Command::new(python)
        .arg(script)
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the reference Python starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(ours.as_bytes())
        .expect("our text is written to producers.py");
    let out = child.wait_with_output().expect("producers.py ends");
    assert!(
        out.status.success(),
        "producers.py failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let count = |key: &str| v[key].as_u64().expect(key) as usize;
    Agreement {
        ours: count("ours"),
        pypdf: count("pypdf"),
        ratio: v["ratio"].as_f64().expect("ratio"),
        splits: v["splits"]
            .as_array()
            .expect("splits")
            .iter()
            .map(|s| {
                let pieces: Vec<&str> = s["ours"]
                    .as_array()
                    .expect("pieces")
                    .iter()
                    .map(|p| p.as_str().expect("piece"))
                    .collect();
                format!(
                    "{:?} -> {:?}",
                    pieces.join(" "),
                    s["pypdf"].as_str().unwrap_or("")
                )
            })
            .collect(),
    }
}

#[test]
fn every_producers_pdf_reads_as_pypdf_reads_it_word_for_word() {
    let mut failures = Vec::new();
    println!(
        "{:<12} {:>7} {:>7} {:>8} {:>6} {:>8}",
        "producer", "ours", "pypdf", "ratio", "splits", "no text"
    );
    for (name, least) in PRODUCERS {
        let path = fixture(name);
        let bytes = std::fs::read(&path).expect("fixture");
        let ours = pdf::extract(&bytes).expect("a PDF with text");
        let a = agreement(&path, &ours.text);
        println!(
            "{name:<12} {:>7} {:>7} {:>8.4} {:>6} {:>8}",
            a.ours,
            a.pypdf,
            a.ratio,
            a.splits.len(),
            ours.glyphs_without_text
        );
        for s in a.splits.iter().take(8) {
            println!("    split: {s}");
        }
        if a.pypdf < least {
            failures.push(format!("{name}: pypdf read {} words, not {least}", a.pypdf));
        }
        if a.ratio < MIN_RATIO {
            failures.push(format!(
                "{name}: word agreement {:.4} < {MIN_RATIO}",
                a.ratio
            ));
        }
        if !a.splits.is_empty() {
            failures.push(format!("{name}: {} split words", a.splits.len()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
