//! Question/answer pairs as JSON Lines, one object per line, in one of two shapes:
//!
//! ```text
//! {"question": "What is the range?", "answer": "−10 to 50 °C"}
//! {"question": "What is the range?", "start": 112, "end": 127}
//! ```
//!
//! `answer` is the answer's text, located in the document when the pair is used
//! ([`QaLine::resolve`], [`super::locate_answer`]: it must occur exactly once); `start` and
//! `end` are **UTF-8 byte offsets** `[start, end)` into the document ([`super::check_span`]).
//!
//! Reading: lines are split at `\n` (a `\r` before it is dropped), lines holding only
//! whitespace are skipped, a byte-order mark before the first line is ignored, and fields
//! other than these four are ignored. A line is an error, named by its 1-based number, when it
//! is not a JSON object with a string `question`, when it has neither `answer` nor both
//! `start` and `end`, both `answer` and a span, or only one of `start` / `end`.
//!
//! Writing: one line per pair, fields in the order above, `\n` after every line; JSON string
//! escaping is serde_json's (non-ASCII characters as they are).

use super::answer::{check_span, locate_answer, AnswerError};
use super::evaluate::QaPair;
use thiserror::Error;

/// How a line gives its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QaAnswer {
    /// The answer's text (`"answer"`).
    Text(String),
    /// The answer's byte span (`"start"`, `"end"`).
    Span {
        /// Byte offset of the first byte.
        start: usize,
        /// Byte offset just past the last byte.
        end: usize,
    },
}

/// One line: a question and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QaLine {
    /// The question.
    pub question: String,
    /// The answer, as text or span.
    pub answer: QaAnswer,
}

impl QaLine {
    /// The pair with the answer placed in `document`: a text located
    /// ([`super::locate_answer`]), a span checked ([`super::check_span`]).
    ///
    /// # Errors
    /// Whatever locating or checking refuses ([`AnswerError`]).
    pub fn resolve(&self, document: &str) -> Result<QaPair, AnswerError> {
        let answer = match &self.answer {
            QaAnswer::Text(text) => locate_answer(document, text)?,
            QaAnswer::Span { start, end } => check_span(document, *start, *end)?,
        };
        Ok(QaPair {
            question: self.question.clone(),
            answer,
        })
    }

    /// A span line for `pair` (the export of a pair marked in the text).
    pub fn from_pair(pair: &QaPair) -> Self {
        QaLine {
            question: pair.question.clone(),
            answer: QaAnswer::Span {
                start: pair.answer.start,
                end: pair.answer.end,
            },
        }
    }
}

/// A line that is not a question/answer pair.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum QaJsonlError {
    /// Not JSON, not an object, no string `question`, or a field of the wrong type (a
    /// negative offset, say); `message` is serde_json's.
    #[error("line {line}: {message}")]
    Json {
        /// 1-based line number.
        line: usize,
        /// What the JSON parser says.
        message: String,
    },
    /// Neither `answer` nor `start` and `end`.
    #[error("line {line}: no \"answer\" and no \"start\"/\"end\"")]
    NoAnswer {
        /// 1-based line number.
        line: usize,
    },
    /// Both `answer` and a span: which one counts would be a guess.
    #[error("line {line}: both \"answer\" and \"start\"/\"end\"; give one")]
    AnswerAndSpan {
        /// 1-based line number.
        line: usize,
    },
    /// `start` without `end`, or `end` without `start`.
    #[error("line {line}: \"start\" and \"end\" go together")]
    HalfSpan {
        /// 1-based line number.
        line: usize,
    },
    /// A CSV file's header has no `question` column or no answer column
    /// ([`super::qa_csv`]); `message` says which.
    #[error("the CSV header: {message}")]
    CsvHeader {
        /// What is missing, or what the CSV reader says.
        message: String,
    },
    /// A CSV record the reader refuses, an offset that is not a number, or a `references`
    /// cell that is not its JSON; `message` is the reader's or says which.
    #[error("line {line}: {message}")]
    Csv {
        /// 1-based line the record starts on.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A `references` cell with other than one reference: the check takes one answer per
    /// question.
    #[error("line {line}: {count} references; one answer per question is taken")]
    References {
        /// 1-based line the record starts on.
        line: usize,
        /// The references given.
        count: usize,
    },
    /// A question longer than [`MAX_QUESTION_CHARS`] characters: no retriever takes such a
    /// query, and the page would have to show it whole.
    #[error("line {line}: the question has {chars} characters, more than {max}")]
    QuestionTooLong {
        /// 1-based line number.
        line: usize,
        /// Its length in characters (Unicode scalar values).
        chars: usize,
        /// [`MAX_QUESTION_CHARS`].
        max: usize,
    },
}

