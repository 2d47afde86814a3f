//! XLM-RoBERTa's SentencePiece Unigram tokenizer (250,002 ids; multilingual-e5-*, bge-m3,
//! jina-embeddings-v3), exact to Hugging Face `tokenizers` 0.23.3:
//! [`Unigram::encode`] equals `tokenizer.encode(text, add_special_tokens=False).ids` for the
//! model's `tokenizer.json` (checked differentially in `tests/unigram.rs`). No offsets.
//!
//! # Pipeline (each step is Hugging Face's, in its order)
//!
//! 1. **Added tokens** (`AddedVocabulary::extract_and_normalize`): the added tokens (`<s>`,
//!    `<pad>`, `</s>`, `<unk>`, `<mask>`) are found in the *raw* text, leftmost-longest and
//!    without overlap (its Aho-Corasick `LeftmostLongest`), and become their ids. A token with
//!    `lstrip` (`<mask>`) also takes the whitespace run (Unicode `White_Space`, regex `\s*$`)
//!    before it, but never text an earlier match took; `rstrip` takes the run after it. The
//!    text between matches is processed segment by segment by the steps below; a segment that
//!    normalizes to nothing gives no token.
//! 2. **Precompiled normalizer** (the model's sentencepiece `nmt_nfkc` charsmap): per extended
//!    grapheme cluster (`unicode-segmentation`): a cluster shorter than 6 bytes whose bytes
//!    *start with* a key of the charsmap is replaced, as a whole, by the replacement of the
//!    *shortest* such key (so `"ﬁ\u{301}"` becomes `"fi"`: Hugging Face's rule, not
//!    sentencepiece's longest match); otherwise each char is replaced on its own by the
//!    replacement of its shortest key prefix, or kept. Then `Replace(" {2,}", " ")`.
//! 3. **Metaspace** (`replacement "▁"`, `prepend_scheme "always"`, `split true`): every U+0020
//!    becomes U+2581 `▁`; `▁` is prepended unless the segment is empty or already starts with
//!    one; the segment is split before every `▁` (`MergedWithNext`).
//! 4. **Unigram Viterbi** (`Unigram::encode_optimized`, after sentencepiece's
//!    `unigram_model.cc`) on each split: the best path over the pieces that start at each char,
//!    scores summed in f64, ties kept by the first (shortest) candidate. A char with no
//!    single-char piece also gets an unknown edge of score `min_score − 10` (`K_UNK_PENALTY`),
//!    `min_score` over every piece. Adjacent unknown tokens fuse into one `<unk>` (`fuse_unk`,
//!    on for Unigram), and so does a literal piece `<unk>` next to them.
//!
//! # Data file (`crates/chunk-core/vocab/xlm-roberta.unigram`, version 1)
//!
//! Written by `scripts/vocab/xlmr-from-gguf.py` (sources: `vocab/SOURCE.md`). All integers are
//! little-endian.
//!
//! | field | bytes |
//! |---|---|
//! | magic `CHUNKUNI` | 8 |
//! | version (1) | u32 |
//! | piece count `n` | u32 |
//! | unknown-token id | u32 |
//! | added-token count `a` | u32 |
//! | `a` × added token: id u32, flags u8 (bit 0 `lstrip`, bit 1 `rstrip`); its text is its piece | 5 each |
//! | charsmap length `c` | u32 |
//! | charsmap: sentencepiece's `precompiled_charsmap` as is | `c` |
//! | `n` × piece: length u8 (1–255), UTF-8 bytes, in id order | |
//! | scores: the f32 bit patterns as wrapping differences from the previous one (the first from 0), as four byte planes of `n` bytes (low byte first) | `4n` |
//!
//! The charsmap is sentencepiece's: a u32 trie size in bytes, the Darts-clone double array
//! (u32 units) mapping a UTF-8 key to an offset into the rest, NUL-terminated UTF-8
//! replacements. The byte planes of the scores only make the file compress well (XLM-R's
//! scores fall monotonically from id 4): 4,068,947 bytes raw, about 1.93 MB gzipped.
//!
//! # Cost
//!
//! [`Unigram::from_bytes`] builds a byte trie over the pieces (782,761 nodes for XLM-R) in
//! about 0.15 s natively in release; the tables take some 15 MB. Natural text repeats its
//! words, so each call remembers the ids of the splits it has already seen (up to 64 bytes,
//! 65,536 splits). Throughput figures: `examples/bench_unigram.rs`.
//!
//! The cluster segmentation is `unicode-segmentation`'s (the version in `Cargo.lock`);
//! `tokenizers` links its own copy, so a Unicode update on either side could move a cluster
//! boundary. The differential test covers every code point below U+30000 and runs with
//! combining marks, Indic conjuncts, emoji sequences and Hangul jamo.

