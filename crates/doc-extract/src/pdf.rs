//! A PDF's text layer, page by page, as a RAG pipeline's PDF loader gets it: the text of each
//! page in the order of its content (pdf-extract 0.12.1 on lopdf places each glyph; this module
//! breaks words, lines and paragraphs by the gaps between them, [`SPACE_GAP`]), then cleaned the
//! same way for every page and joined, with the byte offset where each page starts
//! ([`Extracted::page_starts`]).
//!
//! Two gaps of pdf-extract are closed before it reads (measured on the producer corpus,
//! `tests/producers.rs`): a CID font's widths given as a range (`c_first c_last w` in `/W`,
//! which Chromium, LibreOffice and others write) are read by pdf-extract as no width at all, so
//! the glyphs after them seemed to stand apart (spaces inside words); they are rewritten as
//! lists when the file is opened ([`spell_out_cid_widths`]). And the `'` and `"` operators
//! (next line, then show text: Ghostscript's ps2pdf writes most lines so) are not run by
//! pdf-extract, so those lines were lost; a page's content that uses them is rewritten with the
//! operators they stand for before the page is read.
//!
//! The crate was chosen over pdf.js on measured fidelity and size (docs/design.md, "Reading
//! PDFs"); `tests/reference.rs` checks it against pypdf on the fixtures, page for page.
//!
//! Rules, per page:
//! - a run of spaces or tabs inside a line is one space (justified text is set with wide word
//!   gaps, which a reader does not see as characters), and lines lose their outer spaces;
//! - blank lines (a vertical gap the extractor saw as a paragraph break) are kept as one blank
//!   line, so paragraph-aware splitters see paragraphs; the page's first and last blank lines go;
//! - pages are joined by one blank line; a page without text (a scanned page) adds nothing, and
//!   is counted in [`Extracted::pages_without_text`] (a page that could not be read, in
//!   [`Extracted::pages_unreadable`] instead).
//!
//! A file with no text on any page is refused ([`ExtractError::NoTextLayer`]: nothing here
//! reads pixels, no OCR); a file that needs a password to open is refused
//! ([`ExtractError::PasswordRequired`]); one encrypted with an owner password only (printing or
//! copying restricted) opens with the empty password, as every viewer opens it, and is read.

use std::cell::RefCell;

use pdf_extract::content::{Content, Operation};
use pdf_extract::{
    Dictionary, Document, MediaBox, Object, ObjectId, OutputDev, OutputError, Stream, Transform,
};
use serde::{Deserialize, Serialize};

use crate::{ExtractError, Extracted};

/// A PDF opened for reading, one page at a time ([`PdfReader::read_page`]), so that a caller
/// can report progress between pages and, where a page makes the parser panic (pdf-extract
/// does on some damaged files), open the file again and go on with the next page;
/// [`assemble`] makes the document of the pages read, [`extract`] does it all at once.
pub struct PdfReader {
    /// The document; a page's content is rewritten in place just before it is read
    /// ([`spell_out_text_quotes`]), hence the cell.
    doc: RefCell<Document>,
    /// The pages' numbers and object ids, in page order, each page object once.
    pages: Vec<(u32, ObjectId)>,
    /// Entries of the page tree that named a page object already listed (a tree whose `/Kids`
    /// loop back to an ancestor lists its pages again; each is read once).
    repeated: usize,
}

/// What one page gave.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    /// The page's text, cleaned by [`clean_page`] (empty for a page without text).
    pub text: String,
    /// Image objects the page's resources hold.
    pub images: usize,
    /// False when the page's content could not be read (damaged, or the parser panicked on it);
    /// its text is then empty.
    pub readable: bool,
    /// Glyphs shown on the page that have no text: their font maps them to no character (no
    /// `/ToUnicode` entry and no encoding that names them), so they add nothing to `text`.
    #[serde(default)]
    pub glyphs_without_text: usize,
}

impl PdfReader {
    /// Parses `bytes` as a PDF and decrypts it with the empty password when it is encrypted.
    ///
    /// # Errors
    /// [`ExtractError::NotPdf`] when the bytes are not a PDF lopdf can parse (not a PDF, or
    /// truncated or damaged beyond its cross-reference repair); [`ExtractError::PasswordRequired`]
    /// when it opens only with a password; [`ExtractError::NoPages`] when it has no page.
    pub fn open(bytes: &[u8]) -> Result<PdfReader, ExtractError> {
        let mut doc = Document::load_mem(bytes).map_err(|e| ExtractError::NotPdf {
            detail: e.to_string(),
        })?;
        if doc.is_encrypted() {
            doc.decrypt("")
                .map_err(|_| ExtractError::PasswordRequired)?;
        }
        // A page tree whose `/Kids` loop back to an ancestor, or name a node twice, makes
        // lopdf's walk list pages again or give up before the real pages: where its list is
        // not the tree's own (each node visited once), the tree is made flat first (each page
        // once, in order), and the repeats are reported.
        let mut pages: Vec<(u32, ObjectId)> = doc.get_pages().into_iter().collect();
        let repeated = match walk_page_tree(&doc) {
            Some(tree) if !tree.pages.is_empty() => {
                let listed = pages.iter().map(|&(_, id)| id);
                if !listed.eq(tree.pages.iter().map(|&(id, _)| id)) {
                    flatten_page_tree(&mut doc, &tree);
                    pages = doc.get_pages().into_iter().collect();
                }
                tree.repeated
            }
            _ => 0,
        };
        if pages.is_empty() {
            return Err(ExtractError::NoPages);
        }
        empty_images(&mut doc);
        spell_out_cid_widths(&mut doc);
        Ok(PdfReader {
            doc: RefCell::new(doc),
            repeated,
            pages,
        })
    }

