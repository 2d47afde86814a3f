//! Checks a strategy's [`Keeps`] statement on its chunks of one document.

use chunk_core::strategy::{Chunks, Keeps};

/// `Err` says how `chunks` of `text` break `keeps`.
pub fn check(keeps: Keeps, text: &str, chunks: &Chunks) -> Result<(), String> {
    let c = &chunks.chunks;
    if text.is_empty() {
        // Empty chunks only: LlamaIndex's splitters return `[""]` for "".
        return if c.iter().all(|ch| ch.bytes.is_empty() && ch.text.is_none()) {
            Ok(())
        } else {
            Err("chunks of an empty document".into())
        };
    }
    let mut covered = 0; // bytes [0, covered) are accounted for
    let mut prev: Option<&std::ops::Range<usize>> = None;
    for (i, ch) in c.iter().enumerate() {
        let b = &ch.bytes;
        if b.start > b.end || b.end > text.len() {
            return Err(format!("chunk {i}: range {b:?} does not fit the document"));
        }
        if let Some(p) = prev {
            let ordered = match keeps {
                Keeps::Everything | Keeps::TokenWindows => b.start > p.start && b.end > p.end,
                _ => b.start >= p.start && b.end >= p.end,
            };
            if !ordered {
                return Err(format!("chunk {i}: range {b:?} is not after {p:?}"));
            }
        }
        let gap = text
            .as_bytes()
            .get(covered..b.start.max(covered))
            .unwrap_or(&[]);
        match keeps {
            Keeps::AllButWhitespace => {
                if !gap.iter().all(u8::is_ascii_whitespace)
                    && !String::from_utf8_lossy(gap).trim().is_empty()
                {
                    return Err(format!(
                        "chunk {i}: bytes {covered}..{} are dropped and not whitespace",
                        b.start
                    ));
                }
            }
            _ => {
                if !gap.is_empty() {
                    return Err(format!("chunk {i}: bytes {covered}..{} are lost", b.start));
                }
            }
        }
        match (keeps, &ch.text) {
            (Keeps::TokenWindows, Some(own)) => {
                let want = String::from_utf8_lossy(&text.as_bytes()[b.clone()]);
                if text.get(b.clone()).is_some() || *own != want {
                    return Err(format!(
                        "chunk {i}: changed text that is not the decoded window"
                    ));
                }
            }
            (_, Some(_)) => return Err(format!("chunk {i}: text is not the document slice")),
            (_, None) => {
                if text.get(b.clone()).is_none() {
                    return Err(format!("chunk {i}: range {b:?} is not on char boundaries"));
                }
            }
        }
        covered = covered.max(b.end);
        prev = Some(b);
    }
    let tail = &text[covered.min(text.len())..];
    match keeps {
        Keeps::AllButWhitespace if tail.trim().is_empty() => Ok(()),
        _ if tail.is_empty() => Ok(()),
        _ => Err(format!(
            "bytes {covered}..{} at the end are lost",
            text.len()
        )),
    }
}