use crate::tokenizer::TokenCounter;
use std::fmt;
use unicode_segmentation::UnicodeSegmentation;

/// The magic bytes that open a Unigram data file.
pub const MAGIC: &[u8; 8] = b"CHUNKUNI";
/// The data-file version this build reads.
pub const VERSION: u32 = 1;
/// Hugging Face's `K_UNK_PENALTY`: an unknown char scores `min_score − 10`.
const UNK_PENALTY: f64 = 10.0;
const NONE: u32 = u32::MAX;
/// Hugging Face's Precompiled normalizer looks a whole grapheme cluster up only when it is
/// shorter than this many bytes.
const GRAPHEME_MAX: usize = 6;
const METASPACE: char = '\u{2581}';

/// Why a Unigram data file was refused by [`Unigram::from_bytes`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VocabError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Unigram vocabulary file: it does not start with the magic bytes \"CHUNKUNI\"")]
    BadMagic,
    /// The version field is not [`VERSION`].
    #[error("Unigram vocabulary version {0} is not supported (this build reads version 1)")]
    UnsupportedVersion(u32),
    /// The file ends inside a field.
    #[error(
        "truncated Unigram vocabulary: {what} needs {needed} bytes at byte {offset}, but the \
         file has {len} bytes"
    )]
    Truncated {
        /// The field being read.
        what: &'static str,
        /// Its byte offset in the file.
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// The file's length in bytes.
        len: usize,
    },
    /// Bytes remain after the scores.
    #[error("{0} unexpected bytes after the end of the Unigram vocabulary")]
    TrailingBytes(usize),
    /// The piece count is zero.
    #[error("the Unigram vocabulary has no pieces")]
    NoPieces,
    /// A piece of length 0.
    #[error("piece {id} is empty")]
    EmptyPiece {
        /// The piece's id.
        id: u32,
    },
    /// A piece is not valid UTF-8.
    #[error("piece {id} is not valid UTF-8")]
    PieceNotUtf8 {
        /// The piece's id.
        id: u32,
    },
    /// A score is NaN or infinite.
    #[error("the score of piece {id} is not a finite number")]
    BadScore {
        /// The piece's id.
        id: u32,
    },
    /// An id (the unknown token's or an added token's) is not below the piece count.
    #[error("{what} id {id} is not below the piece count {count}")]
    IdOutOfRange {
        /// Which id.
        what: &'static str,
        /// The id.
        id: u32,
        /// The piece count.
        count: u32,
    },
    /// An added token's flags byte has bits other than `lstrip` and `rstrip`.
    #[error("added token {id} has unknown flags {flags:#04x} (only lstrip = 1 and rstrip = 2)")]
    BadAddedFlags {
        /// The token's id.
        id: u32,
        /// Its flags byte.
        flags: u8,
    },
    /// The charsmap is malformed.
    #[error("bad normalization charsmap: {0}")]
    BadCharsmap(&'static str),
}

/// A little-endian reader over the data file that reports truncation instead of panicking.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], VocabError> {
        match self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.data.len())
        {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(VocabError::Truncated {
                what,
                offset: self.pos,
                needed: n,
                len: self.data.len(),
            }),
        }
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, VocabError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, VocabError> {
        Ok(self.take(1, what)?[0])
    }

    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }
}

/// sentencepiece's precompiled charsmap: a Darts-clone double array from UTF-8 keys to offsets
/// into a blob of NUL-terminated replacements.
#[derive(Clone)]
struct Charsmap {
    units: Vec<u32>,
    normalized: String,
    /// The lookup of each single ASCII byte, precomputed: `Some((start, end))` of its
    /// replacement in `normalized`.
    ascii: [Option<(u32, u32)>; 128],
}

