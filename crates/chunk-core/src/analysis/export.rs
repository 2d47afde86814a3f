//! The chunks of one strategy as export rows, and as JSON Lines and CSV text: the chunk's own
//! text, its byte and character range in the document, its token count, heading path, why it
//! ended, and for a text read from a PDF the pages it spans ([`PageMap`]). The page offers
//! both as downloads (from a `Blob`; no network).

use crate::strategy::Boundary;
use crate::strategy::{Chunk, Chunks};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One exported chunk. Offsets are half-open: bytes are UTF-8 bytes of the document,
/// characters are Unicode scalar values (Python's `str` indices, LangChain's `start_index`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// 0-based chunk index.
    pub index: usize,
    /// The chunk's text, exactly as the strategy (or library) makes it.
    pub text: String,
    /// First byte of the chunk's range in the document.
    pub byte_start: usize,
    /// One past the last byte.
    pub byte_end: usize,
    /// First character (a byte offset inside a character counts as that character).
    pub char_start: usize,
    /// One past the last character (a byte offset inside a character counts the character).
    pub char_end: usize,
    /// 1-based line of the chunk's first byte (lines end at `\n`).
    pub line_start: usize,
    /// 1-based line of the chunk's last byte (its first byte's line for an empty chunk).
    pub line_end: usize,
    /// Tokens of `text` in the chunks' encoding.
    pub tokens: usize,
    /// Headings the chunk is under, outermost first, joined with `" > "`.
    pub heading_path: String,
    /// Why the chunk ends here (serialized as [`Boundary::as_str`], e.g. `"paragraph"`).
    pub reason: Boundary,
    /// True when `text` is not the document slice `byte_start..byte_end`.
    pub text_changed: bool,
    /// The info string of the fenced code block the chunk is a piece of (`"rust"`; `""` for a
    /// fence without one), `None` (JSON `null`, an empty CSV cell) when it is none
    /// ([`crate::strategy::Chunk::code_info`]; the product's strategies set it).
    #[serde(default)]
    pub code_info: Option<String>,
    /// True when the strategy's heading prefix was left out of this chunk because the prefix
    /// alone is over the budget ([`crate::strategy::ChunkFlags::prefix_over_budget`]).
    #[serde(default)]
    pub prefix_over_budget: bool,
    /// For a text read from a PDF: the 1-based page of the chunk's first byte ([`PageMap`]);
    /// for any other text absent, in JSON and CSV alike (no `page_start` key or column).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_start: Option<usize>,
    /// For a text read from a PDF: the 1-based page of the chunk's last byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_end: Option<usize>,
}

/// Where each page of a PDF starts in the text read from it (as the document reader makes
/// it): for page `i` (0-based) the byte offset of its first byte, non-decreasing; a page
/// without text starts where the next text starts. The page of a byte is the last page that
/// starts at or before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<usize>", into = "Vec<usize>")]
pub struct PageMap {
    starts: Vec<usize>,
}

impl TryFrom<Vec<usize>> for PageMap {
    type Error = &'static str;

    /// As [`PageMap::new`].
    fn try_from(starts: Vec<usize>) -> Result<Self, Self::Error> {
        PageMap::new(starts).ok_or("page starts must be one or more non-decreasing byte offsets")
    }
}

impl From<PageMap> for Vec<usize> {
    fn from(map: PageMap) -> Self {
        map.starts
    }
}

impl PageMap {
    /// The map of `starts` (byte offsets, one per page); `None` when there is no page or the
    /// offsets decrease (not a reader's map).
    pub fn new(starts: Vec<usize>) -> Option<PageMap> {
        let ordered = starts.windows(2).all(|w| w[0] <= w[1]);
        (!starts.is_empty() && ordered).then_some(PageMap { starts })
    }

    /// The byte offset where each page starts, in page order.
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }

    /// Number of pages.
    pub fn pages(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based page holding byte `byte` (page 1 for a byte before every start).
    pub fn page_of(&self, byte: usize) -> usize {
        self.starts.partition_point(|&s| s <= byte).max(1)
    }

    /// The first and last 1-based pages of the byte range `bytes`: those of its first and of
    /// its last byte (of its start when it is empty).
    pub fn pages_of(&self, bytes: &std::ops::Range<usize>) -> (usize, usize) {
        (self.page_of(bytes.start), self.page_of(last_byte(bytes)))
    }
}

