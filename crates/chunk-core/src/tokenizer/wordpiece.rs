//! BERT's WordPiece tokenizer, lower-cased: the tokenizer of all-MiniLM-L6-v2, the
//! bge-*-en-v1.5 models, nomic-embed-text and snowflake-arctic-embed-m (the
//! `bert-base-uncased` vocabulary, 30,522 entries, `crates/chunk-core/vocab/`).
//!
//! Ids equal Hugging Face `tokenizers` (0.23.3) on a `tokenizer.json` with `BertNormalizer`
//! (clean_text, handle_chinese_chars, lowercase; strip_accents unset, so it follows lowercase),
//! `BertPreTokenizer` and `WordPiece` (`[UNK]`, `##`, at most 100 characters a word), with
//! `add_special_tokens=False`: the model's `[CLS]` / `[SEP]` are not in [`WordPiece::encode`]
//! (the model table counts them, [`crate::models::EmbeddingModel::special_tokens`]). The
//! differential test `tests/wordpiece.rs` runs that pipeline in Python.
//!
//! The rules, in Hugging Face's order (their source: `tokenizers/src/normalizers/bert.rs`,
//! `pre_tokenizers/bert.rs`, `models/wordpiece/mod.rs`, `tokenizer/added_vocabulary.rs`):
//! 1. **Special tokens** (`[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]`) written in the text are
//!    found in the raw text first and become their ids; the text between them goes on.
//! 2. **Clean**: U+0000, U+FFFD and every control, format or private-use character (general
//!    categories Cc, Cf, Co, but not tab, line feed, carriage return) are removed; then every
//!    whitespace character (tab, LF, CR, and Unicode `White_Space`) becomes a space.
//! 3. **CJK**: every CJK ideograph (the ranges of [`is_cjk_ideograph`]) becomes a word of its own.
//! 4. **Accents**: canonical decomposition (NFD), then every nonspacing mark (Mn) is removed.
//! 5. **Lower case**: Rust's `char::to_lowercase`.
//! 6. **Words**: split on whitespace (removed) and on punctuation (each mark its own word):
//!    ASCII punctuation, which includes `$ + < = > ^ \` | ~`, and Unicode categories P*.
//! 7. **WordPiece**: a word of more than 100 characters is `[UNK]`; otherwise the longest
//!    vocabulary entry that starts the word, then the longest `##` entry that continues it, and
//!    so on; if some position has no entry, the whole word is one `[UNK]`.
//!
//! The character categories and the decomposition are read from the same crates, at the same
//! Unicode version (9.0), that Hugging Face `tokenizers` uses (`unicode_categories`,
//! `unicode-normalization-alignments`), so that a character assigned since then is treated as
//! they treat it.
//!
//! **Speed.** Steps 2–6 are a function of each character alone, except for NFD's reordering of
//! combining marks, which only moves non-starters (canonical combining class > 0). When every
//! non-starter a run decomposes into is a nonspacing mark (step 4 removes them all), their order
//! cannot show, and a run is read through a per-character table of what each character becomes
//! ([`Piece`]s, computed once per block of 256 code points on first use). Other runs (a character
//! outside the Basic Multilingual Plane, or one that decomposes into a spacing non-starter) take
//! the rules one by one. The test `mapped_runs_equal_the_rules_for_every_bmp_character` checks
//! both ways on every character of the BMP.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use unicode_categories::UnicodeCategories;
use unicode_normalization_alignments::char::{canonical_combining_class, decompose_canonical};
use unicode_normalization_alignments::UnicodeNormalization;

use crate::tokenizer::TokenCounter;

/// Why a vocabulary could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VocabError {
    /// The file held no entry at all.
    #[error("the vocabulary is empty")]
    Empty,
    /// An entry the tokenizer needs is missing (e.g. `[UNK]`).
    #[error("the vocabulary has no entry {0:?}")]
    Missing(&'static str),
    /// More entries than ids fit in 32 bits.
    #[error("the vocabulary has more than 2^32 entries")]
    TooLarge,
}

/// The special tokens of the BERT uncased tokenizer, matched in the raw text.
pub const BERT_SPECIAL_TOKENS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// The longest word, in characters, that WordPiece splits (`max_input_chars_per_word`);
/// longer words are one `[UNK]`.
pub const MAX_INPUT_CHARS_PER_WORD: usize = 100;