impl Charsmap {
    fn parse(blob: &[u8]) -> Result<Charsmap, VocabError> {
        if blob.len() < 4 {
            return Err(VocabError::BadCharsmap("shorter than its 4-byte trie size"));
        }
        let trie_size = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]) as usize;
        if !trie_size.is_multiple_of(4) {
            return Err(VocabError::BadCharsmap("trie size is not a multiple of 4"));
        }
        if trie_size == 0 {
            return Err(VocabError::BadCharsmap("empty trie"));
        }
        // `trie_size` ≤ u32::MAX may still overflow 4 + it on a 32-bit target.
        let trie_end = trie_size
            .checked_add(4)
            .filter(|&end| end <= blob.len())
            .ok_or(VocabError::BadCharsmap("trie size exceeds the charsmap"))?;
        let trie = &blob[4..trie_end];
        let units = trie
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let normalized = std::str::from_utf8(&blob[trie_end..])
            .map_err(|_| VocabError::BadCharsmap("replacements are not UTF-8"))?
            .to_owned();
        let mut map = Charsmap {
            units,
            normalized,
            ascii: [None; 128],
        };
        for b in 0..128u8 {
            map.ascii[b as usize] = map.lookup(&[b]);
        }
        Ok(map)
    }

    /// The replacement range of the shortest key that `key` starts with (spm_precompiled's
    /// `common_prefix_search(..)[0]`; a NUL byte ends the key). `None` when no key matches or
    /// the trie points outside the replacements (a malformed file).
    fn lookup(&self, key: &[u8]) -> Option<(u32, u32)> {
        let unit = |i: usize| self.units.get(i).copied();
        let offset = |u: u32| ((u >> 10) << ((u & (1 << 9)) >> 6)) as usize;
        let mut pos = offset(unit(0)?);
        for &c in key {
            if c == 0 {
                return None;
            }
            pos ^= c as usize;
            let u = unit(pos)?;
            if u & ((1 << 31) | 0xFF) != c as u32 {
                return None;
            }
            pos ^= offset(u);
            if (u >> 8) & 1 == 1 {
                let start = (unit(pos)? & ((1 << 31) - 1)) as usize;
                let rest = self.normalized.as_bytes().get(start..)?;
                if !self.normalized.is_char_boundary(start) {
                    return None;
                }
                let len = memchr::memchr(0, rest).unwrap_or(rest.len());
                return Some((start as u32, (start + len) as u32));
            }
        }
        None
    }

    fn replacement(&self, (start, end): (u32, u32)) -> &str {
        &self.normalized[start as usize..end as usize]
    }

    fn transform(&self, key: &str) -> Option<&str> {
        self.lookup(key.as_bytes()).map(|r| self.replacement(r))
    }

    /// Appends the normalization of `text` to `out` (step 2 of the module doc, before the
    /// space collapse).
    ///
    /// Fast path: between two ASCII chars there is always a cluster boundary (UAX #29: no rule
    /// joins them but CR × LF), so an ASCII char whose neighbours are ASCII is a cluster of its
    /// own, and the cluster segmentation only runs on the stretches around other chars, each
    /// cut at such a boundary (so it finds the same clusters as on the whole text).
    fn normalize_into(&self, text: &str, out: &mut String) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            // `i` is a cluster boundary.
            if b[i] < 0x80 && b.get(i + 1).is_none_or(|&c| c < 0x80) {
                if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    self.cluster(&text[i..i + 2], out);
                    i += 2;
                } else {
                    self.cluster(&text[i..i + 1], out);
                    i += 1;
                }
                continue;
            }
            let mut j = i + 1;
            while j < b.len() && !(b[j - 1] < 0x80 && b[j] < 0x80 && b[j - 1..=j] != *b"\r\n") {
                j += 1;
            }
            for g in text[i..j].graphemes(true) {
                self.cluster(g, out);
            }
            i = j;
        }
    }

    /// Appends the normalization of one grapheme cluster `g` (Hugging Face's rule, module doc).
    #[inline]
    fn cluster(&self, g: &str, out: &mut String) {
        let b = g.as_bytes();
        if b.len() == 1 {
            match self.ascii[(b[0] & 0x7F) as usize] {
                Some(r) => out.push_str(self.replacement(r)),
                None => out.push_str(g),
            }
            return;
        }
        if b.len() < GRAPHEME_MAX {
            if let Some(r) = self.transform(g) {
                out.push_str(r);
                return;
            }
        }
        for (i, c) in g.char_indices() {
            let part = &g[i..i + c.len_utf8()];
            out.push_str(self.transform(part).unwrap_or(part));
        }
    }
}

