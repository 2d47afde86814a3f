//! The BPE tables as files: their form, what this build knows of each, and the check a fetched
//! file must pass before it is used.
//!
//! A table (`build.rs` writes it from tiktoken-rs) is the length of every ordinary token in rank
//! order, one byte each, then the tokens' bytes in rank order, back to back. Natively and in the
//! comparison's module it is embedded (feature `bpe-tables`, [`Encoding::tokenizer`]); the
//! tokenizer's module fetches it as the file [`Encoding::table_file`] and hands the bytes to
//! [`Encoding::load`], which refuses a file whose size or [`checksum`] is not what this build
//! wrote (a stale or damaged copy) with a [`TableError`].

use std::sync::OnceLock;

use super::{Bpe, Encoding};

/// What the build knows of one table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableFacts {
    /// Ordinary tokens (ranks `0..tokens`): as many length bytes open the file.
    pub tokens: u32,
    /// The file's size in bytes.
    pub bytes: usize,
    /// [`checksum`] of the whole file.
    pub checksum: u64,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// The table files' checksum (not cryptographic: it tells a stale or damaged copy from the
/// build's own): 8 bytes at a time, little-endian, the last word padded with zeros, mixed as
/// FxHash does, then the length. About 1 ms per MB in wasm. `build.rs` has the same function.
pub fn checksum(bytes: &[u8]) -> u64 {
    Checksum::new().update(bytes).finish()
}

/// [`checksum`] over bytes given in pieces ([`Checksum::update`]): equal to it over their
/// concatenation. Its functions are `const`, so that a checksum over many strings is computed
/// at compile time without joining them (the page's message bundles' fingerprint,
/// `rag_chunk_calculator::i18n::bundle::fingerprint`).
#[derive(Clone, Copy, Debug)]
pub struct Checksum {
    h: u64,
    /// The bytes of the word being filled (zeros after them), and how many there are.
    word: [u8; 8],
    filled: usize,
    /// Bytes given so far.
    len: u64,
}

impl Checksum {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    /// Nothing given yet.
    pub const fn new() -> Checksum {
        Checksum {
            h: 0,
            word: [0; 8],
            filled: 0,
            len: 0,
        }
    }

    const fn mix(h: u64, word: u64) -> u64 {
        (h.rotate_left(5) ^ word).wrapping_mul(Self::K)
    }

    /// The checksum so far, followed by `bytes`.
    pub const fn update(mut self, bytes: &[u8]) -> Checksum {
        let mut i = 0;
        while i < bytes.len() {
            if self.filled == 0 && i + 8 <= bytes.len() {
                let b = bytes;
                let word = [
                    b[i],
                    b[i + 1],
                    b[i + 2],
                    b[i + 3],
                    b[i + 4],
                    b[i + 5],
                    b[i + 6],
                    b[i + 7],
                ];
                self.h = Self::mix(self.h, u64::from_le_bytes(word));
                i += 8;
            } else {
                self.word[self.filled] = bytes[i];
                self.filled += 1;
                i += 1;
                if self.filled == 8 {
                    self.h = Self::mix(self.h, u64::from_le_bytes(self.word));
                    self.word = [0; 8];
                    self.filled = 0;
                }
            }
        }
        self.len += bytes.len() as u64;
        self
    }

    /// The checksum of every byte given: the last word padded with zeros, then the length.
    pub const fn finish(self) -> u64 {
        let mut h = self.h;
        if self.filled > 0 {
            h = Self::mix(h, u64::from_le_bytes(self.word));
        }
        Self::mix(h, self.len)
    }
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

/// Why the bytes handed to [`Encoding::load`] are not this build's table (English, for the
/// console and the worker's `failed` message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The file's size differs from the build's.
    #[error("{file}: {got} bytes, this build's table has {expected}")]
    Size {
        /// The table's file name ([`Encoding::table_path`]).
        file: &'static str,
        /// Bytes received.
        got: usize,
        /// Bytes of the build's table.
        expected: usize,
    },
    /// The size is right but the content is not the build's.
    #[error("{file}: checksum {got:#018x}, this build's table has {expected:#018x}")]
    Checksum {
        /// The table's file name ([`Encoding::table_path`]).
        file: &'static str,
        /// [`checksum`] of the bytes received.
        got: u64,
        /// [`checksum`] of the build's table.
        expected: u64,
    },
}