/// A loaded WordPiece vocabulary with the BERT uncased rules (module docs).
#[derive(Debug, Clone)]
pub struct WordPiece {
    /// Entries that may start a word, by their text.
    initial: FxHashMap<Box<str>, u32>,
    /// `##` entries, by their text without the `##`.
    continuing: FxHashMap<Box<str>, u32>,
    /// The longest key of `initial` / `continuing`, in bytes: no longer match is tried.
    initial_max: usize,
    continuing_max: usize,
    unk: u32,
    /// The special tokens present in the vocabulary, with their ids.
    specials: Vec<(&'static str, u32)>,
}

impl WordPiece {
    /// Reads a `vocab.txt`: one entry a line, its id the line's index (from 0); each line's
    /// trailing whitespace is not part of the entry, and a later duplicate takes the id, as
    /// Hugging Face reads the file. The BERT special tokens present in it are matched in the
    /// raw text ([`BERT_SPECIAL_TOKENS`]).
    ///
    /// Errors: [`VocabError::Empty`], [`VocabError::Missing`] without `[UNK]`,
    /// [`VocabError::TooLarge`].
    pub fn from_vocab(vocab: &str) -> Result<WordPiece, VocabError> {
        let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
        for (i, line) in vocab.lines().enumerate() {
            let id = u32::try_from(i).map_err(|_| VocabError::TooLarge)?;
            ids.insert(line.trim_end(), id);
        }
        if ids.is_empty() {
            return Err(VocabError::Empty);
        }
        let unk = *ids.get("[UNK]").ok_or(VocabError::Missing("[UNK]"))?;
        let specials = BERT_SPECIAL_TOKENS
            .iter()
            .filter_map(|&s| ids.get(s).map(|&id| (s, id)))
            .collect();
        let mut initial = FxHashMap::default();
        let mut continuing = FxHashMap::default();
        for (entry, id) in ids {
            match entry.strip_prefix("##") {
                Some(rest) => continuing.insert(Box::from(rest), id),
                None => initial.insert(Box::from(entry), id),
            };
        }
        let longest = |m: &FxHashMap<Box<str>, u32>| m.keys().map(|k| k.len()).max().unwrap_or(0);
        Ok(WordPiece {
            initial_max: longest(&initial),
            continuing_max: longest(&continuing),
            initial,
            continuing,
            unk,
            specials,
        })
    }

    /// The ids of `text` without the model's `[CLS]` / `[SEP]` (Hugging Face's
    /// `encode(text, add_special_tokens=False).ids`).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 4);
        self.for_each_id(text, |id| ids.push(id));
        ids
    }

    /// The number of ids [`WordPiece::encode`] gives, without building them.
    pub fn count(&self, text: &str) -> usize {
        let mut n = 0;
        self.for_each_id(text, |_| n += 1);
        n
    }

    /// The id of `[UNK]`.
    pub fn unk_id(&self) -> u32 {
        self.unk
    }

    /// The id of one of [`BERT_SPECIAL_TOKENS`] (`"[CLS]"`, `"[SEP]"`, …), if the vocabulary
    /// has it: the ids a model adds around a sequence.
    pub fn special_id(&self, token: &str) -> Option<u32> {
        self.specials
            .iter()
            .find(|(s, _)| *s == token)
            .map(|&(_, id)| id)
    }

