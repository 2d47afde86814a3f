//! Question/answer pairs as CSV, the form spreadsheets and evaluation sets export, and
//! [`parse_qa`], which reads either CSV or JSON Lines ([`super::qa_jsonl`]).
//!
//! The first record is the header; columns are found by name (trimmed, any case) and others
//! are ignored. Each later record is one pair:
//! - `question` (required), and one of:
//! - `answer`: the answer's text, located in the document when the pair is used;
//! - `start` and `end`: the answer's UTF-8 byte offsets `[start, end)`, as in the JSON Lines;
//! - `references`: Chroma's chunking evaluation (`chunking_evaluation`, its `questions_df.csv`):
//!   a JSON list of `{"content", "start_index", "end_index"}` excerpts of the corpus. Its
//!   offsets count characters of the corpus file, which may not be the text on the page (a
//!   document read from PDF or HTML), so the excerpt's `content` is used as the answer text
//!   and located like `answer`. The check takes one answer per question: a record with
//!   several references is refused with its count rather than reduced to one of them.
//!
//! An empty cell counts as absent. Records are parsed by the `csv` crate (RFC 4180 quoting,
//! `""` for a quote, fields over several lines); a record is named by the 1-based line it
//! starts on. Rows of empty cells only are skipped. The errors are [`QaJsonlError`]'s, plus
//! those a header or a `references` cell can have.

use super::qa_jsonl::{
    parse_qa_jsonl, question_too_long, QaAnswer, QaJsonlError, QaLine, MAX_QUESTION_CHARS,
};

/// One of Chroma's references.
#[derive(serde::Deserialize)]
struct Reference {
    content: String,
}

/// Reads question/answer pairs from `input`, JSON Lines when its first non-blank line starts
/// with `{` (or `[`, a JSON array, which the JSON Lines reader refuses with its line), CSV
/// otherwise (a byte-order mark is ignored).
///
/// # Errors
/// The first bad line or record ([`QaJsonlError`]).
pub fn parse_qa(input: &str) -> Result<Vec<QaLine>, QaJsonlError> {
    let body = input.strip_prefix('\u{feff}').unwrap_or(input);
    let first = body.lines().find(|l| !l.trim().is_empty());
    // A JSON array (`[{…}, …]`) is no CSV either: the JSON Lines reader names its first line.
    match first {
        Some(l) if !l.trim_start().starts_with(['{', '[']) => parse_qa_csv(body),
        _ => parse_qa_jsonl(input),
    }
}

