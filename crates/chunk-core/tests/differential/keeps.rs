//! Checks a strategy's [`Keeps`] statement on its chunks of one document.

use chunk_core::strategy::{python_isprintable, python_isspace, Chunks, Keeps};

/// `Err` says how `chunks` of `text` break `keeps`.
pub fn check(keeps: Keeps, text: &str, chunks: &Chunks) -> Result<(), String> {
    if keeps == Keeps::StrippedMarkdownLines {
        return stripped_markdown_lines(text, chunks);
    }
    let spaced = if keeps == Keeps::AllButWhitespaceHeadingSpace {
        heading_spaces(text)
    } else {
        Vec::new()
    };
    let blank_gaps = matches!(
        keeps,
        Keeps::AllButWhitespace
            | Keeps::AllButWhitespaceHeadingSpace
            | Keeps::SentencesJoinedWithSpace
    );
    let c = &chunks.chunks;
    if matches!(
        keeps,
        Keeps::TokenWindowsUnlessBlank | Keeps::EverythingUnlessBlank
    ) && text.chars().all(python_isspace)
    {
        return if c.is_empty() {
            Ok(())
        } else {
            Err("chunks of a whitespace-only document".into())
        };
    }
    if text.is_empty() {
        // Empty chunks only: LlamaIndex's splitters return `[""]` for "".
        return if c.iter().all(|ch| ch.bytes.is_empty() && ch.text.is_none()) {
            Ok(())
        } else {
            Err("chunks of an empty document".into())
        };
    }
    let mut covered = 0; // bytes [0, covered) are accounted for
    let mut prev: Option<&std::ops::Range<usize>> = None;
    for (i, ch) in c.iter().enumerate() {
        let b = &ch.bytes;
        if b.start > b.end || b.end > text.len() {
            return Err(format!("chunk {i}: range {b:?} does not fit the document"));
        }
        if let Some(p) = prev {
            let ordered = match keeps {
                Keeps::Everything
                | Keeps::EverythingUnlessBlank
                | Keeps::EverythingAfterPrefix
                | Keeps::TokenWindows
                | Keeps::TokenWindowsUnlessBlank
                | Keeps::EverythingButCutCharacters => b.start > p.start && b.end > p.end,
                _ => b.start >= p.start && b.end >= p.end,
            };
            if !ordered {
                return Err(format!("chunk {i}: range {b:?} is not after {p:?}"));
            }
        }
        if keeps == Keeps::EverythingButCutCharacters && b.start < covered {
            return Err(format!("chunk {i}: range {b:?} overlaps the chunk before"));
        }
        let gap = text
            .as_bytes()
            .get(covered..b.start.max(covered))
            .unwrap_or(&[]);
        match keeps {
            _ if blank_gaps => {
                if !String::from_utf8_lossy(gap).chars().all(python_isspace) {
                    return Err(format!(
                        "chunk {i}: bytes {covered}..{} are dropped and not whitespace",
                        b.start
                    ));
                }
            }
            _ => {
                if !gap.is_empty() {
                    return Err(format!("chunk {i}: bytes {covered}..{} are lost", b.start));
                }
            }
        }
        match (keeps, &ch.text) {
            (
                Keeps::TokenWindows
                | Keeps::TokenWindowsUnlessBlank
                | Keeps::EverythingButCutCharacters,
                Some(own),
            ) => {
                let want = String::from_utf8_lossy(&text.as_bytes()[b.clone()]);
                if text.get(b.clone()).is_some() || *own != want {
                    return Err(format!(
                        "chunk {i}: changed text that is not the decoded window"
                    ));
                }
            }
            (Keeps::EverythingAfterPrefix, Some(own)) => {
                let Some(slice) = text.get(b.clone()) else {
                    return Err(format!("chunk {i}: range {b:?} is not on char boundaries"));
                };
                if !added_around(own, slice, &ch.heading_path) {
                    return Err(format!(
                        "chunk {i}: text {own:?} is not a heading prefix and fences around \
                         the document slice {slice:?}"
                    ));
                }
            }
            (Keeps::AllButWhitespaceHeadingSpace, Some(own)) => {
                let Some(slice) = text.get(b.clone()) else {
                    return Err(format!("chunk {i}: range {b:?} is not on char boundaries"));
                };
                let want = with_spaces(text, b.clone(), &spaced);
                if *own != want || want == slice {
                    return Err(format!(
                        "chunk {i}: text {own:?} is not its range with the heading spaces \
                         written, {want:?}"
                    ));
                }
            }
            (Keeps::SentencesJoinedWithSpace, Some(own)) => {
                let Some(slice) = text.get(b.clone()) else {
                    return Err(format!("chunk {i}: range {b:?} is not on char boundaries"));
                };
                let want = sentence_gaps_as_spaces(slice);
                if *own != want || want == slice {
                    return Err(format!(
                        "chunk {i}: text {own:?} is not its range with each whitespace run \
                         after . ? ! written as one space, {want:?}"
                    ));
                }
            }
            (_, Some(_)) => return Err(format!("chunk {i}: text is not the document slice")),
            (_, None) => {
                if text.get(b.clone()).is_none() {
                    return Err(format!("chunk {i}: range {b:?} is not on char boundaries"));
                }
                if spaced.iter().any(|s| b.start <= s.start && s.start < b.end) {
                    return Err(format!(
                        "chunk {i}: its range holds a heading whose space is written anew, \
                         but its text is the slice"
                    ));
                }
            }
        }
        covered = covered.max(b.end);
        prev = Some(b);
    }
    let tail = &text[covered.min(text.len())..];
    match keeps {
        _ if blank_gaps && tail.chars().all(python_isspace) => Ok(()),
        _ if tail.is_empty() => Ok(()),
        _ => Err(format!(
            "bytes {covered}..{} at the end are lost",
            text.len()
        )),
    }
}