    fn for_each_id(&self, text: &str, mut emit: impl FnMut(u32)) {
        let mut word = String::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (before, special) = self.next_special(rest);
            self.segment(&rest[..before], &mut word, &mut emit);
            match special {
                Some((len, id)) => {
                    emit(id);
                    rest = &rest[before + len..];
                }
                None => break,
            }
        }
    }

    /// Where the first special token of `text` starts, and its length and id.
    fn next_special(&self, text: &str) -> (usize, Option<(usize, u32)>) {
        let bytes = text.as_bytes();
        let mut from = 0;
        while let Some(at) = memchr::memchr(b'[', &bytes[from..]) {
            let at = from + at;
            // The specials share no prefix with one another, so the first that matches is the
            // only (and the longest) one.
            if let Some(&(s, id)) = self
                .specials
                .iter()
                .find(|(s, _)| bytes[at..].starts_with(s.as_bytes()))
            {
                return (at, Some((s.len(), id)));
            }
            from = at + 1;
        }
        (text.len(), None)
    }

    /// Tokens of text holding no special token: runs between spaces, tabs and line breaks are normalized
    /// on their own (no rule of steps 2–5 looks past an ASCII character: each is its own
    /// decomposition starter), an ASCII run by a fast path.
    fn segment(&self, text: &str, word: &mut String, emit: &mut impl FnMut(u32)) {
        // Only these four: U+000B and U+000C are controls, removed rather than spaced.
        for run in text
            .split([' ', '\t', '\n', '\r'])
            .filter(|r| !r.is_empty())
        {
            if run.is_ascii() {
                self.ascii_run(run, word, emit);
            } else {
                self.unicode_run(run, word, emit);
            }
        }
    }

    /// An ASCII run without whitespace: controls removed, punctuation its own word, letters
    /// lower-cased.
    fn ascii_run(&self, run: &str, word: &mut String, emit: &mut impl FnMut(u32)) {
        let mut start = 0;
        for (i, b) in run.bytes().enumerate() {
            if b.is_ascii_punctuation() {
                self.ascii_word(&run[start..i], word, emit);
                // ASCII: one byte is one character.
                self.word(&run[i..i + 1], emit);
                start = i + 1;
            }
        }
        self.ascii_word(&run[start..], word, emit);
    }

    /// An ASCII word (no whitespace, no punctuation): looked up as it is when it holds no
    /// capital and no control, else lower-cased and cleaned into `buf` first.
    fn ascii_word(&self, w: &str, buf: &mut String, emit: &mut impl FnMut(u32)) {
        if w.bytes()
            .all(|b| !b.is_ascii_uppercase() && !b.is_ascii_control())
        {
            if !w.is_empty() {
                self.word(w, emit);
            }
            return;
        }
        buf.clear();
        buf.extend(
            w.bytes()
                .filter(|b| !b.is_ascii_control())
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
        self.flush(buf, emit);
    }

    /// Steps 2–6 of the module docs on a run holding non-ASCII characters: through the
    /// per-character table when the run allows it (module docs, "Speed"), else rule by rule.
    fn unicode_run(&self, run: &str, word: &mut String, emit: &mut impl FnMut(u32)) {
        if !self.mapped_run(run, word, emit) {
            self.rules_run(run, word, emit);
        }
    }

    /// A run through the per-character table; false (having emitted nothing) when some
    /// character of it is not in the table or decomposes into a spacing non-starter.
    fn mapped_run(&self, run: &str, word: &mut String, emit: &mut impl FnMut(u32)) -> bool {
        if !run.chars().all(|c| pieces(c).is_some()) {
            return false;
        }
        word.clear();
        for c in run.chars() {
            for piece in pieces(c).unwrap_or_default() {
                match *piece {
                    Piece::Break => self.flush(word, emit),
                    Piece::Punct(p) => {
                        self.flush(word, emit);
                        let mut buf = [0u8; 4];
                        self.word(p.encode_utf8(&mut buf), emit);
                    }
                    Piece::Letter(l) => word.push(l),
                }
            }
        }
        self.flush(word, emit);
        true
    }

    /// Steps 2–6 of the module docs on a run holding non-ASCII characters, rule by rule.
    fn rules_run(&self, run: &str, word: &mut String, emit: &mut impl FnMut(u32)) {
        // Steps 2 and 3: clean, whitespace to a space, CJK ideographs spaced.
        let mut cleaned = String::with_capacity(run.len() + 8);
        for c in run.chars() {
            if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                continue;
            }
            if is_whitespace(c) {
                cleaned.push(' ');
            } else if is_cjk_ideograph(c) {
                cleaned.push(' ');
                cleaned.push(c);
                cleaned.push(' ');
            } else {
                cleaned.push(c);
            }
        }
        // Steps 4–6.
        word.clear();
        for (c, _) in cleaned.chars().nfd() {
            if c.is_mark_nonspacing() {
                continue;
            }
            for c in c.to_lowercase() {
                if c.is_whitespace() {
                    self.flush(word, emit);
                } else if is_punctuation(c) {
                    self.flush(word, emit);
                    let mut buf = [0u8; 4];
                    self.word(c.encode_utf8(&mut buf), emit);
                } else {
                    word.push(c);
                }
            }
        }
        self.flush(word, emit);
    }

    fn flush(&self, word: &mut String, emit: &mut impl FnMut(u32)) {
        if !word.is_empty() {
            self.word(word, emit);
            word.clear();
        }
    }

    /// Step 7 on one word.
    fn word(&self, word: &str, emit: &mut impl FnMut(u32)) {
        // More than 100 characters: at least 101 bytes.
        if word.len() > MAX_INPUT_CHARS_PER_WORD && word.chars().count() > MAX_INPUT_CHARS_PER_WORD
        {
            emit(self.unk);
            return;
        }
        // The pieces are held back until the whole word has matched: at most 16 on the stack
        // (a word of BERT's vocabulary rarely has more), the rest in a vector.
        let mut inline = [0u32; 16];
        let mut spill: Vec<u32> = Vec::new();
        let mut n = 0;
        let mut start = 0;
        while start < word.len() {
            let (map, max) = if start == 0 {
                (&self.initial, self.initial_max)
            } else {
                (&self.continuing, self.continuing_max)
            };
            let mut end = word.len().min(start + max);
            let found = loop {
                while !word.is_char_boundary(end) {
                    end -= 1;
                }
                if end <= start {
                    break None;
                }
                if let Some(&id) = map.get(&word[start..end]) {
                    break Some(id);
                }
                end -= 1;
            };
            let Some(id) = found else {
                emit(self.unk);
                return;
            };
            match inline.get_mut(n) {
                Some(slot) => *slot = id,
                None => spill.push(id),
            }
            n += 1;
            start = end;
        }
        inline.iter().take(n).for_each(|&id| emit(id));
        spill.into_iter().for_each(emit);
    }
}

