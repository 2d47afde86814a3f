//! A document's terms found once, so that the BM25 index of any chunking of it is built
//! without cutting every chunk into words again (the sweep's 60 settings, the retrieval table's
//! strategies): [`DocumentTerms`].
//!
//! **The rule that makes it exact.** A chunk's terms are, by definition, the terms of its own
//! text ([`super::terms`](mod@super::terms)). Where the chunk's text is its byte slice
//! `document[a..b]`, the fast path takes them in three parts:
//!
//! 1. the terms of `document[a..l]`, split on their own;
//! 2. the document's terms (found once) whose byte span lies wholly inside `[l, r)`;
//! 3. the terms of `document[r..b]`, split on their own;
//!
//! where `l` is the first and `r` the last *sync point* of the chunk: a byte offset `p` with
//! `a < p < b`, the byte before `p` an ASCII space or line feed, the byte at `p` ASCII, and
//! not two spaces. (Without a sync point, or for a chunk whose text is not its slice, the
//! chunk's text is split whole: the slow path.)
//!
//! Why this equals splitting the chunk's own text: UAX #29 decides a word boundary from the
//! characters next to it, looking further only across the specific classes its rules name
//! (letters, digits, mid-word punctuation, Extend/Format/ZWJ runs, regional-indicator runs), and
//! neither a space nor a line feed belongs to any of them. So at a sync point both the
//! document and the chunk have a boundary (the rules WB3a / WB999 break there, whatever lies
//! outside the chunk), and every boundary between `l` and `r` is decided from characters inside
//! `[l − 1, r]`, which the chunk and the document share. A word cut by the chunk's edge is the
//! case this handles: the chunk's text gives the cut pieces as words of their own (`can't` cut
//! after `ca` gives `ca` in one chunk and `n't` in the next; a regional-indicator flag cut in
//! half pairs the next indicators differently), and parts 1 and 3 are exactly those pieces, as
//! the chunk's own split gives them, since they are split from the chunk's own bytes.
//! `tests/retrieval.rs` checks the equality on generated texts rich in those classes and
//! on real strategies' chunks; [`super::evaluate_prepared`] is asserted equal to
//! [`super::evaluate`].

use super::bm25::{Bm25Index, Bm25Params, ChunkIds, Interner};
use super::terms::for_each_term;
use crate::strategy::Chunk;
use crate::Lang;
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::Arc;

/// The terms of one document in one language, found once: each term interned as an integer id,
/// with its byte span.
#[derive(Clone, Debug)]
pub struct DocumentTerms {
    lang: Lang,
    /// The document's length in bytes (a different text is refused, see [`Self::fits`]).
    text_len: usize,
    /// Term → id.
    vocabulary: Arc<FxHashMap<String, u32>>,
    /// The id of every term, in text order.
    ids: Vec<u32>,
    /// Byte offset where each term's word starts (ascending).
    starts: Vec<usize>,
    /// Byte offset where each term's word ends (ascending).
    ends: Vec<usize>,
}