/// Reads question/answer pairs from CSV (module docs).
///
/// # Errors
/// [`QaJsonlError::CsvHeader`] when the header has no `question` column or no answer column;
/// [`QaJsonlError::Csv`] for a record the CSV reader refuses or a `references` cell that is
/// not its JSON; [`QaJsonlError::References`] for a count of references other than one; and,
/// per record, [`QaJsonlError::NoAnswer`], [`QaJsonlError::AnswerAndSpan`],
/// [`QaJsonlError::HalfSpan`], [`QaJsonlError::QuestionTooLong`] as for JSON Lines.
pub fn parse_qa_csv(input: &str) -> Result<Vec<QaLine>, QaJsonlError> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    // The CSV reader takes an unclosed quote to the end of the file, which would leave the
    // record without its answer: named here instead, at the line the quote opens.
    if let Some(line) = unclosed_quote(input) {
        return Err(QaJsonlError::Csv {
            line,
            message: "a quoted field opened on this line is never closed".into(),
        });
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(input.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| QaJsonlError::CsvHeader {
            message: e.to_string(),
        })?
        .clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let question = column("question").ok_or_else(|| QaJsonlError::CsvHeader {
        message: "no \"question\" column".into(),
    })?;
    let (answer, start, end, references) = (
        column("answer"),
        column("start"),
        column("end"),
        column("references"),
    );
    if answer.is_none() && references.is_none() && (start.is_none() || end.is_none()) {
        return Err(QaJsonlError::CsvHeader {
            message: "no \"answer\", \"start\"/\"end\" or \"references\" column".into(),
        });
    }
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| QaJsonlError::Csv {
            line: e.position().map_or(0, |p| p.line() as usize),
            message: e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let cell = |at: Option<usize>| {
            at.and_then(|i| record.get(i))
                .filter(|c| !c.trim().is_empty())
        };
        let offset = |at: Option<usize>, name: &str| -> Result<Option<usize>, QaJsonlError> {
            cell(at)
                .map(|c| {
                    c.trim().parse::<usize>().map_err(|_| QaJsonlError::Csv {
                        line,
                        message: format!("{name} is {c:?}, not a byte offset"),
                    })
                })
                .transpose()
        };
        let text_answer = match (cell(answer), cell(references)) {
            (Some(a), None) => Some(a.to_owned()),
            (None, Some(r)) => Some(single_reference(r, line)?),
            (Some(_), Some(_)) => return Err(QaJsonlError::AnswerAndSpan { line }),
            (None, None) => None,
        };
        let answer = match (text_answer, offset(start, "start")?, offset(end, "end")?) {
            (Some(text), None, None) => QaAnswer::Text(text),
            (None, Some(start), Some(end)) => QaAnswer::Span { start, end },
            (None, None, None) => return Err(QaJsonlError::NoAnswer { line }),
            (Some(_), _, _) => return Err(QaJsonlError::AnswerAndSpan { line }),
            (None, _, _) => return Err(QaJsonlError::HalfSpan { line }),
        };
        let question = cell(Some(question)).unwrap_or("").to_owned();
        if let Some(chars) = question_too_long(question.trim()) {
            return Err(QaJsonlError::QuestionTooLong {
                line,
                chars,
                max: MAX_QUESTION_CHARS,
            });
        }
        out.push(QaLine { question, answer });
    }
    Ok(out)
}

/// The content of the one reference of a Chroma `references` cell.
/// The 1-based line where a quoted field opens that the input never closes, read as the CSV
/// reader reads quotes (RFC 4180): a `"` opens a quoted field only as a field's first
/// character, `""` inside one is a quote, and the next lone `"` closes it.
fn unclosed_quote(input: &str) -> Option<usize> {
    let (mut line, mut opened) = (1, 0);
    let (mut quoted, mut field_start) = (false, true);
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                }
                '"' => quoted = false,
                '\n' => line += 1,
                _ => {}
            }
            continue;
        }
        match c {
            '"' if field_start => {
                quoted = true;
                opened = line;
                field_start = false;
            }
            ',' => field_start = true,
            '\n' => {
                line += 1;
                field_start = true;
            }
            '\r' => {}
            _ => field_start = false,
        }
    }
    quoted.then_some(opened)
}