    /// Entries of the page tree that named a page already listed, left out (a page tree with a
    /// cycle); 0 for a well-formed file.
    pub fn pages_repeated(&self) -> usize {
        self.repeated
    }

    /// Number of pages in the document.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The document information's `/Title`, when it is a non-empty text string (whitespace
    /// runs as one space).
    pub fn title(&self) -> Option<String> {
        let doc = &*self.doc.borrow();
        let info = dictionary(doc, doc.trailer.get(b"Info").ok()?)?;
        let title = pdf_extract::decode_text_string(info.get(b"Title").ok()?).ok()?;
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        (!title.is_empty()).then_some(title)
    }

    /// Reads page `index` (0-based; an index past the last page gives an unreadable empty
    /// page). A page whose content cannot be read is [`Page::readable`] false, never an error.
    ///
    /// pdf-extract panics on some damaged pages (a missing key, an operand of the wrong type).
    /// Where panics unwind (native test and debug builds; not under the workspace's release
    /// profile, which aborts) the panic is caught here and the page is unreadable; in the
    /// page's wasm a panic aborts the module instead, and the reader worker
    /// (`assets/extract-worker.js`) starts a fresh instance, opens the file again and goes on
    /// with the next page, to the same effect.
    pub fn read_page(&self, index: usize) -> Page {
        let Some(&(number, id)) = self.pages.get(index) else {
            return Page::default();
        };
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            spell_out_text_quotes(&mut self.doc.borrow_mut(), id);
            let mut out = PageText::default();
            pdf_extract::output_doc_page(&self.doc.borrow(), &mut out, number).map(|()| out)
        }));
        let (text, glyphs_without_text) = match read {
            Ok(Ok(out)) => (Some(clean_page(&out.text)), out.glyphs_without_text),
            Ok(Err(_)) | Err(_) => (None, 0),
        };
        Page {
            readable: text.is_some(),
            text: text.unwrap_or_default(),
            images: page_images(&self.doc.borrow(), id),
            glyphs_without_text,
        }
    }
}

/// Attributes a page inherits, by key ([`INHERITED`]).
type Inherited = Vec<(Vec<u8>, Object)>;

/// A page tree as read by [`walk_page_tree`]: its root, each page once in order with the
/// attributes it inherits, and the entries that named a node already visited.
struct PageTree {
    root: ObjectId,
    pages: Vec<(ObjectId, Inherited)>,
    repeated: usize,
}

/// The attributes a page inherits from the page-tree nodes above it (ISO 32000-1, 7.7.3.4).
const INHERITED: [&[u8]; 4] = [b"Resources", b"MediaBox", b"CropBox", b"Rotate"];

/// Walks the catalog's page tree depth first, each node at most once (a node named again, by a
/// cycle or twice in `/Kids`, is counted in [`PageTree::repeated`] and not entered); `None`
/// when the catalog names no page tree.
fn walk_page_tree(doc: &Document) -> Option<PageTree> {
    let root = doc
        .catalog()
        .ok()?
        .get(b"Pages")
        .ok()?
        .as_reference()
        .ok()?;
    let mut tree = PageTree {
        root,
        pages: Vec::new(),
        repeated: 0,
    };
    let mut seen = std::collections::HashSet::new();
    // (node, the attributes inherited so far), last in first out; kids pushed in reverse.
    let mut stack = vec![(root, Inherited::new())];
    while let Some((id, inherited)) = stack.pop() {
        if !seen.insert(id) {
            tree.repeated += 1;
            continue;
        }
        let Some(node) = doc.get_object(id).ok().and_then(|o| o.as_dict().ok()) else {
            continue;
        };
        let mut own = inherited;
        for key in INHERITED {
            if let Ok(value) = node.get(key) {
                own.retain(|(k, _)| k.as_slice() != key);
                own.push((key.to_vec(), value.clone()));
            }
        }
        // A page is a leaf, whatever stray `/Kids` it carries; an intermediate node's `/Kids`
        // may be an array or a reference to one.
        let kind = node.get(b"Type").and_then(|t| t.as_name()).ok();
        let is_page = kind == Some(b"Page".as_slice());
        let kids = node.get(b"Kids").ok().and_then(|k| match k {
            Object::Reference(r) => doc.get_object(*r).ok()?.as_array().ok(),
            other => other.as_array().ok(),
        });
        match kids {
            Some(kids) if !is_page => {
                for kid in kids.iter().rev() {
                    if let Ok(kid) = kid.as_reference() {
                        stack.push((kid, own.clone()));
                    }
                }
            }
            // A node named `/Pages` without kids holds no page.
            _ if id != root && kind != Some(b"Pages".as_slice()) => tree.pages.push((id, own)),
            _ => {}
        }
    }
    Some(tree)
}