/// For [`Keeps::SentencesJoinedWithSpace`]: `slice` with every run of whitespace that
/// follows `.`, `?` or `!` written as one space.
fn sentence_gaps_as_spaces(slice: &str) -> String {
    let mut out = String::with_capacity(slice.len());
    let mut in_gap = false;
    let mut prev = None;
    for c in slice.chars() {
        if python_isspace(c) && (in_gap || matches!(prev, Some('.' | '?' | '!'))) {
            if !in_gap {
                out.push(' ');
                in_gap = true;
            }
            continue;
        }
        in_gap = false;
        out.push(c);
        prev = Some(c);
    }
    out
}

/// For [`Keeps::AllButWhitespaceHeadingSpace`]: the byte range of every whitespace character
/// other than a space that follows the `#` marks opening a line, outside ```` ``` ```` blocks
/// (LlamaIndex's `MarkdownNodeParser` writes a space there).
fn heading_spaces(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut in_code = false;
    let mut line_start = 0;
    for line in text.split('\n') {
        let start = line_start;
        line_start += line.len() + 1;
        let indented = line.trim_start_matches(python_isspace);
        if indented.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let marks = line.bytes().take_while(|&b| b == b'#').count();
        match line[marks..].chars().next() {
            Some(c) if c != ' ' && python_isspace(c) => {
                out.push(start + marks..start + marks + c.len_utf8());
            }
            _ => {}
        }
    }
    out
}

/// `text[range]` with every character of `spaced` inside it written as a space.
fn with_spaces(
    text: &str,
    range: std::ops::Range<usize>,
    spaced: &[std::ops::Range<usize>],
) -> String {
    let mut out = String::new();
    let mut at = range.start;
    for s in spaced
        .iter()
        .filter(|s| range.start <= s.start && s.end <= range.end)
    {
        out.push_str(&text[at..s.start]);
        out.push(' ');
        at = s.end;
    }
    out.push_str(&text[at..range.end]);
    out
}

/// A document line (without its `\n`) and whether [`Keeps::StrippedMarkdownLines`] keeps it.
struct Line {
    start: usize,
    end: usize,
    kept: bool,
}

/// A line stripped (Python's `str.strip`) and without its non-printable characters.
fn normalize(s: &str) -> String {
    s.trim_matches(python_isspace)
        .chars()
        .filter(|&c| python_isprintable(c))
        .collect()
}

/// Every line of `text`: kept unless, outside a code fence, it is blank or a header line
/// `#`, `##` or `###` (the mark followed by a space or nothing).
fn markdown_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut fence: Option<&str> = None;
    let mut start = 0;
    for raw in text.split('\n') {
        let s = normalize(raw);
        match fence {
            None if s.starts_with("```") && s.matches("```").count() == 1 => fence = Some("```"),
            None if s.starts_with("~~~") => fence = Some("~~~"),
            Some(f) if s.starts_with(f) => fence = None,
            _ => {}
        }
        let header = ["#", "##", "###"]
            .iter()
            .any(|m| s.starts_with(m) && (s.len() == m.len() || s[m.len()..].starts_with(' ')));
        lines.push(Line {
            start,
            end: start + raw.len(),
            kept: fence.is_some() || !(s.is_empty() || header),
        });
        start += raw.len() + 1;
    }
    lines
}