impl DocumentTerms {
    /// The terms of `text` in `lang` ([`super::terms`](mod@super::terms)), found once.
    pub fn new(text: &str, lang: Lang) -> Self {
        let mut vocabulary: FxHashMap<String, u32> = FxHashMap::default();
        let (mut ids, mut starts, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        for_each_term(text, lang, |start, word, term| {
            let next = vocabulary.len() as u32;
            let id = match vocabulary.get(term) {
                Some(&id) => id,
                None => {
                    vocabulary.insert(term.to_owned(), next);
                    next
                }
            };
            ids.push(id);
            starts.push(start);
            ends.push(start + word.len());
        });
        DocumentTerms {
            lang,
            text_len: text.len(),
            vocabulary: Arc::new(vocabulary),
            ids,
            starts,
            ends,
        }
    }

    /// The language whose stop words were removed.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The number of terms of the document (repeats counted).
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the document has no term.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The number of distinct terms.
    pub fn distinct(&self) -> usize {
        self.vocabulary.len()
    }

    /// True when these are the terms of a text as long as `document` in `lang` (the cheap
    /// check [`super::evaluate_prepared`] makes before trusting them; the text itself must be
    /// the one they were found in).
    pub fn fits(&self, document: &str, lang: Lang) -> bool {
        self.text_len == document.len() && self.lang == lang
    }

    /// The BM25 index of `chunks` cut from `document` (the text these terms were found in): the
    /// same index as [`Bm25Index::from_texts`] on every chunk's text (module docs).
    pub fn index(&self, document: &str, chunks: &[Chunk], params: Bm25Params) -> Bm25Index {
        let mut interner = Interner {
            vocabulary: &self.vocabulary,
            extra: FxHashMap::default(),
        };
        let mut ids = ChunkIds::default();
        ids.ids.reserve(self.ids.len() + self.ids.len() / 4);
        for chunk in chunks {
            match (&chunk.text, document.get(chunk.bytes.clone())) {
                (None, Some(_)) => {
                    self.slice_ids(document, chunk.bytes.clone(), &mut interner, &mut ids.ids)
                }
                (Some(own), _) => split_into(own, self.lang, &mut interner, &mut ids.ids),
                // A range that does not fit the document: no text, no term (Chunk::text).
                (None, None) => {}
            }
            ids.end_chunk();
        }
        debug_assert_eq!(interner.len(), self.vocabulary.len() + interner.extra.len());
        let extra = interner.extra;
        Bm25Index::build(params, self.vocabulary.clone(), extra, &ids, chunks.len())
    }

    /// The terms of one chunk of `document` as [`DocumentTerms::index`] takes them, as strings
    /// in text order: equal to [`super::terms`](mod@super::terms) of the chunk's text (module
    /// docs). For tests and highlighting; it maps ids back through the whole vocabulary, so it
    /// is not the fast path.
    pub fn chunk_terms(&self, document: &str, chunk: &Chunk) -> Vec<String> {
        let mut interner = Interner {
            vocabulary: &self.vocabulary,
            extra: FxHashMap::default(),
        };
        let mut ids = Vec::new();
        match (&chunk.text, document.get(chunk.bytes.clone())) {
            (None, Some(_)) => {
                self.slice_ids(document, chunk.bytes.clone(), &mut interner, &mut ids)
            }
            (Some(own), _) => split_into(own, self.lang, &mut interner, &mut ids),
            (None, None) => {}
        }
        let mut names = vec![""; interner.len()];
        for (term, &id) in self.vocabulary.iter().chain(interner.extra.iter()) {
            names[id as usize] = term;
        }
        ids.iter()
            .map(|&id| names[id as usize].to_owned())
            .collect()
    }

    /// The term ids of `document[range]` (module docs: two edges split on their own, the
    /// document's terms between its first and last sync points).
    fn slice_ids(
        &self,
        document: &str,
        range: Range<usize>,
        interner: &mut Interner,
        out: &mut Vec<u32>,
    ) {
        let bytes = document.as_bytes();
        let Range { start: a, end: b } = range;
        let Some(l) = (a + 1..b).find(|&p| sync_point(bytes, p)) else {
            split_into(&document[a..b], self.lang, interner, out);
            return;
        };
        let r = (l..b).rev().find(|&p| sync_point(bytes, p)).unwrap_or(l);
        split_into(&document[a..l], self.lang, interner, out);
        let lo = self.starts.partition_point(|&s| s < l);
        let hi = self.ends.partition_point(|&e| e <= r);
        if lo < hi {
            out.extend_from_slice(&self.ids[lo..hi]);
        }
        split_into(&document[r..b], self.lang, interner, out);
    }
}

/// A sync point (module docs): `0 < p < len`, the byte before `p` a space or line feed, the
/// byte at `p` ASCII, not two spaces. Both ends of it are whole characters (ASCII bytes).
fn sync_point(bytes: &[u8], p: usize) -> bool {
    let (before, at) = (bytes[p - 1], bytes[p]);
    matches!(before, b' ' | b'\n') && at.is_ascii() && !(before == b' ' && at == b' ')
}

/// Appends the term ids of `text` split on its own.
fn split_into(text: &str, lang: Lang, interner: &mut Interner, out: &mut Vec<u32>) {
    for_each_term(text, lang, |_, _, term| out.push(interner.id(term)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::terms;

    /// The terms of `document[range]` through the fast path, as strings.
    fn fast(document: &str, range: Range<usize>) -> Vec<String> {
        let doc = DocumentTerms::new(document, Lang::En);
        let mut interner = Interner {
            vocabulary: &doc.vocabulary,
            extra: FxHashMap::default(),
        };
        let mut out = Vec::new();
        doc.slice_ids(document, range, &mut interner, &mut out);
        let mut names: Vec<(u32, String)> = doc
            .vocabulary
            .iter()
            .chain(interner.extra.iter())
            .map(|(t, &id)| (id, t.clone()))
            .collect();
        names.sort();
        out.iter().map(|&id| names[id as usize].1.clone()).collect()
    }

    #[test]
    fn a_word_cut_by_the_edge_gives_its_pieces_as_the_chunks_own_text_does() {
        let doc = "We can't stop 32.3 degrees here now";
        // Cut inside "can't" (after "ca") and inside "32.3" (after "32.").
        for range in [5..17, 3..27, 0..doc.len(), 6..8, 9..10] {
            assert_eq!(
                fast(doc, range.clone()),
                terms(&doc[range.clone()], Lang::En),
                "{range:?}"
            );
        }
        assert_eq!(fast(doc, 5..17), ["n't", "stop", "32"]);
    }

    #[test]
    fn a_flag_cut_in_half_pairs_the_indicators_as_the_chunk_does() {
        // Regional indicators pair from the start of their run: cutting one off re-pairs the
        // rest; "x" words around them make the run a word's neighbour.
        let doc = "ab \u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}x cd ef\n gh";
        for a in doc.char_indices().map(|(i, _)| i) {
            for b in doc.char_indices().map(|(i, _)| i).chain([doc.len()]) {
                if a < b {
                    assert_eq!(fast(doc, a..b), terms(&doc[a..b], Lang::En), "{a}..{b}");
                }
            }
        }
    }
}