/// The longest question the retrieval check takes, in characters (Unicode scalar values):
/// about 500 tokens of English, what a BERT-sized embedding model reads of a query (512
/// tokens) and far beyond a keyword query. Longer ones are refused with their line, never
/// truncated silently.
pub const MAX_QUESTION_CHARS: usize = 2_000;

/// The question's length in characters when it is longer than [`MAX_QUESTION_CHARS`] (counted
/// only up to one past the limit, so that a huge question costs no more than a short one).
pub fn question_too_long(question: &str) -> Option<usize> {
    let over = question.chars().take(MAX_QUESTION_CHARS + 1).count() > MAX_QUESTION_CHARS;
    over.then(|| question.chars().count())
}

#[derive(serde::Deserialize)]
struct RawLine {
    question: String,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    start: Option<usize>,
    #[serde(default)]
    end: Option<usize>,
}

#[derive(serde::Serialize)]
#[serde(untagged)]
enum OutLine<'a> {
    Text {
        question: &'a str,
        answer: &'a str,
    },
    Span {
        question: &'a str,
        start: usize,
        end: usize,
    },
}

/// Parses JSON Lines of question/answer pairs (module docs).
///
/// # Errors
/// The first bad line, by its 1-based number ([`QaJsonlError`]).
pub fn parse_qa_jsonl(input: &str) -> Result<Vec<QaLine>, QaJsonlError> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let mut out = Vec::new();
    for (i, raw) in input.split('\n').enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() {
            continue;
        }
        let parsed: RawLine = serde_json::from_str(raw).map_err(|e| QaJsonlError::Json {
            line,
            message: e.to_string(),
        })?;
        let answer = match (parsed.answer, parsed.start, parsed.end) {
            (Some(text), None, None) => QaAnswer::Text(text),
            (None, Some(start), Some(end)) => QaAnswer::Span { start, end },
            (None, None, None) => return Err(QaJsonlError::NoAnswer { line }),
            (Some(_), _, _) => return Err(QaJsonlError::AnswerAndSpan { line }),
            (None, _, _) => return Err(QaJsonlError::HalfSpan { line }),
        };
        if let Some(chars) = question_too_long(parsed.question.trim()) {
            return Err(QaJsonlError::QuestionTooLong {
                line,
                chars,
                max: MAX_QUESTION_CHARS,
            });
        }
        out.push(QaLine {
            question: parsed.question,
            answer,
        });
    }
    Ok(out)
}

