//! The text of a Word document (`.docx`) as Word shows it: the body of `word/document.xml` in
//! order, with headings, list items, code and tables as markdown-like structure, and the
//! footnotes and endnotes after it. The rules (ECMA-376 Part 1, "WordprocessingML"):
//!
//! - **Headings** by their paragraph style's name (`w:name` "heading N", "Title"), through
//!   `w:basedOn`.
//! - **Lists** by numbering (§17.9): a paragraph's `w:numPr` (`w:numId`, `w:ilvl`), or its
//!   style's; `w:numId` 0 is "not a list". The level (`w:ilvl`, 0–8) is written as 2 spaces of
//!   indentation per level; the marker is `- ` for a `bullet` or `none` level and `N. ` for
//!   every numbered format (decimal, letters, roman, …: markdown's ordered list knows digits
//!   only, so "a." and "iv." are written "1." and "4."), N being Word's counter: counters belong
//!   to the `w:abstractNum` (so two `w:num` of one list continue each other, as Word and
//!   LibreOffice number them), start at the level's `w:start`, a `w:num`'s
//!   `w:lvlOverride/w:startOverride` restarts its level where that `w:num` is first used, and a
//!   level restarts after any shallower item (Word's default `w:lvlRestart`). An empty numbered
//!   paragraph takes its number (Word shows it) but writes nothing.
//! - **Code**: a paragraph whose style (or one it is based on) is named like code ("code",
//!   "source code" — pandoc's —, "html preformatted", "plain text", "macro" — Word's "Macro
//!   Text" —, "preformatted text" — LibreOffice's) or whose text runs are all in a monospace font
//!   (`w:rFonts` `w:ascii`, from the run, its character style or the paragraph style: Courier,
//!   Consolas, Menlo, Monaco, Lucida Console, Inconsolata, any "… Mono" or "… Code"). Its text
//!   keeps its whitespace where `xml:space="preserve"` says so (a `w:t` without it loses leading
//!   and trailing whitespace, as Word drops it), tabs as tabs and `w:br` as a line break.
//!   Consecutive code paragraphs, with the empty paragraphs between them as blank lines, are one
//!   fenced block (` ``` `, longer than any backtick run inside). A heading or a list item is
//!   never code, and neither is a table cell's paragraph.
//! - **Tables** one line per row, cells joined by ` | `.
//! - **Footnotes and endnotes** (§17.11) are written where they are referenced as `[^N]` and,
//!   after the body, as `[^N]: text` lines (a note's further paragraphs on lines indented by
//!   4 spaces), N counting both kinds together in order of first reference, as pandoc writes
//!   them; separator notes and notes never referenced are not text. Counted in
//!   [`Extracted::notes`].
//! - **Left out**: headers and footers (§17.10: they repeat on every page, and python-docx
//!   leaves them out of the body too) and comments (§17.13.4: reviewers' notes, not the text),
//!   counted in [`Extracted::headers_footers`] and [`Extracted::comments`]; deleted text
//!   (`w:delText`), field codes (`w:instrText`), drawings, pictures and alternate content (their
//!   text boxes among them; counted as images), and formatting history (`w:rPrChange`,
//!   `w:pPrChange`: an old style or numbering is not the paragraph's).

use std::collections::{HashMap, HashSet};
use std::io::{Cursor, Read};

use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::Reader;

use crate::writer::{fence_for, Writer};
use crate::{ExtractError, Extracted, MAX_PART_BYTES};

/// The first bytes of an OLE compound file: an encrypted DOCX or a binary `.doc`.
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Deepest `basedOn` chain followed when a style's heading level, numbering or font is
/// inherited.
const MAX_STYLE_CHAIN: usize = 16;

/// List levels: `w:ilvl` is 0–8 (ECMA-376 Part 1, §17.9.3); a larger value is read as 8.
const LEVELS: usize = 9;

/// One style of `word/styles.xml` (paragraph or character style).
#[derive(Default)]
struct Style {
    /// `w:name`, lowercase ("heading 1", "title", "list bullet").
    name: String,
    /// `w:numId` of the style's `w:numPr` ("0": numbering removed).
    num_id: Option<String>,
    /// `w:ilvl` of the style's `w:numPr`.
    ilvl: Option<usize>,
    /// The font of its `w:rPr`: `w:rFonts` `w:ascii`, else `w:hAnsi`.
    font: Option<String>,
    /// `w:basedOn`: the style it inherits from.
    based_on: Option<String>,
}

/// The styles by id, and what a paragraph or run of each style is.
struct Styles(HashMap<String, Style>);

impl Styles {
    /// Style `id` and the styles it is based on, nearest first (at most [`MAX_STYLE_CHAIN`]).
    fn chain(&self, id: &str) -> Vec<&Style> {
        let mut out = Vec::new();
        let mut next = self.0.get(id);
        while let Some(style) = next {
            if out.len() == MAX_STYLE_CHAIN {
                break;
            }
            out.push(style);
            next = style.based_on.as_deref().and_then(|b| self.0.get(b));
        }
        out
    }

    /// The heading level of style `id`: N for "heading N" (1–9, written at most 6), 1 for
    /// "title", else that of the style it is based on.
    fn heading_level(&self, id: &str) -> Option<usize> {
        self.chain(id).into_iter().find_map(|style| {
            if style.name == "title" {
                return Some(1);
            }
            let n = style.name.strip_prefix("heading ")?;
            match n.trim().parse::<usize>() {
                Ok(level @ 1..=9) => Some(level.min(6)),
                _ => None,
            }
        })
    }

    /// The numbering style `id` gives its paragraphs (`w:numId`, `w:ilvl`), from the nearest
    /// style in its chain that has a `w:numPr` with a `w:numId`.
    fn numbering(&self, id: &str) -> (Option<&str>, Option<usize>) {
        self.chain(id)
            .into_iter()
            .find_map(|s| s.num_id.as_deref().map(|n| (Some(n), s.ilvl)))
            .unwrap_or((None, None))
    }

    /// True when style `id` or one it is based on is named like a code style.
    fn code(&self, id: &str) -> bool {
        self.chain(id).into_iter().any(|s| code_style_name(&s.name))
    }

