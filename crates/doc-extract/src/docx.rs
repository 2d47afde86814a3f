//! The text of a Word document (`.docx`): the body of `word/document.xml` in order, with
//! headings, list items and tables as markdown-like structure (the crate's rules).

use std::collections::HashMap;
use std::io::{Cursor, Read};

use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::Reader;

use crate::writer::Writer;
use crate::{ExtractError, Extracted, MAX_PART_BYTES};

/// The first bytes of an OLE compound file: an encrypted DOCX or a binary `.doc`.
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Deepest `basedOn` chain followed when a style's heading level or numbering is inherited.
const MAX_STYLE_CHAIN: usize = 16;

/// One paragraph style of `word/styles.xml`.
#[derive(Default)]
struct Style {
    /// `w:name`, lowercase ("heading 1", "title", "list bullet").
    name: String,
    /// The style numbers its paragraphs (`w:numPr` in its `w:pPr`).
    numbered: bool,
    /// `w:basedOn`: the style it inherits from.
    based_on: Option<String>,
}

/// The styles by id, and what a paragraph of each style is.
struct Styles(HashMap<String, Style>);

impl Styles {
    /// The heading level of style `id`: N for "heading N" (1–9), 1 for "title", else that of
    /// the style it is based on.
    fn heading_level(&self, id: &str) -> Option<usize> {
        let mut id = id;
        for _ in 0..MAX_STYLE_CHAIN {
            let style = self.0.get(id)?;
            if style.name == "title" {
                return Some(1);
            }
            if let Some(n) = style.name.strip_prefix("heading ") {
                if let Ok(level @ 1..=9) = n.trim().parse::<usize>() {
                    return Some(level.min(6));
                }
            }
            id = style.based_on.as_deref()?;
        }
        None
    }

    /// True when style `id` (or one it is based on) numbers its paragraphs.
    fn numbered(&self, id: &str) -> bool {
        let mut id = id;
        for _ in 0..MAX_STYLE_CHAIN {
            let Some(style) = self.0.get(id) else {
                return false;
            };
            if style.numbered {
                return true;
            }
            match style.based_on.as_deref() {
                Some(next) => id = next,
                None => return false,
            }
        }
        false
    }
}

/// The value of attribute `name` (qualified, `w:val`) of `e`.
fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

/// The text of an entity or character reference inside `w:t` (`&amp;`, `&#233;`).
fn reference(r: &BytesRef<'_>) -> Option<String> {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return Some(c.to_string());
    }
    quick_xml::escape::resolve_predefined_entity(r).map(str::to_owned)
}

/// Reads part `name` of the archive as UTF-8, at most [`MAX_PART_BYTES`].
fn read_part(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
) -> Result<Option<String>, ExtractError> {
    let file = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => {
            return Err(ExtractError::Damaged {
                part: name.to_owned(),
                detail: e.to_string(),
            })
        }
    };
    let mut bytes = Vec::new();
    file.take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ExtractError::Damaged {
            part: name.to_owned(),
            detail: e.to_string(),
        })?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(ExtractError::TooLarge);
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| ExtractError::Xml {
            offset: e.utf8_error().valid_up_to() as u64,
            message: "not UTF-8".to_owned(),
        })
}

fn xml_error(reader: &Reader<&[u8]>, e: impl std::fmt::Display) -> ExtractError {
    ExtractError::Xml {
        offset: reader.error_position(),
        message: e.to_string(),
    }
}

/// Reads `word/styles.xml`: each paragraph style's name, numbering and parent.
fn styles(xml: &str) -> Result<Styles, ExtractError> {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut styles = HashMap::new();
    let mut current: Option<(String, Style)> = None;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "w:style" => {
                    current = attr(e, "w:styleId").map(|id| (id, Style::default()));
                }
                "w:name" => {
                    if let (Some((_, s)), Some(v)) = (current.as_mut(), attr(e, "w:val")) {
                        s.name = v.to_lowercase();
                    }
                }
                "w:basedOn" => {
                    if let Some((_, s)) = current.as_mut() {
                        s.based_on = attr(e, "w:val");
                    }
                }
                "w:numPr" => {
                    if let Some((_, s)) = current.as_mut() {
                        s.numbered = true;
                    }
                }
                _ => {}
            },
            Event::End(e) if e.name().as_ref() == "w:style" => {
                if let Some((id, s)) = current.take() {
                    styles.insert(id, s);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(Styles(styles))
}

/// What is known of the paragraph being read.
#[derive(Default)]
struct Paragraph {
    style: Option<String>,
    /// `w:numPr` with a numbering other than 0 on the paragraph itself.
    numbered: Option<bool>,
    /// Its first text has been written (with the heading or list marker before it).
    started: bool,
}

/// Extracts the Word document in `bytes` (a `.docx` file's content).
///
/// # Errors
/// [`ExtractError::Encrypted`] for an OLE compound file (a password-protected DOCX or an old
/// `.doc`), [`ExtractError::NotZip`] for anything else that is not a zip archive,
/// [`ExtractError::Damaged`] for a part that does not inflate,
/// [`ExtractError::NoDocument`] without `word/document.xml`, [`ExtractError::TooLarge`] and
/// [`ExtractError::Xml`] for a part too large or not well-formed.
pub fn extract(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    if bytes.starts_with(OLE_MAGIC) {
        return Err(ExtractError::Encrypted);
    }
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ExtractError::NotZip {
        detail: e.to_string(),
    })?;
    let document = read_part(&mut zip, "word/document.xml")?.ok_or(ExtractError::NoDocument)?;
    let styles = match read_part(&mut zip, "word/styles.xml")? {
        Some(xml) => styles(&xml)?,
        None => Styles(HashMap::new()),
    };
    body(&document, &styles)
}