/// Writes `lines` as JSON Lines (module docs); [`parse_qa_jsonl`] reads it back equal.
pub fn write_qa_jsonl(lines: &[QaLine]) -> String {
    let mut out = String::new();
    for l in lines {
        let row = match &l.answer {
            QaAnswer::Text(answer) => OutLine::Text {
                question: &l.question,
                answer,
            },
            QaAnswer::Span { start, end } => OutLine::Span {
                question: &l.question,
                start: *start,
                end: *end,
            },
        };
        // Serializing strings and integers into a String cannot fail.
        out.push_str(&serde_json::to_string(&row).unwrap_or_default());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<QaLine> {
        vec![
            QaLine {
                question: "What is the \"range\"?\nPlease.".into(),
                answer: QaAnswer::Text("−10 to 50 °C".into()),
            },
            QaLine {
                question: "Nhiệt độ của XV40?".into(),
                answer: QaAnswer::Span { start: 3, end: 19 },
            },
        ]
    }

    #[test]
    fn writes_the_two_shapes_and_reads_them_back() {
        let text = write_qa_jsonl(&lines());
        assert_eq!(
            text,
            "{\"question\":\"What is the \\\"range\\\"?\\nPlease.\",\"answer\":\"−10 to 50 °C\"}\n\
             {\"question\":\"Nhiệt độ của XV40?\",\"start\":3,\"end\":19}\n"
        );
        assert_eq!(parse_qa_jsonl(&text), Ok(lines()));
        assert_eq!(write_qa_jsonl(&[]), "");
    }

    #[test]
    fn a_question_longer_than_the_limit_is_refused_with_its_line_and_length() {
        let line = |q: &str| format!("{{\"question\": \"{q}\", \"answer\": \"x\"}}\n");
        let at_limit = "é".repeat(MAX_QUESTION_CHARS);
        assert_eq!(
            parse_qa_jsonl(&line(&at_limit)).map(|l| l.len()),
            Ok(1),
            "2,000 characters (4,000 bytes) are taken"
        );
        let huge = "x".repeat(5_000_000);
        assert_eq!(
            parse_qa_jsonl(&(line("ok") + &line(&huge))),
            Err(QaJsonlError::QuestionTooLong {
                line: 2,
                chars: 5_000_000,
                max: MAX_QUESTION_CHARS
            })
        );
        let over = "é".repeat(MAX_QUESTION_CHARS + 1);
        assert_eq!(question_too_long(&over), Some(2_001));
        assert_eq!(question_too_long(&at_limit), None);
        // Spaces around it do not count, as the page trims them.
        assert_eq!(question_too_long(at_limit.trim()), None);
        let padded = format!("  {at_limit}  ");
        assert!(parse_qa_jsonl(&line(&padded)).is_ok());
    }

    #[test]
    fn blank_lines_crlf_bom_and_extra_fields_are_accepted() {
        let text = "\u{feff}{\"question\":\"q\",\"answer\":\"a\",\"id\":7}\r\n\r\n  \n\
                    {\"end\":2,\"start\":0,\"question\":\"r\"}";
        assert_eq!(
            parse_qa_jsonl(text),
            Ok(vec![
                QaLine {
                    question: "q".into(),
                    answer: QaAnswer::Text("a".into())
                },
                QaLine {
                    question: "r".into(),
                    answer: QaAnswer::Span { start: 0, end: 2 }
                },
            ])
        );
        assert_eq!(parse_qa_jsonl(""), Ok(vec![]));
    }

    #[test]
    fn a_bad_line_is_named_by_its_number() {
        let good = "{\"question\":\"q\",\"answer\":\"a\"}\n\n";
        let at3 = |bad: &str| parse_qa_jsonl(&format!("{good}{bad}\n{good}"));
        assert!(matches!(
            at3("not json"),
            Err(QaJsonlError::Json { line: 3, .. })
        ));
        assert!(matches!(
            at3("[1, 2]"),
            Err(QaJsonlError::Json { line: 3, .. })
        ));
        assert!(matches!(
            at3("{\"answer\":\"a\"}"),
            Err(QaJsonlError::Json { line: 3, .. })
        ));
        assert!(matches!(
            at3("{\"question\":\"q\",\"start\":-1,\"end\":2}"),
            Err(QaJsonlError::Json { line: 3, .. })
        ));
        assert_eq!(
            at3("{\"question\":\"q\"}"),
            Err(QaJsonlError::NoAnswer { line: 3 })
        );
        assert_eq!(
            at3("{\"question\":\"q\",\"answer\":\"a\",\"start\":0,\"end\":1}"),
            Err(QaJsonlError::AnswerAndSpan { line: 3 })
        );
        assert_eq!(
            at3("{\"question\":\"q\",\"start\":0}"),
            Err(QaJsonlError::HalfSpan { line: 3 })
        );
        let e = at3("{\"question\":\"q\"}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: no \"answer\" and no \"start\"/\"end\""
        );
    }

    #[test]
    fn lines_resolve_against_the_document() {
        let doc = "Temp: −10 to 50 °C.";
        let l = lines();
        assert_eq!(
            l[0].resolve(doc),
            Ok(QaPair {
                question: l[0].question.clone(),
                answer: 6..21
            })
        );
        assert_eq!(
            l[1].resolve(doc),
            Err(AnswerError::NotCharBoundary { offset: 19 })
        );
        let pair = QaPair {
            question: "q".into(),
            answer: 0..4,
        };
        assert_eq!(QaLine::from_pair(&pair).resolve(doc), Ok(pair));
    }
}