/// Rewrites the page tree as one root listing `tree`'s pages in order, each page given the
/// attributes it inherited and the root as its parent, so that every reader of the document
/// sees each page once.
fn flatten_page_tree(doc: &mut Document, tree: &PageTree) {
    for (id, inherited) in &tree.pages {
        if let Ok(Object::Dictionary(page)) = doc.get_object_mut(*id) {
            for (key, value) in inherited {
                if page.get(key).is_err() {
                    page.set(key.clone(), value.clone());
                }
            }
            page.set("Parent", Object::Reference(tree.root));
        }
    }
    if let Ok(Object::Dictionary(root)) = doc.get_object_mut(tree.root) {
        let kids = tree
            .pages
            .iter()
            .map(|(id, _)| Object::Reference(*id))
            .collect();
        root.set("Kids", Object::Array(kids));
        root.set("Count", Object::Integer(tree.pages.len() as i64));
    }
}

/// The document made of its pages' reads, in page order, its title and the page-tree entries
/// left out as repeats ([`PdfReader::pages_repeated`]).
///
/// # Errors
/// When no page has text: [`ExtractError::PagesUnreadable`] if no page could be read at all,
/// else [`ExtractError::NoTextLayer`] (a scan).
pub fn assemble(
    pages: &[Page],
    title: Option<String>,
    pages_repeated: usize,
) -> Result<Extracted, ExtractError> {
    let unreadable = pages.iter().filter(|p| !p.readable).count();
    if pages.iter().all(|p| p.text.is_empty()) {
        return Err(if unreadable == pages.len() {
            ExtractError::PagesUnreadable { pages: pages.len() }
        } else {
            ExtractError::NoTextLayer { pages: pages.len() }
        });
    }
    let (text, page_starts) = join_pages(pages.iter().map(|p| p.text.as_str()));
    Ok(Extracted {
        text,
        title,
        images: pages.iter().map(|p| p.images).sum(),
        page_starts,
        pages_without_text: pages
            .iter()
            .filter(|p| p.readable && p.text.is_empty())
            .count(),
        pages_unreadable: unreadable,
        pages_repeated,
        glyphs_without_text: pages.iter().map(|p| p.glyphs_without_text).sum(),
        ..Extracted::default()
    })
}

/// Reads every page of the PDF in `bytes` ([`PdfReader`], then [`assemble`]).
///
/// # Errors
/// As [`PdfReader::open`] and [`assemble`].
pub fn extract(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let reader = PdfReader::open(bytes)?;
    let pages: Vec<Page> = (0..reader.page_count())
        .map(|i| reader.read_page(i))
        .collect();
    assemble(&pages, reader.title(), reader.pages_repeated())
}

/// The least gap between two glyphs of a line that is a word gap, as a fraction of the font
/// size (both in page space): 0.15 em.
///
/// pdf-extract's plain-text output uses 0.1 em (pdf.js about the same); pypdf half the font's
/// space width (0.125 em in Times, 0.139 em in Helvetica, 0.174 em in DejaVu Sans Bold).
/// Measured on the producer corpus (`tests/producers.rs`): 0.12 em or less splits headings
/// letter-spaced by 0.12 em (as style sheets set capitals; Chromium places each glyph), 0.25 em
/// or more joins words in pdfTeX's tightest lines (TeX shrinks a 0.33 em space to 0.22 em);
/// 0.15 em reads every producer as pypdf does, with a margin both ways.
pub const SPACE_GAP: f64 = 0.15;

/// pdf-extract's glyphs of one page as lines of text ([`OutputDev`]): a line break where a
/// glyph moves down by more than half the font size to the left of the previous one's end (a
/// blank line where it moves down by more than 1.5 times the font size: a paragraph), as
/// pdf-extract's plain-text output decides; a space where a glyph starts more than
/// [`SPACE_GAP`] to the right of where the previous one's advance (its width, character and
/// word spacing, horizontal scaling) ended.
#[derive(Default)]
struct PageText {
    /// The page's raw text, for [`clean_page`].
    text: String,
    /// Page space to page space with y downwards (from the page's media box).
    flip: Transform,
    /// Where the previous glyph ended (x, y in flipped page space); `None` before the first.
    last: Option<(f64, f64)>,
    /// Glyphs that decoded to no text ([`Page::glyphs_without_text`]).
    glyphs_without_text: usize,
}