/// The rows of `chunks` of `text` (the document they were cut from), with their pages when
/// the text was read from a PDF (`pages`).
pub fn rows(text: &str, chunks: &Chunks, pages: Option<&PageMap>) -> Vec<Row> {
    rows_of(text, &chunks.chunks, 0, pages)
}

/// The rows of a run of consecutive chunks of `text`, the first being chunk `first_index` (a
/// page of rows; [`rows`] is all of them from 0). Character and line positions count from the
/// start of `text`, whatever the run; pages as in [`rows`].
pub fn rows_of(
    text: &str,
    chunks: &[Chunk],
    first_index: usize,
    pages: Option<&PageMap>,
) -> Vec<Row> {
    // For each chunk offset: how many characters start before it, and whether it falls inside
    // a character. One sorted pass over the offsets instead of a scan per chunk.
    let bytes = text.as_bytes();
    // The last byte of a chunk (for its end line) is `end - 1`; offsets are looked up as given.
    let mut wanted: Vec<usize> = chunks
        .iter()
        .flat_map(|c| [c.bytes.start, c.bytes.end, last_byte(&c.bytes)])
        .map(|b| b.min(bytes.len()))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    // offset -> (characters before it, inside a character, newlines before it)
    let mut before = std::collections::HashMap::with_capacity(wanted.len());
    let (mut chars, mut lines, mut at) = (0usize, 0usize, 0usize);
    for w in wanted {
        let span = &bytes[at..w];
        chars += span.iter().filter(|&&b| !is_continuation(b)).count();
        lines += memchr::memchr_iter(b'\n', span).count();
        at = w;
        let inside = bytes.get(w).is_some_and(|&b| is_continuation(b));
        before.insert(w, (chars, inside, lines));
    }
    let lookup = |b: usize| {
        before
            .get(&b.min(bytes.len()))
            .copied()
            .unwrap_or((0, false, 0))
    };
    let line = |b: usize| lookup(b).2 + 1;
    // A start inside a character counts that character; so does an end inside one.
    let char_start = |b| {
        let (n, inside, _) = lookup(b);
        n - usize::from(inside)
    };
    let char_end = |b| lookup(b).0;
    chunks
        .iter()
        .enumerate()
        .map(|(i, c)| (i, c, pages.map(|p| p.pages_of(&c.bytes)).unzip()))
        .map(|(i, c, (page_start, page_end))| Row {
            index: first_index + i,
            text: c.text(text).into_owned(),
            byte_start: c.bytes.start,
            byte_end: c.bytes.end,
            char_start: char_start(c.bytes.start),
            char_end: char_end(c.bytes.end),
            line_start: line(c.bytes.start),
            line_end: line(last_byte(&c.bytes)),
            tokens: c.tokens,
            heading_path: c.heading_path.join(" > "),
            reason: c.reason,
            text_changed: c.flags.text_changed,
            code_info: c.code_info.clone(),
            prefix_over_budget: c.flags.prefix_over_budget,
            page_start,
            page_end,
        })
        .collect()
}

/// The offset of the last byte of `bytes` (its start when empty).
fn last_byte(bytes: &std::ops::Range<usize>) -> usize {
    bytes.end.saturating_sub(1).max(bytes.start)
}