    /// The font style `id` sets, from the nearest style in its chain that sets one.
    fn font(&self, id: &str) -> Option<&str> {
        self.chain(id).into_iter().find_map(|s| s.font.as_deref())
    }
}

/// True for a style name (lowercase) that Word, LibreOffice or pandoc give to code or
/// preformatted text: "html preformatted", "plain text", "macro" (Word's "Macro Text"),
/// "preformatted text" (LibreOffice), "source code" (pandoc), or any name with a word
/// starting "code" ("Code", "Code Block", "codeblock").
fn code_style_name(name: &str) -> bool {
    const NAMES: [&str; 6] = [
        "html preformatted",
        "plain text",
        "macro",
        "macro text",
        "preformatted text",
        "source code",
    ];
    NAMES.contains(&name)
        || name
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.starts_with("code"))
}

/// True for a monospace font name: a word among Courier, Consolas, Console (Lucida Console),
/// Menlo, Monaco, Inconsolata, Typewriter, Mono / Monospace ("Liberation Mono", "DejaVu Sans
/// Mono"), Code ("Source Code Pro", "Fira Code"), or a name ending "mono" ("SFMono").
fn monospace(font: &str) -> bool {
    const WORDS: [&str; 11] = [
        "courier",
        "consolas",
        "console",
        "menlo",
        "monaco",
        "inconsolata",
        "typewriter",
        "mono",
        "monospace",
        "monospaced",
        "code",
    ];
    let lower = font.to_lowercase();
    lower.ends_with("mono")
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| WORDS.contains(&w))
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

