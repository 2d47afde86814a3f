//! Shows a byte range of a text honestly: whole characters as text, and a character cut by a
//! window edge as its bytes, never as an invented replacement character (U+FFFD).

/// One run of a chunk's bytes, for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Whole characters that lie entirely inside the range.
    Text(String),
    /// Some bytes of one character whose other bytes lie outside the range.
    PartialChar {
        /// The bytes inside the range.
        bytes: Vec<u8>,
        /// The whole character these bytes belong to.
        whole: char,
        /// True when the range holds the character's first byte (the character is counted in
        /// this range by [`chars_starting_in`]).
        holds_first_byte: bool,
    },
}

/// Splits `text.as_bytes()[start..end]` into display segments. Offsets are clamped to the text;
/// they may fall inside a multi-byte character.
///
/// Concatenating the bytes of the segments gives back exactly the bytes of the range.
pub fn segments(text: &str, start: usize, end: usize) -> Vec<Segment> {
    let end = end.min(text.len());
    let start = start.min(end);
    let mut out = Vec::new();
    // Expand to whole characters, then cut the partial ones at each edge.
    let mut lo = start;
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = end;
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    for (at, ch) in text[lo..hi].char_indices() {
        let (cs, ce) = (lo + at, lo + at + ch.len_utf8());
        let (s, e) = (cs.max(start), ce.min(end));
        if s >= e {
            continue;
        }
        if s == cs && e == ce {
            match out.last_mut() {
                Some(Segment::Text(t)) => t.push(ch),
                _ => out.push(Segment::Text(ch.to_string())),
            }
        } else {
            out.push(Segment::PartialChar {
                bytes: text.as_bytes()[s..e].to_vec(),
                whole: ch,
                holds_first_byte: s == cs,
            });
        }
    }
    out
}

/// Number of characters whose first byte lies in `[start, end)`. Over windows that tile the
/// text without overlap, these counts add up to the text's character count.
pub fn chars_starting_in(text: &str, start: usize, end: usize) -> usize {
    let end = end.min(text.len());
    let start = start.min(end);
    text.as_bytes()[start..end]
        .iter()
        .filter(|&&b| (b as i8) >= -0x40) // not a UTF-8 continuation byte (0b10xx_xxxx)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_of(segs: &[Segment]) -> Vec<u8> {
        segs.iter()
            .flat_map(|s| match s {
                Segment::Text(t) => t.as_bytes().to_vec(),
                Segment::PartialChar { bytes, .. } => bytes.clone(),
            })
            .collect()
    }

    #[test]
    fn cut_inside_a_character_shows_bytes() {
        let t = "a猫b";
        let segs = segments(t, 0, 2);
        assert_eq!(
            segs,
            vec![
                Segment::Text("a".into()),
                Segment::PartialChar {
                    bytes: vec![0xE7],
                    whole: '猫',
                    holds_first_byte: true
                }
            ]
        );
        let segs = segments(t, 2, 5);
        assert_eq!(bytes_of(&segs), t.as_bytes()[2..5].to_vec());
        assert!(!segs
            .iter()
            .any(|s| matches!(s, Segment::Text(x) if x.contains('\u{FFFD}'))));
        assert_eq!(chars_starting_in(t, 0, 2), 2);
        assert_eq!(chars_starting_in(t, 2, 5), 1);
    }

    #[test]
    fn byte_tiling_counts_each_char_once() {
        let t = "Mèo 猫 🐈 cat";
        let mut total = 0;
        let mut rebuilt = Vec::new();
        for s in 0..t.len() {
            total += chars_starting_in(t, s, s + 1);
            rebuilt.extend(bytes_of(&segments(t, s, s + 1)));
        }
        assert_eq!(total, t.chars().count());
        assert_eq!(rebuilt, t.as_bytes());
    }
}