/// Walks the body of `document.xml`.
fn body(document: &str, styles: &Styles) -> Result<Extracted, ExtractError> {
    let mut reader = Reader::from_reader(document.as_bytes());
    let mut w = Writer::default();
    let mut found = Extracted::default();
    let mut para: Option<Paragraph> = None;
    // The last paragraph written was a list item (list items follow each other line by line).
    let mut last_was_item = false;
    let mut in_text = false;
    let mut run_depth = 0usize;
    // Open tables, innermost last: cells written in the current row.
    let mut tables: Vec<usize> = Vec::new();
    // Depth inside a drawing, a VML picture or alternate content: its text is not the body's.
    let mut skip_depth = 0usize;

    // Writes the paragraph's block break and marker before its first text.
    let start_text = |w: &mut Writer,
                      para: &mut Option<Paragraph>,
                      found: &mut Extracted,
                      last_was_item: &mut bool,
                      in_table: bool| {
        let Some(p) = para.as_mut() else { return };
        if p.started {
            return;
        }
        p.started = true;
        if in_table {
            w.text(" ");
            return;
        }
        let style = p.style.as_deref().unwrap_or("");
        let level = styles.heading_level(style);
        let item = level.is_none() && p.numbered.unwrap_or_else(|| styles.numbered(style));
        if let Some(level) = level {
            found.headings += 1;
            w.end_line(2);
            w.marker(&format!("{} ", "#".repeat(level)));
        } else if item {
            found.list_items += 1;
            w.end_line(if *last_was_item { 1 } else { 2 });
            w.marker("- ");
        } else {
            w.end_line(2);
        }
        *last_was_item = item;
    };

    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        if skip_depth > 0 {
            match &event {
                Event::Start(_) => skip_depth += 1,
                Event::End(_) => skip_depth -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.name().as_ref() {
                    "w:drawing" | "w:pict" | "mc:AlternateContent" => {
                        found.images += 1;
                        if !empty {
                            skip_depth = 1;
                        }
                    }
                    "w:p" if !empty => para = Some(Paragraph::default()),
                    "w:pStyle" => {
                        if let Some(p) = para.as_mut() {
                            p.style = attr(e, "w:val");
                        }
                    }
                    "w:numId" => {
                        if let Some(p) = para.as_mut() {
                            p.numbered = Some(attr(e, "w:val").is_some_and(|v| v != "0"));
                        }
                    }
                    "w:r" if !empty => run_depth += 1,
                    "w:t" if !empty && run_depth > 0 => {
                        in_text = true;
                        start_text(
                            &mut w,
                            &mut para,
                            &mut found,
                            &mut last_was_item,
                            !tables.is_empty(),
                        );
                    }
                    "w:tab" if run_depth > 0 => {
                        start_text(
                            &mut w,
                            &mut para,
                            &mut found,
                            &mut last_was_item,
                            !tables.is_empty(),
                        );
                        w.raw("\t");
                    }
                    "w:br" | "w:cr" if run_depth > 0 => {
                        start_text(
                            &mut w,
                            &mut para,
                            &mut found,
                            &mut last_was_item,
                            !tables.is_empty(),
                        );
                        if tables.is_empty() {
                            w.end_line(1);
                        } else {
                            w.text(" ");
                        }
                    }
                    "w:noBreakHyphen" if run_depth > 0 => {
                        start_text(
                            &mut w,
                            &mut para,
                            &mut found,
                            &mut last_was_item,
                            !tables.is_empty(),
                        );
                        w.text("-");
                    }
                    "w:tbl" if !empty => {
                        found.tables += 1;
                        if tables.is_empty() {
                            w.end_line(2);
                        }
                        tables.push(0);
                        last_was_item = false;
                    }
                    "w:tr" if !empty => {
                        w.end_line(1);
                        if let Some(cells) = tables.last_mut() {
                            *cells = 0;
                        }
                    }
                    "w:tc" if !empty => {
                        if let Some(cells) = tables.last_mut() {
                            if *cells > 0 {
                                w.separator(" | ");
                            }
                            *cells += 1;
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_text => {
                w.text(t);
            }
            Event::GeneralRef(r) if in_text => {
                if let Some(text) = reference(r) {
                    w.text(&text);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:r" => run_depth = run_depth.saturating_sub(1),
                "w:p" => {
                    para = None;
                }
                "w:tbl" => {
                    tables.pop();
                    w.end_line(if tables.is_empty() { 2 } else { 1 });
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    found.text = w.finish();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: &str = r#"<w:styles xmlns:w="w">
        <w:style w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style>
        <w:style w:styleId="Mine"><w:name w:val="My heading"/><w:basedOn w:val="Heading2"/></w:style>
        <w:style w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
        <w:style w:styleId="Normal"><w:name w:val="Normal"/></w:style>
    </w:styles>"#;

    fn run(body_xml: &str) -> Extracted {
        let doc = format!(r#"<w:document xmlns:w="w"><w:body>{body_xml}</w:body></w:document>"#);
        body(&doc, &styles(STYLES).unwrap()).unwrap()
    }

    #[test]
    fn headings_by_style_lists_by_numbering_and_tables_by_row() {
        let e = run(concat!(
            r#"<w:p><w:pPr><w:pStyle w:val="Mine"/><w:tabs><w:tab w:pos="1"/></w:tabs></w:pPr><w:r><w:t>Head</w:t></w:r></w:p>"#,
            r#"<w:p><w:r><w:t xml:space="preserve">Hel</w:t></w:r><w:r><w:t>lo &amp; bye</w:t><w:tab/><w:t>x</w:t><w:br/><w:t>y</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:pStyle w:val="ListBullet"/></w:pPr><w:r><w:t>one</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>two</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:pStyle w:val="ListBullet"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>not</w:t></w:r></w:p>"#,
            r#"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p><w:p><w:r><w:t>a2</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>"#,
            r#"<w:tr><w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>"#,
            r#"<w:p><w:r><w:delText>gone</w:delText><w:instrText>PAGE</w:instrText><w:drawing><w:t>box</w:t></w:drawing><w:t>end</w:t></w:r></w:p>"#,
        ));
        assert_eq!(
            e.text,
            "## Head\n\nHello & bye\tx\ny\n\n- one\n- two\n\nnot\n\na a2 | b\nc |\n\nend"
        );
        assert_eq!((e.headings, e.list_items, e.tables, e.images), (1, 2, 1, 1));
    }

    #[test]
    fn what_is_not_a_docx_gets_its_reason() {
        assert_eq!(
            extract(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest"),
            Err(ExtractError::Encrypted)
        );
        assert!(matches!(
            extract(b"plain text"),
            Err(ExtractError::NotZip { .. })
        ));
        assert!(matches!(extract(b""), Err(ExtractError::NotZip { .. })));
        let bad = "<w:document><w:body><w:p></w:body>";
        assert!(matches!(
            body(bad, &Styles(HashMap::new())),
            Err(ExtractError::Xml { .. })
        ));
    }

    /// A zip holding `parts` (name, content), stored uncompressed.
    fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
        use std::io::Write;
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (name, content) in parts {
            out.start_file(*name, options).unwrap();
            out.write_all(content).unwrap();
        }
        out.finish().unwrap().into_inner()
    }

    #[test]
    fn an_archive_without_a_document_or_with_a_damaged_one_is_refused() {
        assert_eq!(
            extract(&zip_of(&[("word/other.xml", b"<x/>")])),
            Err(ExtractError::NoDocument)
        );
        let xml = br#"<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Moonstone</w:t></w:r></w:p></w:body></w:document>"#;
        let good = zip_of(&[("word/document.xml", xml)]);
        assert_eq!(extract(&good).unwrap().text, "Moonstone");
        // One byte of the stored part changed: its CRC-32 no longer matches.
        let mut bad = good.clone();
        let at = bad.windows(9).position(|w| w == b"Moonstone").unwrap();
        bad[at] = b'N';
        assert!(matches!(
            extract(&bad),
            Err(ExtractError::Damaged { ref part, .. }) if part == "word/document.xml"
        ));
    }
}