/// A byte trie over the pieces for common-prefix search, children stored contiguously in
/// breadth-first order: the children of node `n` are nodes `nodes[n].first..nodes[n + 1].first`,
/// sorted by label. Node 0 is the root; the last node is a sentinel.
#[derive(Clone)]
struct PieceTrie {
    labels: Vec<u8>,
    nodes: Vec<TrieNode>,
    /// The root's child for each first byte, or `NONE`.
    root: Box<[u32; 256]>,
}

/// One trie node: its first child, and the piece ending here (`id == NONE` if none) with its
/// score, kept together so a Viterbi step touches one cache line.
#[derive(Clone, Copy)]
struct TrieNode {
    first: u32,
    id: u32,
    score: f32,
}

impl PieceTrie {
    /// Builds the trie from `(bytes, id)` pairs; for equal byte strings the last id wins
    /// (Hugging Face's `token_to_ids` map, filled in id order).
    fn build(pieces: &[&[u8]], scores: &[f32]) -> PieceTrie {
        let mut order: Vec<u32> = (0..pieces.len() as u32).collect();
        // Equal pieces stay in id order.
        order.sort_unstable_by(|&a, &b| pieces[a as usize].cmp(pieces[b as usize]).then(a.cmp(&b)));
        let mut labels = vec![0u8];
        let mut value = vec![NONE];
        // The sorted range and depth of each node, consumed in node order (breadth-first).
        let mut ranges: Vec<(u32, u32)> = vec![(0, order.len() as u32)];
        let mut depth: Vec<u16> = vec![0];
        let mut first = Vec::with_capacity(pieces.len() * 4);
        let mut n = 0;
        while n < ranges.len() {
            first.push(labels.len() as u32);
            let (mut lo, hi) = ranges[n];
            let d = depth[n] as usize;
            while lo < hi && pieces[order[lo as usize] as usize].len() == d {
                value[n] = order[lo as usize];
                lo += 1;
            }
            while lo < hi {
                let c = pieces[order[lo as usize] as usize][d];
                let mut end = lo + 1;
                while end < hi && pieces[order[end as usize] as usize][d] == c {
                    end += 1;
                }
                labels.push(c);
                value.push(NONE);
                ranges.push((lo, end));
                depth.push(depth[n] + 1);
                lo = end;
            }
            n += 1;
        }
        first.push(labels.len() as u32);
        let mut root = Box::new([NONE; 256]);
        for child in first[0]..first[1] {
            root[labels[child as usize] as usize] = child;
        }
        let nodes = first
            .iter()
            .enumerate()
            .map(|(n, &first)| {
                let id = value.get(n).copied().unwrap_or(NONE);
                let score = if id == NONE { 0.0 } else { scores[id as usize] };
                TrieNode { first, id, score }
            })
            .collect();
        PieceTrie {
            labels,
            nodes,
            root,
        }
    }

    #[inline]
    fn child(&self, node: u32, c: u8) -> u32 {
        let lo = self.nodes[node as usize].first as usize;
        let hi = self.nodes[node as usize + 1].first as usize;
        let labels = &self.labels[lo..hi];
        let found = if labels.len() <= 8 {
            labels.iter().position(|&l| l == c)
        } else {
            labels.binary_search(&c).ok()
        };
        found.map_or(NONE, |i| (lo + i) as u32)
    }
}

/// An added token: matched in the raw text before normalization (step 1 of the module doc).
#[derive(Clone, Debug)]
struct Added {
    text: String,
    id: u32,
    lstrip: bool,
    rstrip: bool,
}