/// The tokenizers built from fetched tables, one per encoding (index: position in
/// [`Encoding::ALL`]).
static LOADED: [OnceLock<Bpe>; 2] = [const { OnceLock::new() }; 2];

impl Encoding {
    fn index(self) -> usize {
        match self {
            Encoding::Cl100kBase => 0,
            Encoding::O200kBase => 1,
        }
    }

    /// Size, token count and checksum of this encoding's table as this build wrote it.
    pub fn table_facts(self) -> TableFacts {
        match self {
            Encoding::Cl100kBase => CL100K_BASE,
            Encoding::O200kBase => O200K_BASE,
        }
    }

    /// The table's path in the built site, relative to the page's folder:
    /// `"tables/cl100k_base.bin"` (written there by `crates/tokenize-engine/examples/tables.rs`).
    pub fn table_path(self) -> &'static str {
        match self {
            Encoding::Cl100kBase => "tables/cl100k_base.bin",
            Encoding::O200kBase => "tables/o200k_base.bin",
        }
    }

    /// The URL to fetch the table from, relative to the page's folder: [`Encoding::table_path`]
    /// with the build's checksum as a query (`"tables/cl100k_base.bin?v=0123456789abcdef"`), so
    /// that a browser's HTTP cache never answers with an older build's table.
    pub fn table_file(self) -> String {
        format!(
            "{}?v={:016x}",
            self.table_path(),
            self.table_facts().checksum
        )
    }

    /// The encoding whose [`Encoding::table_file`] is `file`, if any.
    pub fn of_table_file(file: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.table_file() == file)
    }

    /// Checks that `bytes` are this build's table of this encoding: its size, then its
    /// [`checksum`].
    ///
    /// # Errors
    /// [`TableError::Size`] or [`TableError::Checksum`].
    pub fn check_table(self, bytes: &[u8]) -> Result<(), TableError> {
        let facts = self.table_facts();
        let file = self.table_path();
        if bytes.len() != facts.bytes {
            return Err(TableError::Size {
                file,
                got: bytes.len(),
                expected: facts.bytes,
            });
        }
        let got = checksum(bytes);
        if got != facts.checksum {
            return Err(TableError::Checksum {
                file,
                got,
                expected: facts.checksum,
            });
        }
        Ok(())
    }

    /// The tokenizer built from a fetched table ([`Encoding::check_table`] first), kept for the
    /// rest of the process (the bytes are never freed); the one built before when this
    /// encoding is already loaded (the bytes are checked all the same). About 10–30 ms in wasm for cl100k_base.
    ///
    /// # Errors
    /// The bytes are not this build's table ([`TableError`]).
    pub fn load(self, bytes: Vec<u8>) -> Result<&'static Bpe, TableError> {
        self.check_table(&bytes)?;
        if let Some(bpe) = self.loaded() {
            return Ok(bpe);
        }
        let table: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        Ok(LOADED[self.index()].get_or_init(|| Bpe::new(table, self)))
    }

    /// The tokenizer [`Encoding::load`] built, if it has.
    pub fn loaded(self) -> Option<&'static Bpe> {
        LOADED[self.index()].get()
    }

    /// The table embedded in this build (feature `bpe-tables`), as [`Encoding::table_file`]
    /// serves it.
    #[cfg(feature = "bpe-tables")]
    pub fn embedded_table(self) -> &'static [u8] {
        match self {
            Encoding::Cl100kBase => include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bin")),
            Encoding::O200kBase => include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bin")),
        }
    }
}