impl OutputDev for PageText {
    fn begin_page(
        &mut self,
        _page: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.flip = Transform::row_major(1., 0., 0., -1., 0., media_box.ury - media_box.lly);
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    /// `trm`: text space (before the font size) to page space; `width`: the glyph's width in
    /// text space units per unit of font size (its `/W` or `/Widths` entry / 1000); `spacing`:
    /// the character spacing, plus the word spacing for a single-byte code 32, in unscaled
    /// text space units; `font_size`: the `Tf` size.
    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        let position = trm.post_transform(&self.flip);
        let (x, y) = (position.m31, position.m32);
        // The size pdf-extract's plain-text output uses: the side of the square with the area
        // of the font's (size, size) box in page space.
        let size = (font_size * (trm.m11 + trm.m21) * font_size * (trm.m12 + trm.m22))
            .abs()
            .sqrt();
        if let Some((end, last_y)) = self.last {
            let down = (y - last_y).abs();
            if down > size * 1.5 {
                self.text.push('\n');
            }
            if x < end && down > size * 0.5 {
                self.text.push('\n');
            }
            if x > end + size * SPACE_GAP {
                self.text.push(' ');
            }
        }
        if text.is_empty() {
            self.glyphs_without_text += 1;
        }
        self.text.push_str(text);
        // The pen's move in text space, Th · (w0 · Tfs + Tc + Tw) (ISO 32000-1, 9.4.4), which
        // `trm` (holding Th) takes to page space.
        let advance = width * font_size + spacing;
        self.last = Some((x + advance * trm.m11, y));
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

/// Most widths a CID font's `/W` may spell out ([`spell_out_cid_widths`]): CIDs are 16-bit, so
/// no real font needs more; a font past it is left as it was.
const MAX_CID_WIDTHS: i64 = 1 << 17;

/// Rewrites each CID font's `/W` ranges, `c_first c_last w` (every CID from `c_first` to
/// `c_last` is `w` wide; ISO 32000-1, 9.7.4.3), as lists, `c_first [w w …]`, the form
/// pdf-extract 0.12.1 reads (it reads a range as no CID at all, so those glyphs took the
/// default width `/DW`, and the glyphs after them seemed to stand apart or overlap). A `/W`
/// that is not a well-formed array of the two forms is left as it was.
fn spell_out_cid_widths(doc: &mut Document) {
    let fonts: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| {
            o.as_dict().is_ok_and(|d| {
                d.get(b"Subtype")
                    .and_then(Object::as_name)
                    .is_ok_and(|t| t == b"CIDFontType0" || t == b"CIDFontType2")
            })
        })
        .map(|(id, _)| *id)
        .collect();
    for id in fonts {
        let Some(widths) = doc
            .get_dictionary(id)
            .ok()
            .and_then(|d| d.get(b"W").ok())
            .and_then(|w| resolve(doc, w))
            .and_then(|w| w.as_array().ok())
            .and_then(|w| widths_as_lists(w))
        else {
            continue;
        };
        if let Ok(Object::Dictionary(font)) = doc.get_object_mut(id) {
            font.set("W", Object::Array(widths));
        }
    }
}

/// `w` (a `/W` array) with its ranges written as lists; `None` when it has no range, or is
/// not a sequence of `c [widths]` and `c_first c_last w` entries, or would spell out more than
/// [`MAX_CID_WIDTHS`] widths.
fn widths_as_lists(w: &[Object]) -> Option<Vec<Object>> {
    let mut out = Vec::with_capacity(w.len());
    let (mut i, mut ranges, mut spelled) = (0, 0, 0);
    while i < w.len() {
        let first = w[i].as_i64().ok()?;
        match w.get(i + 1)? {
            Object::Array(list) => {
                out.push(Object::Integer(first));
                out.push(Object::Array(list.clone()));
                i += 2;
            }
            last => {
                // The file's numbers: checked, so that a range like `0 9223372036854775807`
                // is refused instead of overflowing.
                let count = last.as_i64().ok()?.checked_sub(first)?.checked_add(1)?;
                spelled = count.checked_add(spelled)?;
                if count < 1 || spelled > MAX_CID_WIDTHS {
                    return None;
                }
                let width = w.get(i + 2)?;
                if !matches!(width, Object::Integer(_) | Object::Real(_)) {
                    return None;
                }
                out.push(Object::Integer(first));
                out.push(Object::Array(vec![width.clone(); count as usize]));
                ranges += 1;
                i += 3;
            }
        }
    }
    (ranges > 0).then_some(out)
}

/// Rewrites page `page`'s content, when it uses the `'` or `"` operators, with the operators
/// they stand for (ISO 32000-1, 9.4.3): `s '` is `T* s Tj`, `aw ac s "` is
/// `aw Tw ac Tc T* s Tj`. pdf-extract 0.12.1 does not run them, so the text they show was lost.
/// A content that does not parse is left as it was (pdf-extract then refuses the page).
fn spell_out_text_quotes(doc: &mut Document, page: ObjectId) {
    let Ok(content) = doc.get_page_content(page) else {
        return;
    };
    if !may_show_text_by_quotes(&content) {
        return;
    }
    let Ok(decoded) = Content::decode(&content) else {
        return;
    };
    let quoted = |op: &Operation| op.operator == "'" || op.operator == "\"";
    if !decoded.operations.iter().any(quoted) {
        return;
    }
    let mut operations = Vec::with_capacity(decoded.operations.len() + 16);
    for op in decoded.operations {
        match (op.operator.as_str(), op.operands.as_slice()) {
            ("'", [s]) => {
                operations.push(Operation::new("T*", vec![]));
                operations.push(Operation::new("Tj", vec![s.clone()]));
            }
            ("\"", [aw, ac, s]) => {
                operations.push(Operation::new("Tw", vec![aw.clone()]));
                operations.push(Operation::new("Tc", vec![ac.clone()]));
                operations.push(Operation::new("T*", vec![]));
                operations.push(Operation::new("Tj", vec![s.clone()]));
            }
            _ => operations.push(op),
        }
    }
    let Ok(bytes) = (Content { operations }).encode() else {
        return;
    };
    let stream = doc.add_object(Stream::new(Dictionary::new(), bytes));
    if let Ok(Object::Dictionary(dict)) = doc.get_object_mut(page) {
        dict.set("Contents", Object::Reference(stream));
    }
}

/// Whether a content stream may hold the `'` or `"` operator: one of the two bytes outside a
/// literal string, a hexadecimal string, a comment and an inline image's data. A cheap scan,
/// so that a content is parsed a second time only where it may need the rewrite (the bytes are
/// common inside strings: fpdf2 writes glyph ids in literal strings). It errs only towards
/// true (a name holding the byte), which costs that parse and no more.
fn may_show_text_by_quotes(content: &[u8]) -> bool {
    let delimiter = |b: u8| b.is_ascii_whitespace() || b"()<>[]{}/%".contains(&b);
    let mut i = 0;
    while i < content.len() {
        match content[i] {
            b'(' => {
                // A literal string: balanced parentheses, a backslash escapes the next byte.
                let mut depth = 1;
                i += 1;
                while i < content.len() && depth > 0 {
                    match content[i] {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                continue;
            }
            b'<' if content.get(i + 1) != Some(&b'<') => {
                // A hexadecimal string, up to its `>`.
                while i < content.len() && content[i] != b'>' {
                    i += 1;
                }
            }
            b'%' => {
                while i < content.len() && content[i] != b'\n' && content[i] != b'\r' {
                    i += 1;
                }
            }
            b'I' if content.get(i + 1) == Some(&b'D')
                && (i == 0 || delimiter(content[i - 1]))
                && content.get(i + 2).is_some_and(|&b| b.is_ascii_whitespace()) =>
            {
                // An inline image's data, up to `EI` standing alone.
                i += 3;
                while i + 2 < content.len()
                    && !(content[i..].starts_with(b"EI")
                        && delimiter(content[i - 1])
                        && content.get(i + 2).is_none_or(|&b| delimiter(b)))
                {
                    i += 1;
                }
            }
            b'\'' | b'"' => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// One page's extracted text by the module's rules: spaces inside a line folded, lines
/// trimmed, blank-line runs as one blank line, none at the ends.
pub fn clean_page(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut blank_before = false;
    for line in raw.lines() {
        let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            blank_before = !out.is_empty();
            continue;
        };
        if !out.is_empty() {
            out.push_str(if blank_before { "\n\n" } else { "\n" });
        }
        blank_before = false;
        out.push_str(first);
        for w in words {
            out.push(' ');
            out.push_str(w);
        }
    }
    out
}

/// The pages' texts joined by a blank line, and the byte offset where each page starts: a
/// page with text starts at its first byte (the blank line before it belongs to the page
/// before); a page without text starts where the next text starts (or at the end), so that
/// the page of a byte is the last page starting at or before it.
pub fn join_pages<'a>(pages: impl IntoIterator<Item = &'a str>) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    let mut pending = 0; // pages without text waiting for the next start
    for page in pages {
        if page.is_empty() {
            pending += 1;
            continue;
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        starts.extend(std::iter::repeat_n(text.len(), pending + 1));
        pending = 0;
        text.push_str(page);
    }
    starts.extend(std::iter::repeat_n(text.len(), pending));
    (text, starts)
}

/// Empties every image object's data (`/Subtype /Image` streams keep their dictionary, so
/// they are still counted). pdf-extract runs every XObject a page draws (`Do`) as a form, so
/// it would parse an image's pixels as drawing operators: time spent on megabytes of pixels,
/// and a panic where the pixels happen to spell an operator without its operands (measured on
/// `bench/lib/pdf.mjs`'s image pages, about one page in ninety). Pixels are never text.
fn empty_images(doc: &mut Document) {
    for object in doc.objects.values_mut() {
        if let Object::Stream(stream) = object {
            let image = stream
                .dict
                .get(b"Subtype")
                .and_then(Object::as_name)
                .is_ok_and(|t| t == b"Image");
            if image {
                stream.set_plain_content(Vec::new());
            }
        }
    }
}

/// Image objects (`/Subtype /Image` XObjects) in a page's resources (its own, or inherited
/// from the page tree); 0 when they cannot be read.
fn page_images(doc: &Document, page: ObjectId) -> usize {
    let mut node = doc.get_dictionary(page).ok();
    // The page tree is shallow; the bound only guards against a cycle of Parent links.
    for _ in 0..32 {
        let Some(dict) = node else { return 0 };
        if let Some(resources) = dict.get(b"Resources").ok().and_then(|r| dictionary(doc, r)) {
            let Some(xobjects) = resources
                .get(b"XObject")
                .ok()
                .and_then(|x| dictionary(doc, x))
            else {
                return 0;
            };
            return xobjects
                .iter()
                .filter(|(_, x)| {
                    resolve(doc, x)
                        .and_then(|o| o.as_stream().ok())
                        .and_then(|s| s.dict.get(b"Subtype").ok())
                        .and_then(|t| t.as_name().ok())
                        == Some(b"Image".as_slice())
                })
                .count();
        }
        node = dict.get(b"Parent").ok().and_then(|p| dictionary(doc, p));
    }
    0
}

/// `object`, or the object it refers to.
fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    match object {
        Object::Reference(id) => doc.get_object(*id).ok(),
        other => Some(other),
    }
}

/// `object` (or the object it refers to) as a dictionary.
fn dictionary<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a pdf_extract::Dictionary> {
    resolve(doc, object).and_then(|o| o.as_dict().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_folds_spaces_and_keeps_one_blank_line_between_paragraphs() {
        assert_eq!(
            clean_page("\n\n  The  Moonstone \t by\nCollins\n\n\n\nPart  one \n \n"),
            "The Moonstone by\nCollins\n\nPart one"
        );
        assert_eq!(clean_page("\n \n"), "");
    }

    #[test]
    fn a_document_without_text_is_a_scan_unless_no_page_could_be_read() {
        let page = |text: &str, readable| Page {
            text: text.to_owned(),
            images: 1,
            readable,
            glyphs_without_text: 0,
        };
        assert_eq!(
            assemble(&[page("", true), page("", false)], None, 0),
            Err(ExtractError::NoTextLayer { pages: 2 })
        );
        assert_eq!(
            assemble(&[page("", false), page("", false)], None, 0),
            Err(ExtractError::PagesUnreadable { pages: 2 })
        );
        let read = assemble(&[page("", true), page("x", true), page("", false)], None, 0);
        let read = read.expect("one page has text");
        assert_eq!(
            (read.pages_without_text, read.pages_unreadable, read.images),
            (1, 1, 3)
        );
        assert_eq!((read.text.as_str(), read.page_starts), ("x", vec![0, 0, 1]));
    }

    /// A one-page PDF in Helvetica whose content shows `text` and draws an image whose
    /// pixels are the bytes `pixels`.
    fn pdf_with_image(text: &str, pixels: &[u8]) -> Vec<u8> {
        let content = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET q 9 0 0 9 9 9 cm /Im1 Do Q");
        let mut objects: Vec<Vec<u8>> = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> /XObject << /Im1 5 0 R >> >> /Contents 6 0 R >>".to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        ];
        let mut image = format!(
            "<< /Type /XObject /Subtype /Image /Width {} /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length {} >>\nstream\n",
            pixels.len(),
            pixels.len()
        )
        .into_bytes();
        image.extend_from_slice(pixels);
        image.extend_from_slice(b"\nendstream");
        objects.push(image);
        objects.push(
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )
            .into_bytes(),
        );
        pdf_of(&objects)
    }

    /// `pdf` with object `number` (`body`) appended as an incremental update: a new section
    /// whose cross-reference table names it, its trailer pointing at the first one.
    fn append_object(pdf: &[u8], number: usize, body: &str) -> Vec<u8> {
        let text = String::from_utf8_lossy(pdf);
        let prev: usize = text
            .rsplit("startxref\n")
            .next()
            .and_then(|t| t.lines().next())
            .and_then(|n| n.trim().parse().ok())
            .expect("a startxref");
        let mut out = pdf.to_vec();
        let at = out.len();
        out.extend_from_slice(format!("{number} 0 obj\n{body}\nendobj\n").as_bytes());
        let xref = out.len();
        out.extend_from_slice(
            format!(
                "xref\n{number} 1\n{at:010} 00000 n \ntrailer\n<< /Size {} /Root 1 0 R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n",
                number + 1
            )
            .as_bytes(),
        );
        out
    }

    /// A PDF of `objects` (numbered from 1, the first the catalog) with its cross-reference
    /// table.
    fn pdf_of(objects: &[Vec<u8>]) -> Vec<u8> {
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    #[test]
    fn an_images_pixels_are_never_read_as_drawing_operators() {
        // Pixels that spell `w`, an operator pdf-extract reads with one operand: run as a
        // form, the image would make it panic and the page's text would be lost.
        let read = extract(&pdf_with_image("Beside the picture", b"w")).expect("a PDF");
        assert_eq!(read.text, "Beside the picture");
        assert_eq!((read.images, read.pages_unreadable), (1, 0));
    }

    /// A page tree of two pages: object 2 is the root, whose `/Kids` are `kids`; 3 is page A
    /// (its own resources); 4 an inner node whose `/Kids` are `inner`, holding the font
    /// resources that page B (7, no resources of its own) inherits.
    fn pdf_with_tree(kids: &str, inner: &str) -> Vec<u8> {
        let content = |text: &str| {
            let c = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
            format!("<< /Length {} >>\nstream\n{c}\nendstream", c.len()).into_bytes()
        };
        pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!("<< /Type /Pages /Kids {kids} /Count 2 >>").into_bytes(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>".to_vec(),
            format!("<< /Type /Pages /Parent 2 0 R /Kids {inner} /Count 1 /Resources << /Font << /F1 5 0 R >> >> /MediaBox [0 0 595 842] >>").into_bytes(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
            content("Page A."),
            b"<< /Type /Page /Parent 4 0 R /Contents 8 0 R >>".to_vec(),
            content("Page B."),
        ])
    }

    #[test]
    fn a_page_tree_with_a_cycle_reads_each_page_once_and_says_so() {
        // Loops before, between and after the pages, a node listed twice, a page listed twice:
        // each page read once, in order, page B with the resources it inherits.
        for (kids, inner, text) in [
            ("[2 0 R 3 0 R 4 0 R]", "[7 0 R]", "Page A.\n\nPage B."),
            ("[3 0 R 4 0 R]", "[2 0 R 7 0 R]", "Page A.\n\nPage B."),
            ("[3 0 R 4 0 R 2 0 R]", "[7 0 R 4 0 R]", "Page A.\n\nPage B."),
            ("[4 0 R 3 0 R 4 0 R]", "[7 0 R]", "Page B.\n\nPage A."),
            ("[3 0 R 3 0 R]", "[]", "Page A."),
        ] {
            let read = extract(&pdf_with_tree(kids, inner)).expect("pages");
            assert_eq!(read.text, text, "{kids} {inner}");
            assert_eq!(read.pages(), text.matches("Page").count(), "{kids} {inner}");
            assert!(
                read.pages_repeated > 0,
                "{kids} {inner}: the repeat is reported"
            );
        }
        // `/Kids` as a reference to an array, looping (object 9 holds the root's kids).
        let mut indirect = pdf_with_tree("9 0 R", "[7 0 R 2 0 R]");
        indirect = append_object(&indirect, 9, "[3 0 R 2 0 R 4 0 R]");
        let read = extract(&indirect).expect("pages");
        assert_eq!(read.text, "Page A.\n\nPage B.");
        assert!(read.pages_repeated > 0);
        // A page carrying stray `/Kids` that point back to the root is a page all the same.
        let stray = pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /Kids [2 0 R] /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
            b"<< /Length 38 >>\nstream\nBT /F1 12 Tf 72 720 Td (Stray.) Tj ET\nendstream".to_vec(),
        ]);
        assert_eq!(extract(&stray).expect("one page").text, "Stray.");
        // A tree that names no page, only itself or an inner node naming the root: no pages.
        for (kids, inner) in [("[2 0 R]", "[]"), ("[4 0 R]", "[2 0 R]")] {
            assert_eq!(
                extract(&pdf_with_tree(kids, inner)),
                Err(ExtractError::NoPages),
                "{kids} {inner}"
            );
        }
        // A well-formed tree is read as lopdf reads it, and repeats nothing.
        let plain = extract(&pdf_with_tree("[3 0 R 4 0 R]", "[7 0 R]")).expect("pages");
        assert_eq!(
            (plain.text.as_str(), plain.pages(), plain.pages_repeated),
            ("Page A.\n\nPage B.", 2, 0)
        );
    }

    /// A one-page PDF whose content is `content`, with `/F1` Helvetica and `/F2` a CID font
    /// (Identity-H) whose `/W` is `widths` and `/DW` 100, mapping CIDs 1, 2 and 3 to "a", "b"
    /// and "c" and CID 4 to nothing.
    fn pdf_with_cid_font(content: &str, widths: &str) -> Vec<u8> {
        let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def \
            1 begincodespacerange <0000> <FFFF> endcodespacerange 3 beginbfchar <0001> <0061> \
            <0002> <0062> <0003> <0063> endbfchar endcmap CMapName currentdict /CMap \
            defineresource pop end end";
        let stream = |body: &str| {
            format!("<< /Length {} >>\nstream\n{body}\nendstream", body.len()).into_bytes()
        };
        pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>".to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
            b"<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H /DescendantFonts [8 0 R] /ToUnicode 7 0 R >>".to_vec(),
            stream(content),
            stream(cmap),
            format!("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 9 0 R /DW 100 /W {widths} >>").into_bytes(),
            b"<< /Type /FontDescriptor /FontName /Test /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>".to_vec(),
        ])
    }

