//! Unicode classes used by the split patterns, generated at build time from regex-syntax (the
//! Unicode data of tiktoken-rs's regexes): one `u16` bit set per character.

include!(concat!(env!("OUT_DIR"), "/unicode_classes.rs"));

/// `\p{L}`: letters.
pub(crate) const L: u16 = 1 << 0;
/// `\p{N}`: numbers.
pub(crate) const N: u16 = 1 << 1;
/// `\s`: Unicode White_Space.
pub(crate) const WS: u16 = 1 << 2;
/// `\p{Lu}`, `\p{Lt}`, `\p{Lm}`, `\p{Lo}`, `\p{Ll}`, `\p{M}`.
const LU: u16 = 1 << 3;
const LT: u16 = 1 << 4;
const LM: u16 = 1 << 5;
const LO: u16 = 1 << 6;
const LL: u16 = 1 << 7;
const M: u16 = 1 << 8;
/// o200k_base's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
pub(crate) const UPPERISH: u16 = LU | LT | LM | LO | M;
/// o200k_base's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
pub(crate) const LOWERISH: u16 = LL | LM | LO | M;

/// The class bits of `c`.
#[inline]
pub(crate) fn of(c: char) -> u16 {
    let cp = c as u32;
    if cp < 128 {
        ASCII[cp as usize]
    } else if cp < 0x1_0000 {
        of_bmp(cp)
    } else {
        // STARTS[0] == 0, so the index is ≥ 1.
        BITS[STARTS.partition_point(|&s| s <= cp) - 1]
    }
}

/// The class bits of the code point `cp` of the Basic Multilingual Plane (`cp < 0x10000`).
#[inline(always)]
pub(crate) fn of_bmp(cp: u32) -> u16 {
    let block = usize::from(BMP_INDEX[(cp >> 7) as usize]);
    BMP_BLOCKS[block * 128 + (cp & 127) as usize]
}

/// `[\p{L}\p{N}\p{M}]`: a letter, number or combining mark (a word character of the
/// simulator's simple tokenizer).
#[inline]
pub(crate) fn is_word_char(c: char) -> bool {
    of(c) & (L | N | M) != 0
}

/// `\s`: Unicode White_Space.
#[inline]
pub(crate) fn is_space(c: char) -> bool {
    of(c) & WS != 0
}

/// `[^\s\p{L}\p{N}]`: neither space, letter nor number (punctuation, symbols, marks, controls).
#[inline]
pub(crate) fn is_other(bits: u16) -> bool {
    bits & (L | N | WS) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bmp_table_equals_the_interval_table() {
        for cp in 0..0x1_0000u32 {
            if let Some(c) = char::from_u32(cp) {
                assert_eq!(
                    of(c),
                    BITS[STARTS.partition_point(|&s| s <= cp) - 1],
                    "{cp:#x}"
                );
            }
        }
    }

    #[test]
    fn classes_agree_with_std_where_std_has_the_same_property() {
        // Below U+3400 both Unicode versions (std's and regex-syntax's) agree; newer code points
        // may be assigned in one and not the other.
        for cp in 0..0x3400 {
            if let Some(c) = char::from_u32(cp) {
                let b = of(c);
                assert_eq!(b & WS != 0, c.is_whitespace(), "{cp:#x}");
                assert_eq!(b & N != 0, c.is_numeric(), "{cp:#x}");
            }
        }
        assert_eq!(of('a'), L | LL);
        assert_eq!(of('É'), L | LU);
        assert_eq!(of('ǅ'), L | LT);
        assert_eq!(of('\u{301}'), M);
        assert_eq!(of('猫'), L | LO);
        assert!(is_other(of('!')) && is_other(of('\u{301}')) && !is_other(of(' ')));
    }
}