/// One Viterbi lattice position: the best path ending here.
#[derive(Clone, Copy)]
struct Node {
    score: f64,
    start: u32,
    id: u32,
}

/// XLM-RoBERTa's SentencePiece Unigram tokenizer with Hugging Face's pipeline (module doc).
/// Built from the data file by [`Unigram::from_bytes`]; immutable and `Sync` afterwards.
#[derive(Clone)]
pub struct Unigram {
    charsmap: Charsmap,
    trie: PieceTrie,
    scores: Vec<f32>,
    /// Every piece, concatenated in id order; piece `i` is `text[ends[i - 1]..ends[i]]`.
    text: String,
    ends: Vec<u32>,
    unk_id: u32,
    unk_score: f64,
    added: Vec<Added>,
    /// First bytes of the added tokens, for the scan.
    added_first: [bool; 256],
}

impl fmt::Debug for Unigram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Unigram")
            .field("pieces", &self.len())
            .field("unk_id", &self.unk_id)
            .field("added", &self.added)
            .finish_non_exhaustive()
    }
}

impl Unigram {
    /// Reads a data file in the format of the module doc (e.g. the committed
    /// `vocab/xlm-roberta.unigram`) and builds the lookup tables (about 0.15 s natively in
    /// release for XLM-R's 250,002 pieces; some 15 MB in memory). Never panics: a malformed file is a
    /// [`VocabError`].
    pub fn from_bytes(data: &[u8]) -> Result<Unigram, VocabError> {
        let mut r = Cursor { data, pos: 0 };
        if r.take(8, "magic").map_err(|_| VocabError::BadMagic)? != MAGIC {
            return Err(VocabError::BadMagic);
        }
        let version = r.u32("version")?;
        if version != VERSION {
            return Err(VocabError::UnsupportedVersion(version));
        }
        let count = r.u32("piece count")?;
        if count == 0 {
            return Err(VocabError::NoPieces);
        }
        let unk_id = r.u32("unknown-token id")?;
        if unk_id >= count {
            return Err(VocabError::IdOutOfRange {
                what: "unknown-token",
                id: unk_id,
                count,
            });
        }
        let n_added = r.u32("added-token count")?;
        let mut added_ids = Vec::with_capacity((n_added as usize).min(r.remaining() / 5));
        for _ in 0..n_added {
            let id = r.u32("added token id")?;
            let flags = r.u8("added token flags")?;
            if id >= count {
                return Err(VocabError::IdOutOfRange {
                    what: "added-token",
                    id,
                    count,
                });
            }
            if flags & !3 != 0 {
                return Err(VocabError::BadAddedFlags { id, flags });
            }
            added_ids.push((id, flags));
        }
        let charsmap_len = r.u32("charsmap length")? as usize;
        let charsmap = Charsmap::parse(r.take(charsmap_len, "charsmap")?)?;

        let n = count as usize;
        let mut pieces: Vec<&[u8]> = Vec::with_capacity(n.min(r.remaining() / 2));
        let mut text = String::with_capacity(r.remaining().min(n * 16));
        let mut ends = Vec::with_capacity(pieces.capacity());
        for id in 0..count {
            let len = r.u8("piece length")? as usize;
            if len == 0 {
                return Err(VocabError::EmptyPiece { id });
            }
            let bytes = r.take(len, "piece")?;
            let s = std::str::from_utf8(bytes).map_err(|_| VocabError::PieceNotUtf8 { id })?;
            pieces.push(bytes);
            text.push_str(s);
            ends.push(text.len() as u32);
        }
        // 4n overflows only on a 32-bit target with a bogus count: then it is truncation.
        let planes = r.take(n.saturating_mul(4), "scores")?;
        if r.remaining() != 0 {
            return Err(VocabError::TrailingBytes(r.remaining()));
        }
        let mut scores = Vec::with_capacity(n);
        let mut bits = 0u32;
        let mut min_score = f64::INFINITY;
        for i in 0..n {
            let delta = u32::from_le_bytes([
                planes[i],
                planes[n + i],
                planes[2 * n + i],
                planes[3 * n + i],
            ]);
            bits = bits.wrapping_add(delta);
            let s = f32::from_bits(bits);
            if !s.is_finite() {
                return Err(VocabError::BadScore { id: i as u32 });
            }
            min_score = min_score.min(f64::from(s));
            scores.push(s);
        }
        let trie = PieceTrie::build(&pieces, &scores);
        let mut unigram = Unigram {
            charsmap,
            trie,
            scores,
            text,
            ends,
            unk_id,
            unk_score: min_score - UNK_PENALTY,
            added: Vec::new(),
            added_first: [false; 256],
        };
        for (id, flags) in added_ids {
            let text = unigram.piece(id).unwrap_or_default().to_owned();
            unigram.added_first[text.as_bytes()[0] as usize] = true;
            unigram.added.push(Added {
                text,
                id,
                lstrip: flags & 1 != 0,
                rstrip: flags & 2 != 0,
            });
        }
        Ok(unigram)
    }