    #[test]
    fn a_cid_fonts_width_ranges_are_its_glyphs_widths() {
        // "a" ends where the second string starts, 0.6 em (12 units at 20 pt) to the right:
        // no gap, when "a" is read 0.6 em wide, not the default 0.1 em.
        let content = "BT /F2 20 Tf 72 720 Td <0001> Tj 12 0 Td <0002> Tj 12 0 Td <0003> Tj ET";
        for widths in ["[1 3 600]", "[1 [600 600] 3 3 600]", "[1 [600 600 600]]"] {
            let read = extract(&pdf_with_cid_font(content, widths)).expect("a PDF");
            assert_eq!(read.text, "abc", "{widths}");
        }
        // A gap of a word space (0.3 em) is one.
        let spaced = "BT /F2 20 Tf 72 720 Td <0001> Tj 18 0 Td <0002> Tj ET";
        let read = extract(&pdf_with_cid_font(spaced, "[1 3 600]")).expect("a PDF");
        assert_eq!(read.text, "a b");
        assert_eq!(
            widths_as_lists(&[
                1.into(),
                2.into(),
                500.into(),
                4.into(),
                vec![7.into()].into()
            ]),
            Some(vec![
                1.into(),
                vec![500.into(), 500.into()].into(),
                4.into(),
                vec![7.into()].into()
            ])
        );
        // Lists only, a range backwards, a range too long, a range cut short: left as they are.
        assert_eq!(widths_as_lists(&[1.into(), vec![7.into()].into()]), None);
        assert_eq!(widths_as_lists(&[3.into(), 1.into(), 500.into()]), None);
        assert_eq!(
            widths_as_lists(&[0.into(), (1i64 << 20).into(), 500.into()]),
            None
        );
        assert_eq!(widths_as_lists(&[1.into(), 2.into()]), None);
        // Ranges whose numbers overflow are refused, not wrapped.
        assert_eq!(
            widths_as_lists(&[0.into(), i64::MAX.into(), 500.into()]),
            None
        );
        assert_eq!(
            widths_as_lists(&[i64::MIN.into(), 5.into(), 500.into()]),
            None
        );
    }

