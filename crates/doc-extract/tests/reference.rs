//! The readers against reference extractions of the same fixtures (`tests/fixtures/moonstone.html`
//! and `moonstone.docx`, made by `tests/fixtures/make_documents.py`; the hand-written
//! `docs-page.html` and a page of The Rust Programming Language, `rust-book-ownership.html`;
//! `moonstone.pdf` and the small PDFs, made by `make_pdf.py`; `word-features.docx`, made by
//! `make_word_features.py`: code, nested and restarted lists, a footnote): BeautifulSoup with
//! html5lib, python-docx (with the footnotes read from their part's XML) and pypdf, run for real
//! from the test venv (`CHUNK_ORACLE_PYTHON`, which `make test` sets). The texts must hold the
//! same characters in the same order once whitespace and the crate's own markers (`# `, `- `,
//! `N. `, ` | `, bare code fences, `[^N]`) are left out, the counts of headings, list items and
//! tables (for HTML, of code blocks and of what was left out; for DOCX, of notes) must be equal,
//! and the cl100k_base token counts (whitespace runs as one space) are printed: ours carries the
//! markers, so it may be larger, by at most 3 % on the long fixtures (or 5 tokens: a small
//! page's few markers).

use std::path::PathBuf;
use std::process::Command;

use chunk_core::tokenizer::Encoding;
use doc_extract::{docx, html, pdf, ExtractError, Extracted};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// The reference extraction of `path` (`kind` "html", "docx" or "pdf") as JSON.
fn reference(kind: &str, path: &PathBuf) -> serde_json::Value {
    let python = std::env::var("CHUNK_ORACLE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNK_ORACLE_PYTHON is not set, so the reference extraction cannot run: use \
             `make test` (it makes the venv) or set it to a Python with beautifulsoup4, \
             html5lib, python-docx and pypdf"
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
/// `N. `, a note's `[^N]: `), between cells (` | `), the note references `[^N]`, for a DOCX
/// (`kind`) a fence line of backticks alone (python-docx writes no fences), and without
/// whitespace. Inside a
/// fenced code block (from a line of three or more backticks and an info string without any,
/// to the line of that fence alone) lines are the code's own, markers and all; an opening fence
/// with its info string and the code spans stay, since the HTML reference writes them too.
fn content(text: &str, kind: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let line = line.trim_start();
        let ticks = line.len() - line.trim_start_matches('`').len();
        match fence {
            Some(f) if line.trim_end() == f => fence = None,
            Some(_) => {}
            None if ticks >= 3 && !line[ticks..].contains('`') => fence = Some(&line[..ticks]),
            None => {}
        }
        if kind == "docx" && line.len() >= 3 && line.trim_end().chars().all(|c| c == '`') {
            continue;
        }
        if fence.is_some() || line.starts_with("```") {
            out.extend(line.chars().filter(|c| !c.is_whitespace()));
            continue;
        }
        let line = without_note_marks(line);
        let line = line.as_str();
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

/// `line` without a note's `[^N]: ` at its start and the references `[^N]` inside it.
fn without_note_marks(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("[^") {
        let digits = rest[at + 2..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(0);
        let end = at + 2 + digits;
        if digits > 0 && rest[end..].starts_with(']') {
            out.push_str(&rest[..at]);
            let after = &rest[end + 1..];
            rest = if out.is_empty() {
                after.strip_prefix(": ").unwrap_or(after)
            } else {
                after
            };
        } else {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
        }
    }
    out.push_str(rest);
    out
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Compares `ours` with the reference: the same characters, the same counts, and at most
/// `max_more` (a fraction) more or fewer cl100k_base tokens.
fn check(kind: &str, ours: &Extracted, reference: &serde_json::Value, max_more: f64) {
    let theirs = reference["text"].as_str().expect("text");
    // A PDF's text carries no markers: a line that starts with "- " is the document's own.
    let a = if kind == "pdf" {
        without_whitespace(&ours.text)
    } else {
        content(&ours.text, kind)
    };
    let b = without_whitespace(theirs);
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
    if kind == "html" {
        assert_eq!(ours.code_blocks, count("code_blocks"), "{kind} code blocks");
        assert_eq!(ours.removed, count("removed"), "{kind} elements removed");
        assert_eq!(ours.boilerplate, count("boilerplate"), "{kind} boilerplate");
        assert_eq!(ours.images, count("images"), "{kind} images");
    }
    if kind == "docx" {
        assert_eq!(ours.notes, count("notes"), "{kind} notes");
    }
    let bpe = Encoding::Cl100kBase.tokenizer();
    // Counted with whitespace runs as one space on both sides: the reference keeps the page's
    // source indentation, which no pipeline embeds as it is.
    let spaced = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (t_ours, t_theirs) = (bpe.count(&spaced(&ours.text)), bpe.count(&spaced(theirs)));
    let more = t_ours as f64 / t_theirs as f64 - 1.0;
    println!(
        "{kind}: {} characters equal; cl100k_base tokens: ours {t_ours}, reference {t_theirs} \
         ({:+.2} %); headings {}, list items {}, tables {}, code blocks {}; left out: \
         removed {}, boilerplate {}, images {}",
        a.chars().count(),
        more * 100.0,
        ours.headings,
        ours.list_items,
        ours.tables,
        ours.code_blocks,
        ours.removed,
        ours.boilerplate,
        ours.images
    );
    assert!(
        more.abs() <= max_more || t_ours.abs_diff(t_theirs) <= 5,
        "{kind}: token counts differ by {:.2} % ({t_ours} and {t_theirs})",
        more * 100.0
    );
}

#[test]
fn html_reader_keeps_what_beautifulsoup_keeps() {
    let path = fixture("moonstone.html");
    let page = std::fs::read_to_string(&path).expect("fixture");
    let ours = html::extract(&page);
    let theirs = reference("html", &path);
    check("html", &ours, &theirs, 0.03);
    assert_eq!(ours.title.as_deref(), theirs["title"].as_str());
    // The body's hidden block, style-hidden paragraph and noscript, and the head's script and
    // style (the head is left out whole, what it holds of them counted); its one image; its
    // navigation bar.
    assert_eq!((ours.removed, ours.images, ours.boilerplate), (5, 1, 1));
}

#[test]
fn a_docs_page_loses_its_scripts_hidden_parts_and_boilerplate_and_keeps_its_code() {
    let path = fixture("docs-page.html");
    let ours = html::extract(&std::fs::read_to_string(&path).expect("fixture"));
    check("html", &ours, &reference("html", &path), 0.03);
    assert_eq!(
        ours.text,
        "# Parsing flags\n\nUpdated in March.\n\n\
         Call `parse()` once; a flag such as `` --name `x` `` keeps its backticks, and \
         ``` `` ``` too.\n\n\
         ```rust\nfn main() {\n    // Every flag, parsed once.\n    let args = parse();\n}\n```\n\n\
         ```shell\ncargo run -- --name x\n```\n\n\
         ```toml\n[dependencies]\nflags = \"1\"\n```\n\n\
         ```\n  a   table\n  drawn by hand\n```\n\n\
         - Flags start with `--`.\n- Values follow them.\n\n\
         Written by the docs team."
    );
    assert_eq!(ours.title.as_deref(), Some("Parsing flags – Example Docs"));
    // Removed: the head's style and script; the menu and the cookie banner (hidden by the
    // sheet's `nav.menu, .cookie-banner`), the draft (`main .draft`), the paragraphs hidden by
    // the attribute, `aria-hidden` and an inline style; the template (its script is its own);
    // the noscript; the script in the page footer and the one at the end. Boilerplate: the
    // site header, the sidebar, the page footer (the article's header and footer are kept).
    assert_eq!((ours.removed, ours.boilerplate, ours.images), (12, 3, 0));
    assert_eq!(
        (ours.headings, ours.list_items, ours.code_blocks),
        (1, 2, 4)
    );
}

#[test]
fn a_pages_title_in_its_site_header_is_kept_as_beautifulsoup_keeps_it_by_the_same_rules() {
    let path = fixture("banner-title.html");
    let ours = html::extract(&std::fs::read_to_string(&path).expect("fixture"));
    check("html", &ours, &reference("html", &path), 0.0);
    assert_eq!(
        ours.text,
        "# Choosing a chunk size\n\n# Published in Notes\n\n\
         Start from the retriever's needs: a chunk should answer one question.\n\n\
         ## Overlap\n\nOverlap repeats the end of one chunk at the start of the next.\n\n\
         # Part two\nFiled under notes"
    );
    // Boilerplate: the site header (its title kept), the banner (its title kept), the header
    // that is navigation, a second header (its title kept, with the footer of the section the
    // title is in), the page footer. Removed: the head's style, the hidden skip link and the
    // header's script (the hidden share box goes with the header, uncounted).
    assert_eq!((ours.headings, ours.boilerplate, ours.removed), (4, 5, 3));
}

#[test]
fn a_rust_book_page_reads_as_beautifulsoup_reads_it_by_the_same_rules() {
    let path = fixture("rust-book-ownership.html");
    let ours = html::extract(&std::fs::read_to_string(&path).expect("fixture"));
    check("html", &ours, &reference("html", &path), 0.03);
    assert_eq!(
        ours.title.as_deref(),
        Some("What is Ownership? - The Rust Programming Language")
    );
    assert_eq!(
        (ours.headings, ours.list_items, ours.code_blocks),
        (14, 18, 15)
    );
    // 30 scripts, svg icons, templates and a noscript; the sidebar and the two page
    // navigation bars; the chapter's five images.
    assert_eq!((ours.removed, ours.boilerplate, ours.images), (30, 3, 5));
    // The chapter's code keeps its language and its own `//` and `#` lines.
    assert!(ours
        .text
        .contains("```rust\nfn main() {\n    let s1 = String::from(\"hello\");"));
    assert!(ours.text.contains("```console\n$ cargo run"));
    // The keyboard help and the theme menu are hidden by the book's external style sheets,
    // which the reader does not follow (the module's documentation says so): they are kept.
    assert!(ours
        .text
        .starts_with("## Keyboard shortcuts\n\nPress ← or → to navigate between chapters"));
    assert!(ours.text.contains("- Auto\n- Light\n- Rust"));
}

#[test]
fn docx_reader_keeps_what_python_docx_keeps() {
    let path = fixture("moonstone.docx");
    let bytes = std::fs::read(&path).expect("fixture");
    let ours = docx::extract(&bytes).expect("a DOCX");
    check("docx", &ours, &reference("docx", &path), 0.03);
}

#[test]
fn docx_reader_keeps_python_docx_text_of_code_lists_and_notes() {
    let path = fixture("word-features.docx");
    let ours = docx::extract(&std::fs::read(&path).expect("fixture")).expect("a DOCX");
    // A short text where the markers weigh: two fences, ten list markers, two note marks
    // (measured: ours 158 tokens, python-docx's text 120, +31.7 %).
    check("docx", &ours, &reference("docx", &path), 0.35);
    assert_eq!((ours.notes, ours.headers_footers, ours.comments), (1, 2, 1));
}

#[test]
fn pdf_reader_keeps_what_pypdf_keeps_page_for_page() {
    let path = fixture("moonstone.pdf");
    let bytes = std::fs::read(&path).expect("fixture");
    let ours = pdf::extract(&bytes).expect("a PDF with text");
    let theirs = reference("pdf", &path);
    check("pdf", &ours, &theirs, 0.03);
    let pages: Vec<&str> = theirs["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| p.as_str().expect("page text"))
        .collect();
    assert_eq!(ours.pages(), pages.len(), "page count");
    assert_eq!(ours.pages(), 32);
    assert_eq!((ours.pages_without_text, ours.pages_unreadable), (0, 0));
    // Each page's own slice of the text holds exactly that page's characters.
    let mut ends: Vec<usize> = ours.page_starts[1..].to_vec();
    ends.push(ours.text.len());
    for (i, (&start, &end)) in ours.page_starts.iter().zip(&ends).enumerate() {
        assert_eq!(
            without_whitespace(&ours.text[start..end]),
            without_whitespace(pages[i]),
            "page {}",
            i + 1
        );
    }
    assert_eq!(ours.title.as_deref(), theirs["title"].as_str());
    assert_eq!(ours.title.as_deref(), Some("The Moonstone"));
    // The title page's cover picture.
    assert_eq!(
        ours.images,
        theirs["images"].as_u64().expect("images") as usize
    );
    assert_eq!(ours.images, 1);
}

#[test]
fn a_pdf_with_an_owner_password_only_is_read_like_pypdf_reads_it() {
    let path = fixture("restricted.pdf");
    let ours = pdf::extract(&std::fs::read(&path).expect("fixture")).expect("readable");
    check("pdf", &ours, &reference("pdf", &path), 0.03);
    assert_eq!(ours.page_starts, [0]);
}

#[test]
fn pdfs_without_text_or_behind_a_password_are_refused_with_their_reason() {
    let locked = fixture("locked.pdf");
    assert_eq!(reference("pdf", &locked)["error"], "password");
    let read = |name: &str| pdf::extract(&std::fs::read(fixture(name)).expect("fixture"));
    assert_eq!(read("locked.pdf"), Err(ExtractError::PasswordRequired));
    assert_eq!(
        read("scanned.pdf"),
        Err(ExtractError::NoTextLayer { pages: 2 })
    );
    let scanned = reference("pdf", &fixture("scanned.pdf"));
    assert!(scanned["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .all(|p| p.as_str().is_some_and(|t| t.trim().is_empty())));
}

#[test]
fn a_page_the_parser_cannot_read_is_skipped_and_counted() {
    let path = fixture("damaged-page.pdf");
    let ours = pdf::extract(&std::fs::read(&path).expect("fixture")).expect("two pages read");
    check("pdf", &ours, &reference("pdf", &path), 0.03);
    assert_eq!(
        ours.text,
        "The first page is whole.\n\nThe third page is whole too."
    );
    assert_eq!((ours.pages_without_text, ours.pages_unreadable), (0, 1));
    assert_eq!(ours.page_starts, [0, 26, 26]);
}

#[test]
fn what_is_not_a_whole_pdf_is_refused_as_not_a_pdf() {
    let whole = std::fs::read(fixture("moonstone.pdf")).expect("fixture");
    for bytes in [
        &whole[..whole.len() / 2],
        b"%PDF-1.7\nnothing else",
        b"not a pdf",
    ] {
        assert!(
            matches!(pdf::extract(bytes), Err(ExtractError::NotPdf { .. })),
            "{} bytes",
            bytes.len()
        );
    }
}