    /// Number of pieces (ids `0..len()`); 250,002 for XLM-R.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Always false: a vocabulary has at least one piece ([`VocabError::NoPieces`]).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The piece of `id` as stored (with `▁` for spaces), e.g. `piece(35378) == Some("▁Hello")`;
    /// `None` when `id >= len()`.
    pub fn piece(&self, id: u32) -> Option<&str> {
        let i = id as usize;
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(&self.text[start..end])
    }

    /// The score (log probability) of `id`'s piece; `None` when `id >= len()`.
    pub fn score(&self, id: u32) -> Option<f32> {
        self.scores.get(id as usize).copied()
    }

    /// The unknown token's id (3 for XLM-R, `<unk>`).
    pub fn unk_id(&self) -> u32 {
        self.unk_id
    }

    /// The token ids of `text`, without `<s>`/`</s>`: Hugging Face's
    /// `tokenizer.encode(text, add_special_tokens=False).ids`. Added-token strings in the text
    /// (`<s>`, `<mask>` …) become their ids. `""` gives `[]`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 3 + 1);
        self.run(text, &mut Some(&mut ids));
        ids
    }

    /// The number of tokens of `text`: `encode(text).len()`, without building the ids.
    pub fn count(&self, text: &str) -> usize {
        self.run(text, &mut None)
    }

    /// Steps 1–4 of the module doc; appends the ids to `out` when given, and returns their
    /// number.
    fn run(&self, text: &str, out: &mut Option<&mut Vec<u32>>) -> usize {
        let mut scratch = Scratch::default();
        let mut n = 0;
        let mut start_offset = 0;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() && !self.added.is_empty() {
            if !self.added_first[bytes[i] as usize] {
                i += 1;
                continue;
            }
            // Leftmost-longest: the longest added token starting here.
            let rest = &text[i..];
            let Some(tok) = self
                .added
                .iter()
                .filter(|t| rest.starts_with(t.text.as_str()))
                .max_by_key(|t| t.text.len())
            else {
                i += 1;
                continue;
            };
            let (mut start, mut stop) = (i, i + tok.text.len());
            i = stop;
            if tok.lstrip {
                let kept = text[..start].trim_end_matches(char::is_whitespace).len();
                start = kept.max(start_offset);
            }
            if tok.rstrip {
                stop = text.len() - text[stop..].trim_start_matches(char::is_whitespace).len();
            }
            if start_offset < start {
                n += self.segment(&text[start_offset..start], &mut scratch, out);
            }
            if let Some(ids) = out {
                ids.push(tok.id);
            }
            n += 1;
            start_offset = stop;
        }
        if start_offset < text.len() {
            n += self.segment(&text[start_offset..], &mut scratch, out);
        }
        n
    }

    /// Steps 2–4 on one segment between added tokens; returns the number of ids.
    fn segment(&self, text: &str, scratch: &mut Scratch, out: &mut Option<&mut Vec<u32>>) -> usize {
        let mut normalized = std::mem::take(&mut scratch.normalized);
        normalized.clear();
        self.charsmap.normalize_into(text, &mut normalized);
        let mut spaced = std::mem::take(&mut scratch.spaced);
        spaced.clear();
        // Replace(" {2,}", " ") and Metaspace's replace and prepend, in one pass.
        spaced.push(METASPACE);
        let mut last = 0;
        let mut prev_space = false;
        for pos in memchr::memchr_iter(b' ', normalized.as_bytes()) {
            if pos > last {
                spaced.push_str(&normalized[last..pos]);
                prev_space = false;
            }
            if !prev_space {
                spaced.push(METASPACE);
                prev_space = true;
            }
            last = pos + 1;
        }
        spaced.push_str(&normalized[last..]);
        let m = METASPACE.len_utf8();
        let body = if spaced.len() == m {
            ""
        } else if spaced[m..].starts_with(METASPACE) {
            &spaced[m..]
        } else {
            &spaced[..]
        };
        // Split before every ▁ (MergedWithNext); `body` starts with one when non-empty.
        let mut n = 0;
        let mut from = 0;
        while from < body.len() {
            let next = body[from + m..]
                .find(METASPACE)
                .map_or(body.len(), |j| from + m + j);
            let split = &body[from..next];
            let ids = scratch.split(self, split);
            n += ids.len();
            if let Some(out) = out {
                out.extend_from_slice(ids);
            }
            from = next;
        }
        scratch.normalized = normalized;
        scratch.spaced = spaced;
        n
    }

    /// The forward Viterbi pass over one split (Hugging Face's `encode_optimized`):
    /// `nodes[e]` is the best path ending at byte `e`.
    fn forward(&self, piece: &[u8], nodes: &mut Vec<Node>) {
        let len = piece.len();
        nodes.clear();
        nodes.resize(
            len + 1,
            Node {
                score: 0.0,
                start: NONE,
                id: 0,
            },
        );
        let mut pos = 0;
        while pos < len {
            let till_here = nodes[pos].score;
            let mblen = utf8_len(piece[pos]).min(len - pos);
            let mut has_single = false;
            let mut node = self.trie.root[piece[pos] as usize];
            let mut end = pos + 1;
            while node != NONE {
                let TrieNode { id, score, .. } = self.trie.nodes[node as usize];
                if id != NONE {
                    let candidate = f64::from(score) + till_here;
                    let target = &mut nodes[end];
                    if target.start == NONE || candidate > target.score {
                        *target = Node {
                            score: candidate,
                            start: pos as u32,
                            id,
                        };
                    }
                    if end - pos == mblen {
                        has_single = true;
                    }
                }
                if end == len {
                    break;
                }
                node = self.trie.child(node, piece[end]);
                end += 1;
            }
            if !has_single {
                let candidate = self.unk_score + till_here;
                let target = &mut nodes[pos + mblen];
                if target.start == NONE || candidate > target.score {
                    *target = Node {
                        score: candidate,
                        start: pos as u32,
                        id: self.unk_id,
                    };
                }
            }
            pos += mblen;
        }
    }
}