    #[test]
    fn a_glyph_its_font_maps_to_no_text_is_counted() {
        let content = "BT /F2 20 Tf 72 720 Td <0001000400020004> Tj ET";
        let read = extract(&pdf_with_cid_font(content, "[1 4 600]")).expect("a PDF");
        assert_eq!((read.text.as_str(), read.glyphs_without_text), ("ab", 2));
    }

    #[test]
    fn only_a_quote_outside_strings_comments_and_image_data_may_be_an_operator() {
        for (content, may) in [
            (&b"BT (It's \\) \"so\") Tj ET"[..], false),
            (b"BT <2722> Tj % it's\n[(a) -250 (\"b\")] TJ ET", false),
            (b"BI /W 1 /H 1 ID '\" EI Q", false),
            (b"BT (a) Tj (b) ' ET", true),
            (b"BT 1 2 (c)\" ET", true),
            (b"<< /A 1 >> BDC (x) Tj EMC (y)'", true),
        ] {
            assert_eq!(
                may_show_text_by_quotes(content),
                may,
                "{}",
                String::from_utf8_lossy(content)
            );
        }
    }

    #[test]
    fn text_shown_by_the_quote_operators_is_read_on_its_own_lines() {
        let content = "BT /F1 12 Tf 14 TL 72 720 Td (First line) Tj (Second line) ' \
                       2 1 (Third line) \" ET";
        let read = extract(&pdf_with_cid_font(content, "[]")).expect("a PDF");
        assert_eq!(read.text, "First line\nSecond line\nThird line");
    }

    #[test]
    fn pages_without_text_start_where_the_next_text_starts() {
        let (text, starts) = join_pages(["", "one", "", "", "two", ""]);
        assert_eq!(text, "one\n\ntwo");
        assert_eq!(starts, [0, 0, 5, 5, 5, 8]);
        let (text, starts) = join_pages([]);
        assert_eq!((text.as_str(), starts.len()), ("", 0));
    }
}
