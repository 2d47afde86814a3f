//! Figures about a text itself, before any tokenizer: its length in characters, the
//! replacement characters (U+FFFD) it holds, and its size in whole KiB / MiB as the page
//! states it. Units are explicit: bytes are UTF-8 bytes, characters are Unicode scalar values
//! (Python's `len`).

/// The text's length in characters (Unicode scalar values, Python's `len(text)`), as a `u64`
/// because the formula's character estimate takes one
/// ([`crate::formula::DocLength::from_chars`]).
pub fn char_count(text: &str) -> u64 {
    text.chars().count() as u64
}

/// How many replacement characters (U+FFFD) the text holds: what a source or the browser put
/// in place of bytes or UTF-16 halves that were not characters. A `char` pattern (a
/// `memchr` on its last byte), so 10 MB scan in a few milliseconds in wasm.
pub fn replacement_chars(text: &str) -> usize {
    text.matches('\u{FFFD}').count()
}

/// Bytes in one KiB (the page's "KB").
pub const KIB: usize = 1024;
/// Bytes in one MiB (the page's "MB").
pub const MIB: u64 = 1024 * 1024;

/// `bytes` in whole KiB, rounded down (32,767 bytes → 31): the size the page quotes for a
/// long text ("this document (31 KB, …)").
pub fn whole_kib(bytes: usize) -> usize {
    bytes / KIB
}

/// `bytes` in whole MiB, rounded down (10,485,760 bytes → 10): the file-size limit the page
/// quotes.
pub fn whole_mib(bytes: u64) -> u64 {
    bytes / MIB
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_scalar_values_not_bytes_or_utf16_units() {
        assert_eq!(char_count(""), 0);
        assert_eq!(char_count("abc"), 3);
        // é is 2 bytes, 猫 3, 🐈 4 bytes and 2 UTF-16 units: each one character.
        assert_eq!(char_count("é猫🐈"), 3);
        assert_eq!("é猫🐈".len(), 9);
        // A combining accent is a character of its own, as in Python.
        assert_eq!(char_count("e\u{301}"), 2);
    }

    #[test]
    fn replacement_characters_are_counted_wherever_they_are() {
        assert_eq!(replacement_chars("no replacement"), 0);
        assert_eq!(replacement_chars("\u{FFFD}"), 1);
        assert_eq!(replacement_chars("a\u{FFFD}\u{FFFD}b猫\u{FFFD}"), 3);
        // What invalid UTF-8 becomes in a lossy decode: one U+FFFD per bad sequence.
        let lossy = String::from_utf8_lossy(b"caf\xe9 \xe7\x8c and \xff");
        assert_eq!(replacement_chars(&lossy), 3);
    }

    #[test]
    fn sizes_are_whole_units_rounded_down() {
        assert_eq!(whole_kib(0), 0);
        assert_eq!(whole_kib(1023), 0);
        assert_eq!(whole_kib(1024), 1);
        assert_eq!(whole_kib(32 * 1024 - 1), 31);
        assert_eq!(whole_kib(10 * 1024 * 1024), 10_240);
        assert_eq!(whole_mib(10 * 1024 * 1024), 10);
        assert_eq!(whole_mib(10 * 1024 * 1024 - 1), 9);
        assert_eq!(whole_kib("猫".repeat(1000).len()), 2);
    }
}