/// Splits up to this many bytes are remembered within one call (natural text repeats words).
const CACHE_MAX_SPLIT: usize = 64;
/// At most this many splits are remembered within one call.
const CACHE_MAX_ENTRIES: usize = 1 << 16;

/// Buffers reused across the splits of one call, and the ids of the splits seen in it.
#[derive(Default)]
struct Scratch {
    normalized: String,
    spaced: String,
    nodes: Vec<Node>,
    ids: Vec<u32>,
    /// Split → range of its ids in `cached`.
    cache: rustc_hash::FxHashMap<Box<str>, (u32, u32)>,
    cached: Vec<u32>,
}

impl Scratch {
    /// The ids of one Metaspace split, in order: from the cache, or by Viterbi.
    fn split(&mut self, u: &Unigram, split: &str) -> &[u32] {
        if let Some(&(a, b)) = self.cache.get(split) {
            return &self.cached[a as usize..b as usize];
        }
        u.forward(split.as_bytes(), &mut self.nodes);
        self.ids.clear();
        // Backtrack from the end, adjacent unknown tokens fused into one (`fuse_unk`).
        let mut end = split.len();
        let mut in_unk = false;
        while end > 0 {
            let node = self.nodes[end];
            if node.id == u.unk_id {
                if !in_unk {
                    self.ids.push(u.unk_id);
                }
                in_unk = true;
            } else {
                self.ids.push(node.id);
                in_unk = false;
            }
            end = node.start as usize;
        }
        self.ids.reverse();
        if split.len() <= CACHE_MAX_SPLIT && self.cache.len() < CACHE_MAX_ENTRIES {
            let a = self.cached.len() as u32;
            self.cached.extend_from_slice(&self.ids);
            self.cache
                .insert(split.into(), (a, self.cached.len() as u32));
        }
        &self.ids
    }
}