fn single_reference(cell: &str, line: usize) -> Result<String, QaJsonlError> {
    let refs: Vec<Reference> = serde_json::from_str(cell).map_err(|e| QaJsonlError::Csv {
        line,
        message: format!("references: {e}"),
    })?;
    match <[Reference; 1]>::try_from(refs) {
        Ok([one]) => Ok(one.content),
        // No reference is no answer.
        Err(refs) if refs.is_empty() => Err(QaJsonlError::NoAnswer { line }),
        Err(refs) => Err(QaJsonlError::References {
            line,
            count: refs.len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_answers_spans_and_chroma_references_by_column_name() {
        let csv = "\u{feff}Question,corpus_id,ANSWER,start,end,references\n\
            \"What is the \"\"range\"\"?\",doc,−10 to 50 °C,,,\n\
            Where?,doc,,3,19,\n\
            ,,,,,\n\
            Who?,doc,,,,\"[{\"\"content\"\": \"\"Mahmoud of\\nGhizni\"\", \"\"start_index\"\": 5, \"\"end_index\"\": 22}]\"\n";
        let lines = parse_qa(csv).unwrap();
        assert_eq!(
            lines,
            [
                QaLine {
                    question: "What is the \"range\"?".into(),
                    answer: QaAnswer::Text("−10 to 50 °C".into()),
                },
                QaLine {
                    question: "Where?".into(),
                    answer: QaAnswer::Span { start: 3, end: 19 },
                },
                QaLine {
                    question: "Who?".into(),
                    answer: QaAnswer::Text("Mahmoud of\nGhizni".into()),
                },
            ]
        );
        // JSON Lines still go to their own reader.
        let jsonl = "{\"question\": \"q\", \"answer\": \"a\"}\n";
        assert_eq!(parse_qa(jsonl).unwrap(), parse_qa_jsonl(jsonl).unwrap());
    }

    #[test]
    fn an_unclosed_quote_is_named_at_its_line() {
        let input = "question,answer\nWho?,\"Mahmoud\nWhen?,1799\n";
        assert!(matches!(
            parse_qa_csv(input),
            Err(QaJsonlError::Csv { line: 2, .. })
        ));
        assert_eq!(unclosed_quote("a,\"b\"\"c\"\nd,e\n"), None);
        assert_eq!(
            unclosed_quote("a,b\"c\nd,e\n"),
            None,
            "a quote inside a field"
        );
        assert_eq!(unclosed_quote("a,\"b\nc\"\n\"d"), Some(3));
        // Closed quotes over several lines still read.
        let ok = "question,answer\n\"Who\ncrossed?\",\"Mahmoud \"\"of\"\" Ghizni\"\n";
        assert_eq!(parse_qa_csv(ok).unwrap().len(), 1);
    }

    #[test]
    fn bad_headers_and_records_are_named() {
        assert!(matches!(
            parse_qa_csv("query,answer\nq,a\n"),
            Err(QaJsonlError::CsvHeader { .. })
        ));
        assert!(matches!(
            parse_qa_csv("question,start\nq,1\n"),
            Err(QaJsonlError::CsvHeader { .. })
        ));
        assert_eq!(
            parse_qa_csv("question,answer\nq,a\nr,\n"),
            Err(QaJsonlError::NoAnswer { line: 3 })
        );
        assert_eq!(
            parse_qa_csv("question,answer,start,end\nq,a,1,2\n"),
            Err(QaJsonlError::AnswerAndSpan { line: 2 })
        );
        assert_eq!(
            parse_qa_csv("question,start,end\nq,1,\n"),
            Err(QaJsonlError::HalfSpan { line: 2 })
        );
        assert!(matches!(
            parse_qa_csv("question,start,end\nq,-1,4\n"),
            Err(QaJsonlError::Csv { line: 2, .. })
        ));
        let two = "question,references\nq,\"[{\"\"content\"\": \"\"a\"\"}, {\"\"content\"\": \"\"b\"\"}]\"\n";
        assert_eq!(
            parse_qa_csv(two),
            Err(QaJsonlError::References { line: 2, count: 2 })
        );
        assert_eq!(
            parse_qa_csv("question,references\nq,[]\n"),
            Err(QaJsonlError::NoAnswer { line: 2 })
        );
        assert!(matches!(
            parse_qa("[{\"question\": \"q\", \"answer\": \"a\"}]"),
            Err(QaJsonlError::Json { line: 1, .. })
        ));
        assert!(matches!(
            parse_qa_csv("question,references\nq,not json\n"),
            Err(QaJsonlError::Csv { line: 2, .. })
        ));
        let long = format!(
            "question,answer\n{},a\n",
            "x".repeat(MAX_QUESTION_CHARS + 1)
        );
        assert!(matches!(
            parse_qa_csv(&long),
            Err(QaJsonlError::QuestionTooLong { line: 2, .. })
        ));
        assert_eq!(parse_qa_csv("question,answer\n").unwrap(), []);
    }
}
