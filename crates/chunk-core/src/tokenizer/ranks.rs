//! The rank lookup (token bytes → rank) that the merge asks tens of times per piece.
//!
//! Keys of up to [`PACKED_MAX`] bytes (all tokens but 1,030 of cl100k_base's and 5,492 of
//! o200k_base's, and almost every pair the merge tries) are packed into one or two `u64` words
//! with their length, so a lookup hashes and compares words: no walk over the bytes and no
//! read of the token's bytes elsewhere in memory (a second cache miss per lookup with a map
//! keyed by byte slices). Longer keys go to a map keyed by the bytes themselves.

use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Longest key packed into a [`Packed`] (the 16th byte holds the length).
pub(crate) const PACKED_MAX: usize = 15;

/// A key of at most [`PACKED_MAX`] bytes: bytes 0–7 little-endian in the first word, bytes
/// 8–14 in the second, the length in the second word's top byte. Equal keys ⇔ equal bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Packed(u64, u64);

impl Hash for Packed {
    /// One 64-bit word whose low 32 bits depend on every bit of both words: hashbrown picks
    /// the bucket from the low bits and the tag from the top 7 bits of the hash's low `usize`
    /// (32 bits in wasm). Each word's high half is folded into its low half before it is
    /// multiplied, since a multiply carries only upwards. (FxHash over the two words, measured,
    /// made o200k_base 13.9 MB/s in Node's wasm against 17.2 with the byte slices as keys.)
    #[inline(always)]
    fn hash<H: Hasher>(&self, state: &mut H) {
        let a = fold(self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = fold(self.1 ^ a.rotate_left(32)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        state.write_u64(fold(b));
    }
}

/// A key of 3 to 7 bytes: the bytes little-endian, the length in the top byte. Most tokens and
/// most pairs the merge tries; a map of these has 16-byte entries where [`Packed`] has 24, so
/// more of it stays in the processor's cache.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Short(u64);

impl Hash for Short {
    /// As for [`Packed`]: the hash's low 32 bits depend on every bit of the word.
    #[inline(always)]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(fold(fold(self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    }
}

/// `w` with its high half XOR-ed into its low half.
#[inline(always)]
fn fold(w: u64) -> u64 {
    w ^ (w >> 32)
}

/// The hasher of the [`Short`] and [`Packed`] maps: takes the one word their `Hash` writes as
/// the hash.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline(always)]
    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }

    /// Not used by [`Short`] or [`Packed`]; any other input is folded in, so the hasher stays a
    /// hasher.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Reads `b[at..at + 8]` as a little-endian word (`at + 8 <= b.len()`).
#[inline(always)]
fn word(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads `b[at..at + 4]` as a little-endian word (`at + 4 <= b.len()`).
#[inline(always)]
fn half(b: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(
        b[at..at + 4].try_into().expect("4 bytes"),
    ))
}

/// The first `min(len, 8)` bytes of `b` as a little-endian word, zero above them.
///
/// Two overlapping reads cover any length without a loop: the bytes they share are equal, so
/// OR-ing the second, shifted to its place, changes nothing there.
#[inline(always)]
fn low(b: &[u8]) -> u64 {
    match b.len() {
        0 => 0,
        1 => u64::from(b[0]),
        2 | 3 => {
            let n = b.len();
            let first = u64::from(u16::from_le_bytes([b[0], b[1]]));
            let last = u64::from(u16::from_le_bytes([b[n - 2], b[n - 1]]));
            first | last << (8 * (n - 2))
        }
        4..=7 => {
            let n = b.len();
            half(b, 0) | half(b, n - 4) << (8 * (n - 4))
        }
        _ => word(b, 0),
    }
}

/// `b` packed with its length, or `None` when it is longer than [`PACKED_MAX`].
#[inline(always)]
fn pack(b: &[u8]) -> Option<Packed> {
    let n = b.len();
    let len = (n as u64) << 56;
    match n {
        0..=8 => Some(Packed(low(b), len)),
        9..=PACKED_MAX => {
            // Bytes 8..n are the top n − 8 bytes of the word ending at n.
            let high = word(b, n - 8) >> (8 * (16 - n));
            Some(Packed(word(b, 0), high | len))
        }
        _ => None,
    }
}

/// `b` as a [`Short`] key when it is 3 to 7 bytes long.
#[inline(always)]
fn short(b: &[u8]) -> Option<Short> {
    (3..=7)
        .contains(&b.len())
        .then(|| Short(low(b) | (b.len() as u64) << 56))
}

/// Token bytes → rank, for one encoding's table (or a test's toy table).
///
/// (An open-addressing table of its own, with the key and rank side by side in each slot, was
/// measured slower than this map: cl100k_base 29 against 37 MB/s natively on the bench corpus,
/// best of 15 passes, 2026-12-06.)
pub(crate) struct Ranks {
    /// Tokens of 3 to 7 bytes.
    short: HashMap<Short, u32, BuildHasherDefault<WordHasher>>,
    /// Tokens of 8 to [`PACKED_MAX`] bytes.
    packed: HashMap<Packed, u32, BuildHasherDefault<WordHasher>>,
    /// Longer tokens, by their bytes.
    long: FxHashMap<&'static [u8], u32>,
    /// The length of the longest key in `long` (0 if none): a longer key is no token, and is
    /// not hashed (a chunker asks about slices of a long run, kilobytes each).
    longest: usize,
    /// The rank of each single byte (`u32::MAX` where a byte is not a token), where every
    /// merge starts.
    bytes: [u32; 256],
    /// The rank of each two-byte string, indexed by its little-endian `u16` (`u32::MAX` where
    /// it is not a token): the first pairs every merge tries, about half of its lookups, by
    /// index instead of a hash (256 KiB).
    pairs: Vec<u32>,
}

impl Default for Ranks {
    fn default() -> Self {
        Ranks::with_capacity(0)
    }
}

impl Ranks {
    /// An empty table with room for `n` tokens.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Ranks {
            short: HashMap::with_capacity_and_hasher(n, Default::default()),
            packed: HashMap::default(),
            long: FxHashMap::default(),
            longest: 0,
            bytes: [u32::MAX; 256],
            pairs: vec![u32::MAX; 1 << 16],
        }
    }

    /// Adds (or replaces) the rank of `bytes`.
    pub(crate) fn insert(&mut self, bytes: &'static [u8], rank: u32) {
        match bytes {
            [b] => {
                self.bytes[usize::from(*b)] = rank;
                return;
            }
            [a, b] => {
                self.pairs[usize::from(u16::from_le_bytes([*a, *b]))] = rank;
                return;
            }
            _ => {}
        }
        if let Some(key) = short(bytes) {
            self.short.insert(key, rank);
            return;
        }
        match pack(bytes) {
            Some(key) => self.packed.insert(key, rank),
            None => {
                self.longest = self.longest.max(bytes.len());
                self.long.insert(bytes, rank)
            }
        };
    }

    /// The rank of `bytes`, if they are a token: single bytes and pairs by index, keys of 3 to
    /// 7 bytes in the [`Short`] map, 8 to 15 in the [`Packed`] map, longer ones by their bytes.
    /// (Forcing this inline was measured slower: cl100k_base 26.5 against 27.8 MB/s in Node's
    /// wasm.)
    #[inline]
    pub(crate) fn get(&self, bytes: &[u8]) -> Option<u32> {
        let direct = match bytes {
            [b] => Some(self.bytes[usize::from(*b)]),
            [a, b] => Some(self.pairs[usize::from(u16::from_le_bytes([*a, *b]))]),
            _ => None,
        };
        if let Some(rank) = direct {
            return (rank != u32::MAX).then_some(rank);
        }
        if let Some(key) = short(bytes) {
            return self.short.get(&key).copied();
        }
        match pack(bytes) {
            Some(key) => self.packed.get(&key).copied(),
            None if bytes.len() > self.longest => None,
            None => self.long.get(bytes).copied(),
        }
    }

    /// The rank of the single byte `b` (`u32::MAX` if it is not a token).
    #[inline]
    pub(crate) fn byte(&self, b: u8) -> u32 {
        self.bytes[usize::from(b)]
    }

    /// Whether `bytes` are a token.
    #[inline]
    pub(crate) fn contains_key(&self, bytes: &[u8]) -> bool {
        self.get(bytes).is_some()
    }
}

impl FromIterator<(&'static [u8], u32)> for Ranks {
    fn from_iter<I: IntoIterator<Item = (&'static [u8], u32)>>(iter: I) -> Self {
        let mut ranks = Ranks::default();
        for (bytes, rank) in iter {
            ranks.insert(bytes, rank);
        }
        ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length from 0 to 20, bytes with zeros among them (a zero-padded packing would
    /// confuse "a" with "a\0"): each key finds its own rank and no other's.
    #[test]
    fn keys_of_every_length_are_told_apart() {
        let mut keys: Vec<&'static [u8]> = Vec::new();
        for n in 0..=20usize {
            for fill in [0u8, 1, 0xFF] {
                let v: Vec<u8> = (0..n)
                    .map(|i| {
                        if i % 3 == 1 {
                            fill
                        } else {
                            b'a' + (i as u8 % 26)
                        }
                    })
                    .collect();
                keys.push(Box::leak(v.into_boxed_slice()));
            }
        }
        keys.sort();
        keys.dedup();
        let ranks: Ranks = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (*k, i as u32))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(ranks.get(k), Some(i as u32), "{k:?}");
            let mut longer = k.to_vec();
            longer.push(0);
            if !keys.contains(&longer.as_slice()) {
                assert_eq!(ranks.get(&longer), None, "{longer:?}");
            }
        }
    }

    /// Packing equals a plain copy of the bytes into 16 with the length in the last.
    #[test]
    fn packing_equals_a_plain_copy() {
        let bytes: Vec<u8> = (1..=40u8).map(|b| b.wrapping_mul(37)).collect();
        for start in 0..8 {
            for n in 0..=PACKED_MAX {
                let b = &bytes[start..start + n];
                let mut plain = [0u8; 16];
                plain[..n].copy_from_slice(b);
                plain[15] = n as u8;
                let expected = Packed(
                    u64::from_le_bytes(plain[..8].try_into().unwrap()),
                    u64::from_le_bytes(plain[8..].try_into().unwrap()),
                );
                assert_eq!(pack(b), Some(expected), "{n}");
            }
        }
        assert_eq!(pack(&bytes[..16]), None);
    }
}