/// True for a UTF-8 continuation byte (`10xxxxxx`): not the start of a character.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// JSON Lines: one JSON object per row, each line ending in `\n`.
pub fn to_jsonl(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows {
        // A Row holds only strings, integers and booleans: serializing cannot fail.
        out.push_str(&serde_json::to_string(r).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// CSV (RFC 4180: a header line, fields quoted where needed, `\r\n` line ends), each text
/// cell made safe for a spreadsheet ([`csv_safe`]); the JSONL export ([`to_jsonl`]) keeps the
/// text exact.
pub fn to_csv(rows: &[Row]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    for r in rows {
        let mut safe = r.clone();
        if let Cow::Owned(text) = csv_safe(&r.text) {
            safe.text = text;
        }
        if let Cow::Owned(path) = csv_safe(&r.heading_path) {
            safe.heading_path = path;
        }
        if let Some(Cow::Owned(info)) = r.code_info.as_deref().map(csv_safe) {
            safe.code_info = Some(info);
        }
        // Writing to a Vec cannot fail.
        let _ = w.serialize(&safe);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// A text cell as the CSV export writes it: a cell that starts with `=`, `+`, `-`, `@`, a tab
/// or a carriage return gets a leading `'`, so that a spreadsheet opening the file shows it as
/// text instead of running it as a formula (CSV injection; OWASP's "CSV Injection" guidance).
/// So does one whose first visible character is one of those or its full-width form (`＝`,
/// `＋`, `－`, `＠`) after spaces, line breaks or invisible characters (a spreadsheet may trim
/// them). Any other cell is unchanged.
pub fn csv_safe(cell: &str) -> Cow<'_, str> {
    let invisible = |c: char| {
        c.is_whitespace() || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
    };
    let first = cell.chars().find(|&c| !invisible(c));
    let risky = cell.starts_with(['\t', '\r'])
        || first.is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '＝' | '＋' | '－' | '＠'));
    if risky {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
    use crate::tokenizer::Encoding;

    fn fixed(text: &str, size: usize, unit: SizeUnit) -> Chunks {
        let s = Settings {
            chunk_size: size,
            chunk_overlap: 0,
            unit,
            encoding: Encoding::Cl100kBase,
        };
        run(
            chunker(StrategyId::Fixed, &s).expect("valid").as_ref(),
            text,
            s.encoding,
        )
        .expect("ok")
    }

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_get_a_quote_and_jsonl_stays_exact() {
        for (cell, safe) in [
            (
                "=HYPERLINK(\"http://x\",\"click\")",
                "'=HYPERLINK(\"http://x\",\"click\")",
            ),
            ("+cmd|\" /C calc\"!A0", "'+cmd|\" /C calc\"!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("a=1", "a=1"),
            (" =1", "' =1"),
            ("\n\n-3", "'\n\n-3"),
            (
                "\u{A0}\u{3000}\u{200B}\u{FEFF}=1",
                "'\u{A0}\u{3000}\u{200B}\u{FEFF}=1",
            ),
            ("＝1+1", "'＝1+1"),
            ("   ", "   "),
            ("x-1", "x-1"),
            ("", ""),
        ] {
            assert_eq!(csv_safe(cell), safe, "{cell:?}");
        }
        // Whole exports: one chunk a line, each starting with a formula.
        let text = "=1+2\n+cmd\n-x\n@y\nok";
        let s = Settings {
            chunk_size: 5,
            chunk_overlap: 0,
            unit: SizeUnit::Characters,
            encoding: Encoding::Cl100kBase,
        };
        let chunks = run(
            chunker(StrategyId::LangchainRecursive, &s)
                .expect("valid")
                .as_ref(),
            text,
            s.encoding,
        )
        .expect("ok");
        let r = rows(text, &chunks, None);
        let texts: Vec<&str> = r.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["=1+2", "+cmd", "-x", "@y", "ok"]);
        let written = to_csv(&r);
        let mut reader = csv::Reader::from_reader(written.as_bytes());
        let cells: Vec<String> = reader
            .records()
            .map(|rec| rec.expect("a record")[1].to_owned())
            .collect();
        assert_eq!(cells, ["'=1+2", "'+cmd", "'-x", "'@y", "ok"]);
        // A heading path is a text cell too.
        let headed = Row {
            heading_path: "=cmd > -x".into(),
            ..r[0].clone()
        };
        let written = to_csv(&[headed]);
        let mut reader = csv::Reader::from_reader(written.as_bytes());
        let at = reader
            .headers()
            .expect("a header")
            .iter()
            .position(|h| h == "heading_path")
            .expect("a heading_path column");
        let record = reader.records().next().expect("a row").expect("a record");
        assert_eq!(&record[at], "'=cmd > -x");
        let exact: Vec<String> = to_jsonl(&r)
            .lines()
            .map(|l| serde_json::from_str::<Row>(l).expect("a row").text)
            .collect();
        assert_eq!(exact, texts, "JSONL keeps the text exact");
    }

    #[test]
    fn char_offsets_count_scalar_values_and_cut_characters() {
        let text = "猫猫, \"x\"";
        let r = rows(text, &fixed(text, 2, SizeUnit::Characters), None);
        let spans: Vec<_> = r
            .iter()
            .map(|r| (r.char_start, r.char_end, r.text.as_str()))
            .collect();
        assert_eq!(
            spans,
            [(0, 2, "猫猫"), (2, 4, ", "), (4, 6, "\"x"), (6, 7, "\"")]
        );
        assert_eq!((r[0].byte_start, r[0].byte_end), (0, 6));
        // cl100k: 猫 is 3 one-byte tokens; a 1-token window ends inside the character.
        let r = rows("猫", &fixed("猫", 1, SizeUnit::Tokens), None);
        let spans: Vec<_> = r.iter().map(|r| (r.char_start, r.char_end)).collect();
        assert_eq!(spans, [(0, 1), (0, 1), (0, 1)]);
        assert!(r.iter().all(|r| r.text_changed && r.text == "\u{FFFD}"));
    }

    #[test]
    fn a_page_of_rows_is_those_rows_of_the_whole() {
        let text = "one\ntwo three\nfour five six\nseven";
        let c = fixed(text, 2, SizeUnit::Tokens);
        let all = rows(text, &c, None);
        assert!(all.len() > 4);
        assert_eq!(rows_of(text, &c.chunks[2..4], 2, None), all[2..4]);
        assert_eq!(all[3].index, 3);
    }

    #[test]
    fn jsonl_and_csv_escape_quotes_commas_and_newlines() {
        let text = "a, \"b\"\nc";
        let r = rows(text, &fixed(text, 100, SizeUnit::Tokens), None);
        assert_eq!(
            to_jsonl(&r),
            "{\"index\":0,\"text\":\"a, \\\"b\\\"\\nc\",\"byte_start\":0,\"byte_end\":8,\"char_start\":0,\"char_end\":8,\"line_start\":1,\"line_end\":2,\"tokens\":6,\"heading_path\":\"\",\"reason\":\"end-of-text\",\"text_changed\":false,\"code_info\":null,\"prefix_over_budget\":false}\n"
        );
        assert_eq!(
            to_csv(&r),
            "index,text,byte_start,byte_end,char_start,char_end,line_start,line_end,tokens,heading_path,reason,text_changed,code_info,prefix_over_budget\r\n0,\"a, \"\"b\"\"\nc\",0,8,0,8,1,2,6,,end-of-text,false,,false\r\n"
        );
        assert_eq!(to_jsonl(&[]), "");
    }

    #[test]
    fn chunks_name_the_pages_they_span() {
        // Pages: "one" (1), an empty page (2), "two three" (3); joined by a blank line.
        let text = "one\n\ntwo three";
        let pages = PageMap::new(vec![0, 5, 5]).expect("a map");
        assert_eq!(
            (
                pages.page_of(0),
                pages.page_of(4),
                pages.page_of(5),
                pages.page_of(99)
            ),
            (1, 1, 3, 3)
        );
        let r = rows(text, &fixed(text, 3, SizeUnit::Characters), Some(&pages));
        let spans: Vec<_> = r
            .iter()
            .map(|r| (r.text.as_str(), r.page_start, r.page_end))
            .collect();
        assert_eq!(
            spans,
            [
                ("one", Some(1), Some(1)),
                ("\n\nt", Some(1), Some(3)),
                ("wo ", Some(3), Some(3)),
                ("thr", Some(3), Some(3)),
                ("ee", Some(3), Some(3)),
            ]
        );
        assert!(to_jsonl(&r[..1]).contains("\"page_start\":1,\"page_end\":1}"));
        assert!(to_csv(&r[..1]).starts_with("index,text,byte_start,byte_end,char_start,char_end,line_start,line_end,tokens,heading_path,reason,text_changed,code_info,prefix_over_budget,page_start,page_end\r\n"));
        assert_eq!(PageMap::new(vec![]), None);
        assert_eq!(PageMap::new(vec![4, 2]), None);
        assert_eq!(pages.pages_of(&(3..6)), (1, 3));
        assert_eq!(pages.pages_of(&(5..5)), (3, 3));
        // Read back only through the same check.
        assert_eq!(serde_json::from_str::<PageMap>("[0,5,5]").ok(), Some(pages));
        assert!(serde_json::from_str::<PageMap>("[5,0]").is_err());
    }
}