/// What [`Keeps::StrippedMarkdownLines`] makes of `text[range]`.
fn rewritten(text: &str, lines: &[Line], range: std::ops::Range<usize>) -> String {
    let mut out = String::new();
    let mut any = false;
    let mut dropped_since = false;
    for l in lines {
        let touches = (l.start < range.end && l.end > range.start)
            || (l.start == l.end && range.start <= l.start && l.start < range.end);
        if !touches {
            continue;
        }
        if !l.kept {
            dropped_since = true;
            continue;
        }
        if any {
            out.push_str(if dropped_since { "  \n" } else { "\n" });
        }
        out.push_str(&normalize(
            &text[l.start.max(range.start)..l.end.min(range.end)],
        ));
        any = true;
        dropped_since = false;
    }
    out
}

/// The check of [`Keeps::StrippedMarkdownLines`].
fn stripped_markdown_lines(text: &str, chunks: &Chunks) -> Result<(), String> {
    let lines = markdown_lines(text);
    let mut covered = 0;
    let mut prev: Option<&std::ops::Range<usize>> = None;
    let blank = |s: &str| s.chars().all(python_isspace);
    for (i, ch) in chunks.chunks.iter().enumerate() {
        let b = &ch.bytes;
        if b.start > b.end || text.get(b.clone()).is_none() {
            return Err(format!("chunk {i}: range {b:?} does not fit the document"));
        }
        if prev.is_some_and(|p| b.start < p.start || b.end < p.end) {
            return Err(format!("chunk {i}: range {b:?} is not after {prev:?}"));
        }
        let own = ch.text(text);
        let want = rewritten(text, &lines, b.clone());
        if own != want && !(blank(&own) && blank(&want)) {
            return Err(format!(
                "chunk {i}: text {own:?} is not its range rewritten, {want:?}"
            ));
        }
        if b.start > covered && !blank(&rewritten(text, &lines, covered..b.start)) {
            return Err(format!(
                "chunk {i}: bytes {covered}..{} are dropped and not only whitespace, \
                 non-printable characters or header lines",
                b.start
            ));
        }
        covered = covered.max(b.end);
        prev = Some(b);
    }
    if !blank(&rewritten(text, &lines, covered..text.len())) {
        return Err(format!(
            "bytes {covered}..{} at the end are lost",
            text.len()
        ));
    }
    Ok(())
}

/// True when `own` is `slice` with what [`Keeps::EverythingAfterPrefix`] allows around it: a
/// heading prefix (the path joined by " > ", or its last heading, then a blank line), an
/// opening fence line before it, and a closing fence line after it; and something is added.
fn added_around(own: &str, slice: &str, path: &[String]) -> bool {
    let fence_line = |l: &str| {
        let t = l.trim_start_matches(' ');
        t.starts_with("```") || t.starts_with("~~~")
    };
    let prefixes: Vec<String> = match path.last() {
        Some(last) => vec![
            format!("{}\n\n", path.join(" > ")),
            format!("{last}\n\n"),
            String::new(),
        ],
        None => vec![String::new()],
    };
    prefixes.iter().any(|p| {
        let Some(rest) = own.strip_prefix(p.as_str()) else {
            return false;
        };
        let rest = match rest.split_once('\n') {
            Some((line, after))
                if fence_line(line) && after.contains(slice) && !rest.starts_with(slice) =>
            {
                after
            }
            _ => rest,
        };
        let Some(after) = rest.strip_prefix(slice) else {
            return false;
        };
        let tail = after
            .strip_prefix('\n')
            .filter(|_| !slice.ends_with('\n'))
            .unwrap_or(after);
        let closing_ok = tail.is_empty()
            || (tail.ends_with('\n')
                && tail.lines().count() == 1
                && fence_line(tail.trim_end_matches('\n'))
                && tail.trim().chars().all(|c| c == '`' || c == '~'));
        closing_ok && own != slice
    })
}