/// What one character becomes in steps 2–6 of the module docs, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// Whitespace (a CJK ideograph's spacing among it): the current word ends.
    Break,
    /// A punctuation mark: the current word ends, and the mark is a word of its own.
    Punct(char),
    /// A character of the current word.
    Letter(char),
}

/// The pieces of the 256 code points U+XX00..=U+XXFF.
struct Block {
    /// Per code point: where its pieces start in `pieces` and how many there are; `None` for a
    /// surrogate or a character that decomposes into a spacing non-starter.
    spans: Vec<Option<(u32, u8)>>,
    pieces: Vec<Piece>,
}

/// The Basic Multilingual Plane's blocks, each computed on first use.
static BLOCKS: [OnceLock<Block>; 256] = [const { OnceLock::new() }; 256];

/// The pieces of `c` (none for a removed character), or `None` when `c` is outside the BMP or
/// decomposes into a spacing non-starter (its run then takes the rules one by one).
fn pieces(c: char) -> Option<&'static [Piece]> {
    let code = c as u32;
    let block = BLOCKS
        .get((code >> 8) as usize)?
        .get_or_init(|| block(code >> 8));
    let (start, len) = (*block.spans.get((code & 0xFF) as usize)?)?;
    block
        .pieces
        .get(start as usize..start as usize + usize::from(len))
}

fn block(high: u32) -> Block {
    let mut spans = Vec::with_capacity(256);
    let mut pieces = Vec::new();
    for low in 0..256 {
        let start = pieces.len();
        let simple = char::from_u32(high << 8 | low).is_some_and(|c| char_pieces(c, &mut pieces));
        let len = pieces.len() - start;
        match (u32::try_from(start), u8::try_from(len)) {
            (Ok(start), Ok(len)) if simple => spans.push(Some((start, len))),
            _ => {
                pieces.truncate(start);
                spans.push(None);
            }
        }
    }
    Block { spans, pieces }
}

/// Steps 2–6 on `c` alone, appended to `out`; false when `c` decomposes into a non-starter
/// that is not a nonspacing mark (its order among its neighbours' marks would then show).
fn char_pieces(c: char, out: &mut Vec<Piece>) -> bool {
    if c == '\0' || c == '\u{FFFD}' || is_control(c) {
        return true;
    }
    if is_whitespace(c) {
        out.push(Piece::Break);
        return true;
    }
    let cjk = is_cjk_ideograph(c);
    if cjk {
        out.push(Piece::Break);
    }
    let mut simple = true;
    decompose_canonical(c, |d| {
        if d.is_mark_nonspacing() {
            return;
        }
        if canonical_combining_class(d) != 0 {
            simple = false;
        }
        for l in d.to_lowercase() {
            out.push(if l.is_whitespace() {
                Piece::Break
            } else if is_punctuation(l) {
                Piece::Punct(l)
            } else {
                Piece::Letter(l)
            });
        }
    });
    if cjk {
        out.push(Piece::Break);
    }
    simple
}

impl TokenCounter for WordPiece {
    fn count(&self, text: &str) -> usize {
        WordPiece::count(self, text)
    }
}