/// The tokens of a table (see the module documentation), in rank order: `tokens` lengths, then
/// the bytes. Never panics: a table cut short gives empty tokens at its end (a checked table,
/// [`Encoding::check_table`], is whole).
pub(crate) fn tokens_of(table: &'static [u8], tokens: usize) -> Vec<&'static [u8]> {
    let (lens, mut blob) = table.split_at(tokens.min(table.len()));
    let mut out = Vec::with_capacity(tokens);
    for &len in lens {
        let (token, rest) = blob.split_at(usize::from(len).min(blob.len()));
        out.push(token);
        blob = rest;
    }
    out
}

#[cfg(all(test, feature = "bpe-tables"))]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_tables_are_the_ones_the_build_describes() {
        for e in Encoding::ALL {
            let table = e.embedded_table();
            assert_eq!(e.check_table(table), Ok(()), "{e}");
            let tokens = tokens_of(table, e.table_facts().tokens as usize);
            assert_eq!(tokens.len(), e.tokenizer().vocab_size());
            assert_eq!(
                tokens.iter().map(|t| t.len()).sum::<usize>() + tokens.len(),
                table.len()
            );
            // The first 94 tokens are `!` … `~`, one byte each.
            assert_eq!(tokens[0], b"!");
            assert_eq!(tokens[93], b"~");
        }
        assert_eq!(Encoding::Cl100kBase.table_facts().tokens, 100_256);
        assert_eq!(Encoding::O200kBase.table_facts().tokens, 199_998);
    }

    #[test]
    fn a_loaded_table_gives_the_embedded_tokenizer_s_tokens() {
        let text = "Chunks of 猫 and 🐈, with  spaces.\n\n  fn main() { println!(\"x\"); }";
        for e in Encoding::ALL {
            let loaded = e.load(e.embedded_table().to_vec()).unwrap();
            assert_eq!(loaded.encode(text), e.tokenizer().encode(text));
            assert_eq!(
                e.loaded().map(|b| b.vocab_size()),
                Some(loaded.vocab_size())
            );
            assert_eq!(Encoding::of_table_file(&e.table_file()), Some(e));
        }
        assert!(Encoding::Cl100kBase
            .table_file()
            .starts_with("tables/cl100k_base.bin?v="));
        assert_eq!(Encoding::of_table_file("tables/cl100k_base.bin"), None);
    }

    #[test]
    fn a_wrong_file_is_refused_with_what_differs() {
        let e = Encoding::Cl100kBase;
        let table = e.embedded_table();
        assert_eq!(
            e.check_table(&table[1..]).unwrap_err().to_string(),
            format!(
                "tables/cl100k_base.bin: {} bytes, this build's table has {}",
                table.len() - 1,
                table.len()
            )
        );
        let mut changed = table.to_vec();
        changed[500_000] ^= 1;
        let refused = e.check_table(&changed).unwrap_err();
        assert!(
            matches!(refused, TableError::Checksum { file: "tables/cl100k_base.bin", expected, got } if expected == e.table_facts().checksum && got != expected)
        );
        // The other encoding's table is refused too.
        assert!(matches!(
            e.check_table(Encoding::O200kBase.embedded_table()),
            Err(TableError::Size { .. })
        ));
    }

    #[test]
    fn the_checksum_covers_every_byte_and_the_length() {
        assert_ne!(checksum(b"abc"), checksum(b"abd"));
        assert_ne!(checksum(b"abc"), checksum(b"abc\0"));
        assert_ne!(checksum(b"0123456789"), checksum(b"0123456789\0\0"));
        assert_eq!(checksum(b""), 0);
    }

    #[test]
    fn the_checksum_in_pieces_is_the_checksum_of_the_whole() {
        let text: Vec<u8> = (0..100u8).map(|i| i.wrapping_mul(37)).collect();
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 100] {
            let whole = checksum(&text[..len]);
            for cut in 0..=len {
                for cut2 in cut..=len {
                    let pieces = Checksum::new()
                        .update(&text[..cut])
                        .update(&text[cut..cut2])
                        .update(&text[cut2..len])
                        .finish();
                    assert_eq!(pieces, whole, "{len} bytes cut at {cut} and {cut2}");
                }
            }
        }
        // Byte by byte, over a table, as `build.rs` computed it.
        let e = Encoding::Cl100kBase;
        let table = &e.embedded_table()[..100_003];
        let byte_by_byte = table
            .iter()
            .fold(Checksum::new(), |c, b| c.update(std::slice::from_ref(b)));
        assert_eq!(byte_by_byte.finish(), checksum(table));
        assert_eq!(checksum(e.embedded_table()), e.table_facts().checksum);
    }
}