/// The font named by a `w:rFonts` element: `w:ascii`, else `w:hAnsi` (theme fonts are not
/// resolved: no theme's font is monospace).
fn font_of(e: &BytesStart<'_>) -> Option<String> {
    attr(e, "w:ascii").or_else(|| attr(e, "w:hAnsi"))
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

/// Reads `word/styles.xml`: each style's name, numbering, font and parent.
fn styles(xml: &str) -> Result<Styles, ExtractError> {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut styles = HashMap::new();
    let mut current: Option<(String, Style)> = None;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                if e.name().as_ref() == "w:style" {
                    current = attr(e, "w:styleId").map(|id| (id, Style::default()));
                    continue;
                }
                let Some((_, s)) = current.as_mut() else {
                    continue;
                };
                match e.name().as_ref() {
                    "w:name" => {
                        if let Some(v) = attr(e, "w:val") {
                            s.name = v.to_lowercase();
                        }
                    }
                    "w:basedOn" => s.based_on = attr(e, "w:val"),
                    "w:numId" => s.num_id = attr(e, "w:val"),
                    "w:ilvl" => s.ilvl = attr(e, "w:val").and_then(|v| v.parse().ok()),
                    "w:rFonts" => s.font = font_of(e).or(s.font.take()),
                    _ => {}
                }
            }
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

/// How a list level shows its items (`w:numFmt`, ECMA-376 Part 1, §17.18.59).
#[derive(Clone, Copy, Debug, PartialEq)]
enum NumFormat {
    /// `bullet`.
    Bullet,
    /// `none`: no marker shown.
    Hidden,
    /// Every other format (decimal, letters, roman, ordinal, …): a counter.
    Number,
}

/// One level of an abstract numbering (`w:lvl`).
#[derive(Clone, Copy, Debug)]
struct Level {
    format: NumFormat,
    /// `w:start` (1 when absent).
    start: i64,
}

/// A numbering instance (`w:num`).
struct Num {
    /// `w:abstractNumId`.
    abstract_id: String,
    /// `w:lvlOverride/w:startOverride`: (level, start).
    starts: Vec<(usize, i64)>,
}

/// `word/numbering.xml`: the abstract numberings' levels and the numbering instances.
#[derive(Default)]
struct Numbering {
    abstracts: HashMap<String, [Option<Level>; LEVELS]>,
    nums: HashMap<String, Num>,
}

/// Word's counters while the body is read: per abstract numbering, the last number of each
/// level (`None`: the level starts again), and the `w:num` instances already used.
#[derive(Default)]
struct Counters {
    by_abstract: HashMap<String, [Option<i64>; LEVELS]>,
    used: HashSet<String>,
}

impl Numbering {
    /// The marker of the next item of numbering `num_id` at level `ilvl`, with its indentation
    /// (2 spaces a level): `- ` or `N. `, counting it (see the module's rules). A `num_id`
    /// the numbering part does not define is a bullet.
    fn next(&self, counters: &mut Counters, num_id: &str, ilvl: usize) -> String {
        let level = ilvl.min(LEVELS - 1);
        let indent = "  ".repeat(level);
        let Some(num) = self.nums.get(num_id) else {
            return format!("{indent}- ");
        };
        let def = self
            .abstracts
            .get(&num.abstract_id)
            .and_then(|levels| levels[level]);
        let counts = counters
            .by_abstract
            .entry(num.abstract_id.clone())
            .or_default();
        if counters.used.insert(num_id.to_owned()) {
            for &(l, start) in &num.starts {
                counts[l] = Some(start.saturating_sub(1));
            }
        }
        let n = counts[level].map_or(def.map_or(1, |d| d.start), |c| c.saturating_add(1));
        counts[level] = Some(n);
        for deeper in &mut counts[level + 1..] {
            *deeper = None;
        }
        match def.map_or(NumFormat::Bullet, |d| d.format) {
            NumFormat::Number => format!("{indent}{n}. "),
            NumFormat::Bullet | NumFormat::Hidden => format!("{indent}- "),
        }
    }
}

/// A list level number read from an attribute (0–8).
fn level_of(e: &BytesStart<'_>) -> Option<usize> {
    attr(e, "w:ilvl")
        .and_then(|v| v.parse::<usize>().ok())
        .map(|l| l.min(LEVELS - 1))
}

/// Reads `word/numbering.xml` (ECMA-376 Part 1, §17.9): each `w:abstractNum`'s levels
/// (`w:lvl` with `w:start` and `w:numFmt`) and each `w:num`'s abstract numbering and start
/// overrides.
fn numbering(xml: &str) -> Result<Numbering, ExtractError> {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut out = Numbering::default();
    let mut abstract_num: Option<(String, [Option<Level>; LEVELS])> = None;
    let mut level: Option<(usize, Level)> = None;
    let mut num: Option<(String, Num)> = None;
    let mut override_level: Option<usize> = None;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "w:abstractNum" => {
                    abstract_num = attr(e, "w:abstractNumId").map(|id| (id, [None; LEVELS]));
                }
                "w:lvl" if abstract_num.is_some() && num.is_none() => {
                    level = level_of(e).map(|l| {
                        (
                            l,
                            Level {
                                format: NumFormat::Number,
                                start: 1,
                            },
                        )
                    });
                }
                "w:start" => {
                    if let (Some((_, l)), Some(v)) = (level.as_mut(), attr(e, "w:val")) {
                        l.start = v.parse().unwrap_or(1);
                    }
                }
                "w:numFmt" => {
                    if let (Some((_, l)), Some(v)) = (level.as_mut(), attr(e, "w:val")) {
                        l.format = match v.as_str() {
                            "bullet" => NumFormat::Bullet,
                            "none" => NumFormat::Hidden,
                            _ => NumFormat::Number,
                        };
                    }
                }
                "w:num" => {
                    num = attr(e, "w:numId").map(|id| {
                        (
                            id,
                            Num {
                                abstract_id: String::new(),
                                starts: Vec::new(),
                            },
                        )
                    });
                }
                "w:abstractNumId" => {
                    if let (Some((_, n)), Some(v)) = (num.as_mut(), attr(e, "w:val")) {
                        n.abstract_id = v;
                    }
                }
                "w:lvlOverride" => override_level = level_of(e),
                "w:startOverride" => {
                    let start = attr(e, "w:val").and_then(|v| v.parse().ok());
                    if let (Some((_, n)), Some(l), Some(s)) = (num.as_mut(), override_level, start)
                    {
                        n.starts.push((l, s));
                    }
                }
                _ => {}
            },
            Event::End(e) => match e.name().as_ref() {
                "w:lvl" => {
                    if let (Some((_, levels)), Some((l, def))) =
                        (abstract_num.as_mut(), level.take())
                    {
                        levels[l] = Some(def);
                    }
                }
                "w:abstractNum" => {
                    if let Some((id, levels)) = abstract_num.take() {
                        out.abstracts.insert(id, levels);
                    }
                }
                "w:lvlOverride" => override_level = None,
                "w:num" => {
                    if let Some((id, n)) = num.take() {
                        out.nums.insert(id, n);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The parts `word/_rels/document.xml.rels` relates to the document: (relationship type's
/// last path segment, part name in the archive), internal targets only (OPC, ECMA-376 Part 2).
fn relationships(xml: &str) -> Result<Vec<(String, String)>, ExtractError> {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut out = Vec::new();
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match &event {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == "Relationship" => {
                if attr(e, "TargetMode").is_some_and(|m| m == "External") {
                    continue;
                }
                if let (Some(kind), Some(target)) = (attr(e, "Type"), attr(e, "Target")) {
                    let kind = kind.rsplit('/').next().unwrap_or("").to_owned();
                    out.push((kind, part_name(&target)));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The archive name of a relationship target of `word/document.xml`: relative to `word/`
/// unless it starts with `/`, with `..` resolved.
fn part_name(target: &str) -> String {
    let full = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_owned(),
        None => format!("word/{target}"),
    };
    let mut segments: Vec<&str> = Vec::new();
    for s in full.split('/') {
        match s {
            ".." => {
                segments.pop();
            }
            "." | "" => {}
            s => segments.push(s),
        }
    }
    segments.join("/")
}

/// One `event` inside an element being skipped whole, `depth` levels deep: follows its
/// nesting. True at the end of the part (the caller stops reading).
fn skipped(depth: &mut usize, event: &Event) -> bool {
    match event {
        Event::Start(_) => *depth += 1,
        Event::End(_) => *depth -= 1,
        Event::Eof => return true,
        _ => {}
    }
    false
}

/// A footnote or an endnote, by its kind and `w:id`.
type NoteKey = (NoteKind, String);

/// Footnote or endnote (ECMA-376 Part 1, §17.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum NoteKind {
    Foot,
    End,
}

/// Reads the notes of a `word/footnotes.xml` or `word/endnotes.xml` part (`tag` `w:footnote`
/// or `w:endnote`): each note's id and its paragraphs' text (whitespace collapsed, empty
/// paragraphs dropped), separators (`w:type` other than `normal`) left out.
fn notes(xml: &str, tag: &str) -> Result<HashMap<String, Vec<String>>, ExtractError> {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut out = HashMap::new();
    let mut note: Option<(String, Vec<String>)> = None;
    let mut para: Option<Writer> = None;
    let mut in_text = false;
    let mut skip_depth = 0usize;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        if skip_depth > 0 {
            if skipped(&mut skip_depth, &event) {
                break;
            }
            continue;
        }
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = e.name();
                match name.as_ref() {
                    n if n == tag => {
                        let normal = attr(e, "w:type").is_none_or(|t| t == "normal");
                        note = attr(e, "w:id")
                            .filter(|_| normal && !empty)
                            .map(|id| (id, Vec::new()));
                    }
                    "w:drawing" | "w:pict" | "mc:AlternateContent" if !empty => skip_depth = 1,
                    "w:p" if !empty && note.is_some() => para = Some(Writer::default()),
                    "w:t" if !empty => in_text = true,
                    "w:tab" | "w:br" | "w:cr" | "w:ptab" => {
                        if let Some(w) = para.as_mut() {
                            w.text(" ");
                        }
                    }
                    "w:noBreakHyphen" => {
                        if let Some(w) = para.as_mut() {
                            w.text("-");
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_text => {
                if let Some(w) = para.as_mut() {
                    w.text(t);
                }
            }
            Event::GeneralRef(r) if in_text => {
                if let (Some(w), Some(text)) = (para.as_mut(), reference(r)) {
                    w.text(&text);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:p" => {
                    if let (Some((_, paras)), Some(w)) = (note.as_mut(), para.take()) {
                        let text = w.finish();
                        if !text.is_empty() {
                            paras.push(text);
                        }
                    }
                }
                n if n == tag => {
                    if let Some((id, paras)) = note.take() {
                        out.insert(id, paras);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// True when a header, footer or comments part holds any text (`w:t` with more than
/// whitespace); a part that is not well-formed counts as holding none.
fn has_text(xml: &str) -> bool {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut in_text = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if e.name().as_ref() == "w:t" => in_text = true,
            Ok(Event::End(e)) if e.name().as_ref() == "w:t" => in_text = false,
            Ok(Event::Text(t)) if in_text && !t.trim().is_empty() => return true,
            Ok(Event::GeneralRef(_)) if in_text => return true,
            Ok(Event::Eof) | Err(_) => return false,
            _ => {}
        }
    }
}

/// The comments of a `word/comments.xml` part (`w:comment` elements); 0 for a part that is not
/// well-formed.
fn comment_count(xml: &str) -> usize {
    let mut reader = Reader::from_reader(xml.as_bytes());
    let mut n = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.name().as_ref() == "w:comment" => n += 1,
            Ok(Event::Eof) | Err(_) => return n,
            _ => {}
        }
    }
}

/// Extracts the Word document in `bytes` (a `.docx` file's content), by the module's rules.
///
/// # Errors
/// [`ExtractError::Encrypted`] for an OLE compound file (a password-protected DOCX or an old
/// `.doc`), [`ExtractError::NotZip`] for anything else that is not a zip archive,
/// [`ExtractError::Damaged`] for a part that does not inflate,
/// [`ExtractError::NoDocument`] without `word/document.xml`, [`ExtractError::TooLarge`] and
/// [`ExtractError::Xml`] for the document or its styles too large or not well-formed. The
/// other parts only add to the body: relationships, numbering, footnotes or endnotes that do
/// not inflate or are not well-formed are read without (the parts Word names by convention,
/// bullets for numbers, no notes) and counted in [`Extracted::parts_unreadable`]; a header,
/// footer or comments part that does not read is only not counted.
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
    // Parts that add to the body but do not read: the body is read without them.
    let mut unreadable = 0;
    // Without relationships (or with ones that do not read), the parts Word names by
    // convention.
    let conventional = || {
        ["numbering", "footnotes", "endnotes", "comments"]
            .map(|k| (k.to_owned(), format!("word/{k}.xml")))
            .to_vec()
    };
    let rels = match read_part(&mut zip, "word/_rels/document.xml.rels")
        .and_then(|xml| xml.map(|xml| relationships(&xml)).transpose())
    {
        Ok(Some(rels)) => rels,
        Ok(None) => conventional(),
        Err(_) => {
            unreadable += 1;
            conventional()
        }
    };
    let parts = |kind: &str| -> Vec<String> {
        let mut names: Vec<String> = rels
            .iter()
            .filter(|(k, _)| k == kind)
            .map(|(_, name)| name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    };
    let mut context = Context {
        styles,
        numbering: Numbering::default(),
        notes: HashMap::new(),
    };
    for name in parts("numbering") {
        match read_part(&mut zip, &name).and_then(|xml| xml.map(|xml| numbering(&xml)).transpose())
        {
            Ok(Some(read)) => context.numbering = read,
            Ok(None) => {}
            Err(_) => unreadable += 1,
        }
    }
    for (kind, tag, rel) in [
        (NoteKind::Foot, "w:footnote", "footnotes"),
        (NoteKind::End, "w:endnote", "endnotes"),
    ] {
        for name in parts(rel) {
            match read_part(&mut zip, &name)
                .and_then(|xml| xml.map(|xml| notes(&xml, tag)).transpose())
            {
                Ok(Some(read)) => {
                    for (id, paras) in read {
                        context.notes.insert((kind, id), paras);
                    }
                }
                Ok(None) => {}
                Err(_) => unreadable += 1,
            }
        }
    }
    let mut found = body(&document, &context)?;
    found.parts_unreadable = unreadable;
    let mut repeated = parts("header");
    repeated.extend(parts("footer"));
    repeated.sort();
    repeated.dedup();
    // Left out whatever they hold: one that does not read is only not counted.
    for name in repeated {
        if let Ok(Some(xml)) = read_part(&mut zip, &name) {
            found.headers_footers += usize::from(has_text(&xml));
        }
    }
    for name in parts("comments") {
        if let Ok(Some(xml)) = read_part(&mut zip, &name) {
            found.comments += comment_count(&xml);
        }
    }
    Ok(found)
}

/// What the body is read with: the styles, the numbering and the notes' text.
struct Context {
    styles: Styles,
    numbering: Numbering,
    notes: HashMap<NoteKey, Vec<String>>,
}

/// A piece of a paragraph's text, in order.
enum Piece {
    /// The text of one `w:t`, and whether it says `xml:space="preserve"`.
    Text(String, bool),
    /// `w:tab`, `w:ptab`.
    Tab,
    /// `w:br`, `w:cr`.
    Break,
    /// `w:noBreakHyphen`.
    Hyphen,
    /// A footnote or endnote reference: the note's number.
    Note(usize),
}

/// The paragraph being read.
#[derive(Default)]
struct Paragraph {
    style: Option<String>,
    /// `w:numId` of its own `w:numPr`.
    num_id: Option<String>,
    /// `w:ilvl` of its own `w:numPr`.
    ilvl: Option<usize>,
    pieces: Vec<Piece>,
    /// Some text (more than whitespace) is in a font that is not monospace.
    proportional: bool,
    /// Some text (more than whitespace) was read.
    has_text: bool,
}

/// The body's text as it is written: paragraphs become blocks, code paragraphs gather into
/// one fenced block.
struct BodyWriter<'c> {
    context: &'c Context,
    w: Writer,
    found: Extracted,
    /// The last block written was a list item (list items follow each other line by line).
    last_was_item: bool,
    /// The code block being gathered: its lines so far, and the empty paragraphs after them.
    code: Option<(String, usize)>,
    counters: Counters,
    /// The notes referenced so far, in order: number N is `note_order[N - 1]`.
    note_order: Vec<NoteKey>,
    /// Each referenced note's number.
    note_numbers: HashMap<NoteKey, usize>,
}

impl BodyWriter<'_> {
    /// Writes the gathered code block, if any, as a fenced block.
    fn flush_code(&mut self) {
        let Some((code, _)) = self.code.take() else {
            return;
        };
        let fence = fence_for(&code);
        self.found.code_blocks += 1;
        self.w.end_line(2);
        self.w.marker(&fence);
        self.w.end_line(1);
        self.w.raw(&code);
        self.w.marker(&fence);
        self.last_was_item = false;
    }

    /// The number of note `key`, if the document has it (numbered on its first reference).
    fn note(&mut self, key: NoteKey) -> Option<usize> {
        if !self.context.notes.contains_key(&key) {
            return None;
        }
        if let Some(&n) = self.note_numbers.get(&key) {
            return Some(n);
        }
        self.note_order.push(key.clone());
        let n = self.note_order.len();
        self.note_numbers.insert(key, n);
        Some(n)
    }

    /// Writes a paragraph that ended, `in_table` when it is a table cell's.
    fn paragraph(&mut self, p: Paragraph, in_table: bool) {
        let styles = &self.context.styles;
        let style = p.style.as_deref().unwrap_or("");
        if in_table {
            if !p.pieces.is_empty() {
                self.w.text(" ");
                write_pieces(&mut self.w, &p.pieces, true);
            }
            return;
        }
        let level = styles.heading_level(style);
        let (style_num, style_ilvl) = styles.numbering(style);
        let num_id = p.num_id.as_deref().or(style_num).filter(|n| *n != "0");
        let marker = match (level, num_id) {
            (None, Some(num_id)) => {
                let ilvl = p.ilvl.or(style_ilvl).unwrap_or(0);
                Some(
                    self.context
                        .numbering
                        .next(&mut self.counters, num_id, ilvl),
                )
            }
            _ => None,
        };
        if p.pieces.is_empty() {
            if let Some((_, blanks)) = self.code.as_mut() {
                *blanks += 1;
            }
            return;
        }
        let code = level.is_none()
            && marker.is_none()
            && (styles.code(style) || (p.has_text && !p.proportional));
        if code {
            let line = code_line(&p.pieces);
            match self.code.as_mut() {
                Some((block, blanks)) => {
                    block.push('\n');
                    for _ in 0..*blanks {
                        block.push('\n');
                    }
                    block.push_str(&line);
                    *blanks = 0;
                }
                None => self.code = Some((line, 0)),
            }
            return;
        }
        self.flush_code();
        if let Some(level) = level {
            self.found.headings += 1;
            self.w.end_line(2);
            self.w.marker(&format!("{} ", "#".repeat(level)));
        } else if let Some(marker) = &marker {
            self.found.list_items += 1;
            self.w.end_line(if self.last_was_item { 1 } else { 2 });
            self.w.marker(marker);
        } else {
            self.w.end_line(2);
        }
        self.last_was_item = marker.is_some();
        write_pieces(&mut self.w, &p.pieces, false);
    }

    /// The text, with the notes after the body.
    fn finish(mut self) -> Extracted {
        self.flush_code();
        for (i, key) in self.note_order.iter().enumerate() {
            let paras = &self.context.notes[key];
            self.w.end_line(if i == 0 { 2 } else { 1 });
            self.w.marker(&format!("[^{}]: ", i + 1));
            for (j, para) in paras.iter().enumerate() {
                if j > 0 {
                    self.w.marker("    ");
                }
                self.w.text(para);
            }
        }
        self.found.notes = self.note_order.len();
        self.found.text = self.w.finish();
        self.found
    }
}

/// Writes a paragraph's pieces as text: whitespace collapsed, a tab as a tab, a break as a
/// new line (a space in a table cell), a note reference as `[^N]`.
fn write_pieces(w: &mut Writer, pieces: &[Piece], in_table: bool) {
    for piece in pieces {
        match piece {
            Piece::Text(t, _) => w.text(t),
            Piece::Tab => w.raw("\t"),
            Piece::Break if in_table => w.text(" "),
            Piece::Break => w.end_line(1),
            Piece::Hyphen => w.text("-"),
            Piece::Note(n) => w.raw(&format!("[^{n}]")),
        }
    }
}

/// A code paragraph's text as it is: `xml:space="preserve"` text whole, other text without
/// its leading and trailing whitespace, tabs, breaks as line feeds, note references.
fn code_line(pieces: &[Piece]) -> String {
    let mut line = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(t, true) => line.push_str(t),
            Piece::Text(t, false) => line.push_str(t.trim()),
            Piece::Tab => line.push('\t'),
            Piece::Break => line.push('\n'),
            Piece::Hyphen => line.push('-'),
            Piece::Note(n) => line.push_str(&format!("[^{n}]")),
        }
    }
    line
}

/// Walks the body of `document.xml`.
fn body(document: &str, context: &Context) -> Result<Extracted, ExtractError> {
    let mut reader = Reader::from_reader(document.as_bytes());
    let mut out = BodyWriter {
        context,
        w: Writer::default(),
        found: Extracted::default(),
        last_was_item: false,
        code: None,
        counters: Counters::default(),
        note_order: Vec::new(),
        note_numbers: HashMap::new(),
    };
    let styles = &context.styles;
    let mut para: Option<Paragraph> = None;
    let mut in_text = false;
    let mut run_depth = 0usize;
    // The current run's own font and character style.
    let mut run_font: Option<String> = None;
    let mut run_style: Option<String> = None;
    // Open tables, innermost last: cells written in the current row.
    let mut tables: Vec<usize> = Vec::new();
    // Depth inside an element whose content is not the body's text or formatting: a drawing,
    // a VML picture, alternate content, a formatting change's old properties.
    let mut skip_depth = 0usize;

    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        if skip_depth > 0 {
            if skipped(&mut skip_depth, &event) {
                break;
            }
            continue;
        }
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.name().as_ref() {
                    "w:drawing" | "w:pict" | "mc:AlternateContent" => {
                        out.found.images += 1;
                        if !empty {
                            skip_depth = 1;
                        }
                    }
                    "w:rPrChange" | "w:pPrChange" if !empty => skip_depth = 1,
                    "w:p" => {
                        if let Some(p) = para.take() {
                            out.paragraph(p, !tables.is_empty());
                        }
                        if empty {
                            out.paragraph(Paragraph::default(), !tables.is_empty());
                        } else {
                            para = Some(Paragraph::default());
                        }
                    }
                    "w:pStyle" => {
                        if let Some(p) = para.as_mut() {
                            p.style = attr(e, "w:val");
                        }
                    }
                    "w:numId" => {
                        if let Some(p) = para.as_mut() {
                            p.num_id = attr(e, "w:val");
                        }
                    }
                    "w:ilvl" => {
                        if let Some(p) = para.as_mut() {
                            p.ilvl = level_of_val(e);
                        }
                    }
                    "w:r" if !empty => {
                        run_depth += 1;
                        run_font = None;
                        run_style = None;
                    }
                    "w:rFonts" if run_depth > 0 => run_font = font_of(e).or(run_font.take()),
                    "w:rStyle" if run_depth > 0 => run_style = attr(e, "w:val"),
                    "w:t" if !empty && run_depth > 0 => {
                        in_text = true;
                        let preserve = attr(e, "xml:space").is_some_and(|v| v == "preserve");
                        if let Some(p) = para.as_mut() {
                            p.pieces.push(Piece::Text(String::new(), preserve));
                        }
                    }
                    "w:tab" | "w:ptab" if run_depth > 0 => push(&mut para, Piece::Tab),
                    "w:br" | "w:cr" if run_depth > 0 => push(&mut para, Piece::Break),
                    "w:noBreakHyphen" if run_depth > 0 => push(&mut para, Piece::Hyphen),
                    name @ ("w:footnoteReference" | "w:endnoteReference") if run_depth > 0 => {
                        let kind = if name == "w:footnoteReference" {
                            NoteKind::Foot
                        } else {
                            NoteKind::End
                        };
                        if let Some(n) = attr(e, "w:id").and_then(|id| out.note((kind, id))) {
                            push(&mut para, Piece::Note(n));
                        }
                    }
                    "w:tbl" if !empty => {
                        out.flush_code();
                        out.found.tables += 1;
                        if tables.is_empty() {
                            out.w.end_line(2);
                        }
                        tables.push(0);
                        out.last_was_item = false;
                    }
                    "w:tr" if !empty => {
                        out.w.end_line(1);
                        if let Some(cells) = tables.last_mut() {
                            *cells = 0;
                        }
                    }
                    "w:tc" if !empty => {
                        if let Some(cells) = tables.last_mut() {
                            if *cells > 0 {
                                out.w.separator(" | ");
                            }
                            *cells += 1;
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_text => {
                let t: &str = t;
                if let Some(p) = para.as_mut() {
                    if !t.trim().is_empty() {
                        // The run's font: its own, else its character style's, else the
                        // paragraph style's (ECMA-376 Part 1, §17.7.2: the style hierarchy).
                        let font = run_font
                            .as_deref()
                            .or_else(|| run_style.as_deref().and_then(|s| styles.font(s)))
                            .or_else(|| p.style.as_deref().and_then(|s| styles.font(s)));
                        let code_run = run_style.as_deref().is_some_and(|s| styles.code(s));
                        p.has_text = true;
                        if !code_run && !font.is_some_and(monospace) {
                            p.proportional = true;
                        }
                    }
                    if let Some(Piece::Text(text, _)) = p.pieces.last_mut() {
                        text.push_str(t);
                    }
                }
            }
            Event::GeneralRef(r) if in_text => {
                if let (Some(p), Some(s)) = (para.as_mut(), reference(r)) {
                    if let Some(Piece::Text(text, _)) = p.pieces.last_mut() {
                        text.push_str(&s);
                    }
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:r" => run_depth = run_depth.saturating_sub(1),
                "w:p" => {
                    if let Some(p) = para.take() {
                        out.paragraph(p, !tables.is_empty());
                    }
                }
                "w:tbl" => {
                    tables.pop();
                    out.w.end_line(if tables.is_empty() { 2 } else { 1 });
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out.finish())
}

/// `w:val` of a `w:ilvl` element as a list level (0–8).
fn level_of_val(e: &BytesStart<'_>) -> Option<usize> {
    attr(e, "w:val")
        .and_then(|v| v.parse::<usize>().ok())
        .map(|l| l.min(LEVELS - 1))
}

/// Adds `piece` to the paragraph being read, if any.
fn push(para: &mut Option<Paragraph>, piece: Piece) {
    if let Some(p) = para.as_mut() {
        p.pieces.push(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: &str = r#"<w:styles xmlns:w="w">
        <w:style w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style>
        <w:style w:styleId="Mine"><w:name w:val="My heading"/><w:basedOn w:val="Heading2"/></w:style>
        <w:style w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
        <w:style w:styleId="Normal"><w:name w:val="Normal"/></w:style>
        <w:style w:styleId="Code"><w:name w:val="Code"/><w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas"/></w:rPr></w:style>
        <w:style w:styleId="CodeHeading"><w:name w:val="heading 1"/><w:basedOn w:val="Code"/></w:style>
        <w:style w:styleId="Macro"><w:name w:val="macro"/></w:style>
        <w:style w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/><w:rPr><w:rFonts w:hAnsi="Consolas"/></w:rPr></w:style>
    </w:styles>"#;

    fn context(numbering_xml: &str) -> Context {
        Context {
            styles: styles(STYLES).unwrap(),
            numbering: numbering(numbering_xml).unwrap(),
            notes: HashMap::new(),
        }
    }

    fn read(body_xml: &str, context: &Context) -> Extracted {
        let doc = format!(r#"<w:document xmlns:w="w"><w:body>{body_xml}</w:body></w:document>"#);
        body(&doc, context).unwrap()
    }

    fn run(body_xml: &str) -> Extracted {
        read(body_xml, &context("<w:numbering/>"))
    }

    /// A paragraph of `style` (empty: none) with numbering (`num` "numId/ilvl", empty: none)
    /// and one run of `text`.
    fn p(style: &str, num: &str, text: &str) -> String {
        let style = if style.is_empty() {
            String::new()
        } else {
            format!(r#"<w:pStyle w:val="{style}"/>"#)
        };
        let num = match num.split_once('/') {
            Some((id, level)) => {
                format!(r#"<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{id}"/></w:numPr>"#)
            }
            None => String::new(),
        };
        format!(r#"<w:p><w:pPr>{style}{num}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#)
    }

    const NUMBERING: &str = r#"<w:numbering xmlns:w="w">
        <w:abstractNum w:abstractNumId="7">
          <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl>
          <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/></w:lvl>
          <w:lvl w:ilvl="2"><w:start w:val="3"/><w:numFmt w:val="lowerRoman"/></w:lvl>
        </w:abstractNum>
        <w:abstractNum w:abstractNumId="8">
          <w:lvl w:ilvl="0"><w:numFmt w:val="none"/></w:lvl>
        </w:abstractNum>
        <w:num w:numId="1"><w:abstractNumId w:val="7"/></w:num>
        <w:num w:numId="2"><w:abstractNumId w:val="7"/>
          <w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/>
            <w:lvl w:ilvl="0"><w:start w:val="40"/><w:numFmt w:val="bullet"/></w:lvl>
          </w:lvlOverride></w:num>
        <w:num w:numId="3"><w:abstractNumId w:val="7"/></w:num>
        <w:num w:numId="4"><w:abstractNumId w:val="8"/></w:num>
    </w:numbering>"#;

    #[test]
    fn lists_are_numbered_and_nested_as_word_counts_them() {
        let e = read(
            &[
                p("", "1/0", "one"),
                p("", "1/1", "bullet"),
                p("", "1/2", "deep"),
                p("", "1/2", "deeper"),
                p("", "1/1", "bullet again"),
                p("", "1/2", "deep restarts"),
                // An empty item takes its number; Word shows it.
                r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:p>"#.into(),
                p("", "1/0", "three"),
                p("", "", "between"),
                // A new instance restarting at 5, then one continuing the same abstract list.
                p("", "2/0", "five"),
                p("", "3/0", "six"),
                p("", "3/12", "deepest level is 8"),
                p("", "4/0", "no marker shown"),
                p("", "0/0", "numId 0 is no list"),
                p("ListBullet", "", "style's list continues"),
            ]
            .concat(),
            &context(NUMBERING),
        );
        assert_eq!(
            e.text,
            "1. one\n  - bullet\n    3. deep\n    4. deeper\n  - bullet again\n    3. deep restarts\n\
             3. three\n\nbetween\n\n5. five\n6. six\n                - deepest level is 8\n\
             - no marker shown\n\nnumId 0 is no list\n\n7. style's list continues"
        );
        assert_eq!(e.list_items, 12);
    }

    #[test]
    fn absurd_list_numbers_saturate_instead_of_overflowing() {
        let numbering_xml = format!(
            r#"<w:numbering xmlns:w="w"><w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="{}"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="{}"/></w:lvlOverride></w:num></w:numbering>"#,
            i64::MAX,
            i64::MIN
        );
        let e = read(
            &[p("", "1/0", "a"), p("", "1/0", "b"), p("", "2/0", "c")].concat(),
            &context(&numbering_xml),
        );
        let (max, min) = (i64::MAX, i64::MIN + 1);
        assert_eq!(e.text, format!("{max}. a\n{max}. b\n{min}. c"));
    }

    #[test]
    fn code_paragraphs_keep_their_whitespace_in_one_fenced_block() {
        let courier = r#"<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr>"#;
        let e = run(&[
            p("", "", "Before:"),
            p("Code", "", "def f():"),
            r#"<w:p><w:pPr><w:pStyle w:val="Code"/></w:pPr><w:r><w:t xml:space="preserve">    return  1 </w:t></w:r></w:p>"#.into(),
            "<w:p/>".into(),
            r#"<w:p><w:pPr><w:pStyle w:val="Code"/></w:pPr></w:p>"#.into(),
            // Monospace runs of a Normal paragraph, a tab, text without xml:space, a break.
            format!(r#"<w:p><w:r>{courier}<w:tab/><w:t>  x = ```y```  </w:t><w:br/><w:t xml:space="preserve">  z</w:t></w:r></w:p>"#),
            // A character style in a monospace font.
            r#"<w:p><w:r><w:rPr><w:rStyle w:val="VerbatimChar"/></w:rPr><w:t>end</w:t></w:r></w:p>"#.into(),
            "<w:p/>".into(),
            p("", "", "After."),
            // Mixed fonts: not code. A heading or a list item in a code style: not code.
            format!(r#"<w:p><w:r>{courier}<w:t>mono</w:t></w:r><w:r><w:t xml:space="preserve"> and not</w:t></w:r></w:p>"#),
            p("CodeHeading", "", "Heading in Consolas"),
            p("Code", "5/0", "item"),
            p("Macro", "", "macro"),
            // In a table cell, text as any cell's.
            r#"<w:tbl><w:tr><w:tc>"#.into(),
            p("Code", "", "  cell  code"),
            "</w:tc></w:tr></w:tbl>".into(),
        ]
        .concat());
        assert_eq!(
            e.text,
            "Before:\n\n````\ndef f():\n    return  1 \n\n\n\tx = ```y```\n  z\nend\n````\n\n\
             After.\n\nmono and not\n\n# Heading in Consolas\n\n- item\n\n```\nmacro\n```\n\n\
             cell code"
        );
        assert_eq!((e.headings, e.list_items, e.tables), (1, 1, 1));
    }

    #[test]
    fn notes_are_numbered_by_first_reference_and_written_after_the_body() {
        let mut c = context("<w:numbering/>");
        let foot = r#"<w:footnotes xmlns:w="w">
            <w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/><w:t>sep</w:t></w:r></w:p></w:footnote>
            <w:footnote w:id="3"><w:p><w:r><w:footnoteRef/><w:t xml:space="preserve"> First  note.</w:t></w:r></w:p><w:p/><w:p><w:r><w:t>More.</w:t></w:r></w:p></w:footnote>
            <w:footnote w:id="4"><w:p><w:r><w:t>Never referenced.</w:t></w:r></w:p></w:footnote>
        </w:footnotes>"#;
        let end = r#"<w:endnotes xmlns:w="w"><w:endnote w:id="1"><w:p><w:r><w:t>An endnote.</w:t></w:r></w:p></w:endnote></w:endnotes>"#;
        for (id, paras) in notes(foot, "w:footnote").unwrap() {
            c.notes.insert((NoteKind::Foot, id), paras);
        }
        for (id, paras) in notes(end, "w:endnote").unwrap() {
            c.notes.insert((NoteKind::End, id), paras);
        }
        assert_eq!(c.notes.len(), 3);
        let e = read(
            concat!(
                r#"<w:p><w:r><w:t>Text</w:t></w:r><w:r><w:endnoteReference w:id="1"/></w:r>"#,
                r#"<w:r><w:t xml:space="preserve"> and more</w:t><w:footnoteReference w:id="3"/></w:r></w:p>"#,
                r#"<w:p><w:r><w:t>Again</w:t><w:footnoteReference w:id="3"/><w:footnoteReference w:id="99"/></w:r></w:p>"#,
            ),
            &c,
        );
        assert_eq!(
            e.text,
            "Text[^1] and more[^2]\n\nAgain[^2]\n\n[^1]: An endnote.\n[^2]: First note.\n    More."
        );
        assert_eq!(e.notes, 2);
    }

    #[test]
    fn parts_are_found_by_relationship_and_counted_when_left_out() {
        let rels = r#"<Relationships xmlns="r">
            <Relationship Id="rId1" Type="http://x/relationships/header" Target="header1.xml"/>
            <Relationship Id="rId2" Type="http://x/relationships/footer" Target="/word/sub/../footer2.xml"/>
            <Relationship Id="rId3" Type="http://x/relationships/hyperlink" Target="http://e/" TargetMode="External"/>
        </Relationships>"#;
        assert_eq!(
            relationships(rels).unwrap(),
            [
                ("header".to_owned(), "word/header1.xml".to_owned()),
                ("footer".to_owned(), "word/footer2.xml".to_owned())
            ]
        );
        assert_eq!(part_name("../customXml/item1.xml"), "customXml/item1.xml");
        assert!(has_text(
            r#"<w:hdr><w:p><w:r><w:t>Page</w:t></w:r></w:p></w:hdr>"#
        ));
        assert!(!has_text(
            r#"<w:hdr><w:p><w:r><w:t xml:space="preserve">  </w:t></w:r></w:p></w:hdr>"#
        ));
        assert!(!has_text("<w:hdr><w:p>"));
        assert_eq!(
            comment_count(
                r#"<w:comments><w:comment w:id="0"/><w:comment w:id="1"><w:p/></w:comment></w:comments>"#
            ),
            2
        );
    }

    #[test]
    fn code_styles_and_monospace_fonts_are_known_by_name() {
        for name in [
            "code",
            "source code",
            "html preformatted",
            "plain text",
            "macro",
            "code block",
            "codeblock",
            "preformatted text",
        ] {
            assert!(code_style_name(name), "{name}");
        }
        for name in ["normal", "barcode", "encoded", "list paragraph"] {
            assert!(!code_style_name(name), "{name}");
        }
        for font in [
            "Courier New",
            "Consolas",
            "Menlo",
            "Liberation Mono",
            "DejaVu Sans Mono",
            "Lucida Console",
            "Source Code Pro",
            "SFMono",
        ] {
            assert!(monospace(font), "{font}");
        }
        for font in ["Calibri", "Times New Roman", "Monotype Corsiva", "Code2000"] {
            assert!(!monospace(font), "{font}");
        }
    }

    #[test]
    fn the_word_features_fixture_reads_as_word_shows_it() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/word-features.docx"
        );
        let e = extract(&std::fs::read(path).expect("fixture")).unwrap();
        assert_eq!(
            e.text,
            "# Word features\n\nA function in the Code style:\n\n\
             ```\ndef greet(name):\n    return f\"hi {name}\"\n\n\tprint(greet(\"Rachel\"))\n```\n\n\
             The same in Courier New runs of Normal paragraphs:\n\n\
             ````\nif found:\n    note = ```not a fence```\n\treturn note\n````\n\n\
             Steps:\n\n1. Open the cabinet\n  - find the key\n  - turn it twice\n    1. left\n\
             2. Take the diamond\n3. Lock the cabinet\n\nAgain, from the start:\n\n\
             1. Wake the house\n2. Call the police\n\nThen, on the same list:\n\n\
             3. Send for Sergeant Cuff\n- Shelved:\n\n\
             The Moonstone is a yellow diamond.[^1] It was stolen.\n\nBetteredge keeps the diary.\n\n\
             [^1]: Brought from India in 1799."
        );
        assert_eq!(
            (e.headings, e.list_items, e.tables, e.images),
            (1, 10, 0, 0)
        );
        assert_eq!((e.notes, e.headers_footers, e.comments), (1, 2, 1));
        assert_eq!((e.code_blocks, e.parts_unreadable), (2, 0));
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
            body(bad, &context("<w:numbering/>")),
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

    #[test]
    fn parts_that_only_add_to_the_body_are_read_without_when_damaged() {
        let xml = br#"<w:document xmlns:w="w"><w:body><w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>First</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p></w:body></w:document>"#;
        let numbering = br#"<w:numbering xmlns:w="w"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;
        let footnotes = br#"<w:footnotes xmlns:w="w"><w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote></w:footnotes>"#;
        let whole = extract(&zip_of(&[
            ("word/document.xml", xml),
            ("word/numbering.xml", numbering),
            ("word/footnotes.xml", footnotes),
        ]))
        .unwrap();
        assert_eq!(whole.text, "1. First[^1]\n\n[^1]: A note.");
        assert_eq!((whole.notes, whole.parts_unreadable), (1, 0));
        // The numbering and the notes not well-formed, the relationships too: the body is
        // read, with a bullet and no note, and the three parts are counted.
        let broken = extract(&zip_of(&[
            ("word/document.xml", xml),
            (
                "word/_rels/document.xml.rels",
                b"<Relationships></Relationship>",
            ),
            ("word/numbering.xml", b"<w:numbering xmlns:w=\"w\"></w:num>"),
            (
                "word/footnotes.xml",
                b"<w:footnotes xmlns:w=\"w\"><w:footnote w:id=\"1\"></w:p>",
            ),
        ]))
        .unwrap();
        assert_eq!(broken.text, "- First");
        assert_eq!((broken.notes, broken.parts_unreadable), (0, 3));
    }
}