/// Control, format or private-use (Cc, Cf, Co), except tab, line feed and carriage return:
/// removed by the clean step.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// Tab, line feed, carriage return, or Unicode `White_Space`: a space after the clean step.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// ASCII punctuation (which takes in `$ + < = > ^ \` | ~`) or a Unicode punctuation category.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The code points Hugging Face's `BertNormalizer` spaces as CJK ideographs: the CJK Unified
/// Ideographs and Extensions A–D, U+2B920–U+2CEAF of Extension E (their table starts there,
/// not at U+2B820), the Compatibility Ideographs and their Supplement.
pub fn is_cjk_ideograph(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> WordPiece {
        let vocab =
            "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nhello\n,\n!\n猫\na\n##b\n";
        WordPiece::from_vocab(vocab).expect("toy vocabulary")
    }

    #[test]
    fn longest_match_first_and_a_word_without_a_match_is_one_unk() {
        let wp = toy();
        assert_eq!(wp.encode("unaffable"), vec![5, 6, 7]);
        assert_eq!(wp.encode("Hello, UNAFFABLE!"), vec![8, 9, 5, 6, 7, 10]);
        // "unaffx": "x" has no `##` entry, so the whole word is [UNK].
        assert_eq!(wp.encode("unaffx hello"), vec![1, 8]);
        assert_eq!(wp.count("unaffx hello"), 2);
    }

    #[test]
    fn specials_in_the_raw_text_accents_cjk_and_cleaning() {
        let wp = toy();
        assert_eq!(wp.encode("[CLS]hello[SEP]"), vec![2, 8, 3]);
        // Lower case is not a special token: "[", "cls", "]" (unknown here).
        assert_eq!(wp.encode("[cls]"), vec![1, 1, 1]);
        // NFD then marks removed: "ùn" -> "un"; the soft hyphen (Cf) is removed.
        assert_eq!(wp.encode("Ùn\u{AD}affable"), vec![5, 6, 7]);
        assert_eq!(wp.encode("a猫b"), vec![12, 11, 1]);
        assert_eq!(wp.encode("ab"), vec![12, 13]);
        assert_eq!(wp.encode(""), Vec::<u32>::new());
        assert_eq!(wp.encode(" \t\u{3000}\u{200B} "), Vec::<u32>::new());
        // 100 characters are split, 101 are one [UNK].
        let word = format!("a{}", "b".repeat(99));
        assert_eq!(wp.count(&word), 100);
        assert_eq!(wp.encode(&word)[..3], [12, 13, 13]);
        assert_eq!(wp.encode(&format!("{word}b")), vec![1]);
        // U+000C is a control: removed, not a space.
        assert_eq!(wp.encode("a\u{C}b"), vec![12, 13]);
    }

    /// Every character of the BMP, alone and beside marks, ASCII and CJK: the per-character
    /// table gives the rules' ids (on the real vocabulary), and a character it leaves out makes
    /// the run take the rules.
    #[test]
    fn mapped_runs_equal_the_rules_for_every_bmp_character() {
        let wp = WordPiece::from_vocab(include_str!("../../vocab/bert-base-uncased.txt"))
            .expect("bert-base-uncased");
        let run_ids = |run: &str, mapped: bool| {
            let (mut ids, mut word) = (Vec::new(), String::new());
            let mut emit = |id| ids.push(id);
            if mapped {
                if !wp.mapped_run(run, &mut word, &mut emit) {
                    return None;
                }
            } else {
                wp.rules_run(run, &mut word, &mut emit);
            }
            Some(ids)
        };
        let mut mapped = 0;
        for c in (0..=0xFFFF).filter_map(char::from_u32) {
            for run in [
                format!("{c}"),
                format!("é{c}b"),
                format!("{c}\u{301}\u{323}x"),
                format!("e\u{301}{c}{c}."),
                format!("猫{c}ß"),
            ] {
                let rules = run_ids(&run, false).expect("the rules always run");
                match run_ids(&run, true) {
                    Some(ids) => {
                        assert_eq!(ids, rules, "U+{:04X} in {run:?}", c as u32);
                        mapped += 1;
                    }
                    None => assert!(pieces(c).is_none(), "U+{:04X}", c as u32),
                }
            }
        }
        // Nearly every run: the table leaves out only spacing non-starters.
        assert!(mapped > 5 * 63_000, "{mapped} runs through the table");
        // Outside the BMP (an emoji), and a spacing non-starter (U+302E, class 224): the rules.
        assert!(pieces('😀').is_none());
        assert!(pieces('\u{302E}').is_none());
        // "ca😀" has no split in the vocabulary: one [UNK].
        assert_eq!(wp.encode("ça😀"), vec![wp.unk_id()]);
    }

    #[test]
    fn bad_vocabularies_are_refused() {
        assert_eq!(WordPiece::from_vocab("").unwrap_err(), VocabError::Empty);
        assert_eq!(
            WordPiece::from_vocab("a\nb\n").unwrap_err(),
            VocabError::Missing("[UNK]")
        );
    }
}