/// The byte length of the UTF-8 sequence that `b` starts.
#[inline]
fn utf8_len(b: u8) -> usize {
    match b {
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl TokenCounter for Unigram {
    fn count(&self, text: &str) -> usize {
        Unigram::count(self, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Unigram {
        let data = include_bytes!("../../vocab/xlm-roberta.unigram");
        Unigram::from_bytes(data).expect("the committed vocabulary loads")
    }

    #[test]
    fn hand_checked_ids() {
        let u = shipped();
        assert_eq!(u.len(), 250_002);
        assert_eq!(u.piece(250_001), Some("<mask>"));
        assert_eq!(u.piece(35378), Some("▁Hello"));
        // Checked with tokenizers 0.23.3 on the same pipeline.
        assert_eq!(u.encode("Hello world!"), [35378, 8999, 38]);
        assert_eq!(u.encode(""), Vec::<u32>::new());
        assert_eq!(u.encode(" "), [6]);
        assert_eq!(u.encode(" a "), [10, 6]);
        assert_eq!(u.encode("a <mask> b"), [10, 250001, 876]);
        assert_eq!(u.encode("<s>x</s>"), [0, 1022, 2]);
        assert_eq!(u.encode("＜s＞"), [6, 0]);
        assert_eq!(u.encode("\u{1}"), Vec::<u32>::new());
        assert_eq!(u.count("Hello world!"), 3);
    }

    #[test]
    fn malformed_files_are_errors() {
        let data = include_bytes!("../../vocab/xlm-roberta.unigram");
        assert_eq!(Unigram::from_bytes(b"").unwrap_err(), VocabError::BadMagic);
        assert_eq!(
            Unigram::from_bytes(b"NOTMAGIC\x01\0\0\0").unwrap_err(),
            VocabError::BadMagic
        );
        let mut v = data.to_vec();
        v[8] = 2;
        assert_eq!(
            Unigram::from_bytes(&v).unwrap_err(),
            VocabError::UnsupportedVersion(2)
        );
        // Every prefix length in a sample is refused without a panic.
        for cut in [
            9,
            12,
            20,
            30,
            60,
            1000,
            300_000,
            data.len() / 2,
            data.len() - 1,
        ] {
            let e = Unigram::from_bytes(&data[..cut]).unwrap_err();
            assert!(
                matches!(e, VocabError::Truncated { .. } | VocabError::BadCharsmap(_)),
                "{cut}: {e}"
            );
        }
        let mut v = data.to_vec();
        v.push(0);
        assert_eq!(
            Unigram::from_bytes(&v).unwrap_err(),
            VocabError::TrailingBytes(1)
        );
        // A piece that is not UTF-8: the first piece's first byte (after its length).
        let pieces_at = 8 + 16 + 5 * 5 + 4 + 237_539;
        let mut v = data.to_vec();
        v[pieces_at + 1] = 0xFF;
        assert_eq!(
            Unigram::from_bytes(&v).unwrap_err(),
            VocabError::PieceNotUtf8 { id: 0 }
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        // A corrupt charsmap trie must not panic on lookup either.
        let data = include_bytes!("../../vocab/xlm-roberta.unigram");
        let mut v = data.to_vec();
        let mut x = 0x9E37_79B9_u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // Inside the charsmap's trie (it starts at byte 57).
            let i = 57 + (x as usize % 200_000);
            v[i] = (x >> 24) as u8;
        }
        if let Ok(u) = Unigram::from_bytes(&v) {
            let _ = u.encode("Héllo ｗｏｒｌｄ ﬁ①\u{301} 猫 \r\n <mask>");
        }
    }
}
