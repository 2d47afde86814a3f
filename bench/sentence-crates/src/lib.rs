//! The Rust sentence segmenters under comparison behind one signature, each behind the cargo
//! feature of the same name. Every adapter returns the raw segments, untrimmed: the scoring
//! trims them and drops empty ones.

/// A segmenter: `(language code, text)` → its segments, or `None` when it has no rules for
/// the language.
pub type SegFn = fn(&str, &str) -> Option<Vec<String>>;

/// A segmenter under comparison.
pub struct Candidate {
    /// The crate and its version (and, for srx, its rules).
    pub name: &'static str,
    /// The adapter.
    pub segment: SegFn,
    /// The language its speed is measured in: English, unless it has no English rules.
    pub bench_lang: &'static str,
}

#[cfg(feature = "useg")]
fn useg(_lang: &str, t: &str) -> Option<Vec<String>> {
    use unicode_segmentation::UnicodeSegmentation;
    Some(t.split_sentence_bounds().map(str::to_owned).collect())
}

#[cfg(feature = "icu")]
fn icu(_lang: &str, t: &str) -> Option<Vec<String>> {
    use icu_segmenter::{options::SentenceBreakInvariantOptions, SentenceSegmenter};
    let seg = SentenceSegmenter::new(SentenceBreakInvariantOptions::default());
    let breaks: Vec<usize> = seg.segment_str(t).collect();
    Some(
        breaks
            .windows(2)
            .map(|w| t[w[0]..w[1]].to_owned())
            .collect(),
    )
}

#[cfg(feature = "sentencex")]
fn sentencex(lang: &str, t: &str) -> Option<Vec<String>> {
    Some(
        sentencex::segment(lang, t)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    )
}

/// LanguageTool's segmentation rules (`segment.srx`, LGPL, so not in this repository), read at
/// run time: the file named by `SRX_RULES`, else the copy in the srx 0.1.4 package in the local
/// cargo registry (`$CARGO_HOME/registry/src/*/srx-0.1.4/data/segment.srx`, `$CARGO_HOME`
/// defaulting to `~/.cargo`). `None` when neither is there.
#[cfg(feature = "srx")]
pub fn srx_rules_path() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    if let Some(path) = std::env::var_os("SRX_RULES") {
        return Some(path.into());
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(cargo_home.join("registry/src"))
        .ok()?
        .filter_map(|e| Some(e.ok()?.path().join("srx-0.1.4/data/segment.srx")))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.into_iter().next()
}

#[cfg(feature = "srx")]
static SRX: std::sync::LazyLock<Result<srx::SRX, String>> = std::sync::LazyLock::new(|| {
    use std::str::FromStr;
    let path = srx_rules_path().ok_or(
        "no srx-0.1.4/data/segment.srx in the cargo registry: set SRX_RULES to a segment.srx",
    )?;
    let xml = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    srx::SRX::from_str(&xml).map_err(|e| format!("{}: {e}", path.display()))
});

/// The srx rules: how many rules the crate dropped (regex features it lacks), or why the rules
/// could not be loaded, in which case srx is not a candidate.
#[cfg(feature = "srx")]
pub fn srx_status() -> Result<usize, String> {
    let srx = SRX.as_ref().map_err(String::clone)?;
    Ok(srx.errors().values().map(Vec::len).sum())
}

#[cfg(feature = "srx")]
fn srx(lang: &str, t: &str) -> Option<Vec<String>> {
    let srx = SRX.as_ref().ok()?;
    Some(
        srx.language_rules(lang)
            .split(t)
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(feature = "sentence_segmentation")]
fn sentence_segmentation(lang: &str, t: &str) -> Option<Vec<String>> {
    use sentence_segmentation::processor as p;
    Some(match lang {
        "en" => p::english(t),
        "vi" => p::vietnamese(t),
        "id" => p::indonesian(t),
        "ru" => p::russian(t),
        "pl" => p::polish(t),
        "zh" => p::chinese(t),
        "ja" => p::japanese(t),
        "hi" => p::hindi(t),
        _ => return None,
    })
}

#[cfg(feature = "sentencize")]
fn sentencize(_lang: &str, t: &str) -> Option<Vec<String>> {
    Some(
        sentencize::split(t)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(feature = "cutters")]
fn cutters(_lang: &str, t: &str) -> Option<Vec<String>> {
    let cut = cutters::cut(t, cutters::Language::English);
    Some(cut.into_iter().map(|s| s.str.to_owned()).collect())
}

#[cfg(feature = "anyseg")]
fn anyseg(lang: &str, t: &str) -> Option<Vec<String>> {
    let seg = anyseg::Segmenter::new(lang).ok()?;
    Some(
        seg.sentenize(t)
            .into_iter()
            .map(|s| s.slice(t).to_owned())
            .collect(),
    )
}

#[cfg(feature = "pragmatic")]
static PRAGMATIC: std::sync::LazyLock<pragmatic_segmenter::Segmenter> =
    std::sync::LazyLock::new(|| pragmatic_segmenter::Segmenter::new().expect("segmenter"));

#[cfg(feature = "pragmatic")]
fn pragmatic(_lang: &str, t: &str) -> Option<Vec<String>> {
    Some(PRAGMATIC.segment(t).map(str::to_owned).collect())
}

/// The segmenters enabled by the build's features, in a fixed order (srx only when its rules
/// load).
pub fn candidates() -> Vec<Candidate> {
    #[allow(unused_mut)] // with no segmenter enabled
    let mut v: Vec<Candidate> = Vec::new();
    #[cfg(feature = "useg")]
    v.push(Candidate {
        name: "unicode-segmentation 1.12",
        segment: useg,
        bench_lang: "en",
    });
    #[cfg(feature = "icu")]
    v.push(Candidate {
        name: "icu_segmenter 2.4",
        segment: icu,
        bench_lang: "en",
    });
    #[cfg(feature = "sentencex")]
    v.push(Candidate {
        name: "sentencex 0.1.33",
        segment: sentencex,
        bench_lang: "en",
    });
    #[cfg(feature = "srx")]
    if SRX.is_ok() {
        v.push(Candidate {
            name: "srx 0.1.4 + LT segment.srx",
            segment: srx,
            bench_lang: "en",
        });
    }
    #[cfg(feature = "sentence_segmentation")]
    v.push(Candidate {
        name: "sentence_segmentation 1.3",
        segment: sentence_segmentation,
        bench_lang: "en",
    });
    #[cfg(feature = "sentencize")]
    v.push(Candidate {
        name: "sentencize 0.1.0",
        segment: sentencize,
        bench_lang: "en",
    });
    #[cfg(feature = "cutters")]
    v.push(Candidate {
        name: "cutters 0.1.4",
        segment: cutters,
        bench_lang: "en",
    });
    // Of the languages tested, anyseg has rules for Russian only.
    #[cfg(feature = "anyseg")]
    v.push(Candidate {
        name: "anyseg 0.2.0",
        segment: anyseg,
        bench_lang: "ru",
    });
    #[cfg(feature = "pragmatic")]
    v.push(Candidate {
        name: "pragmatic-segmenter 0.1.3",
        segment: pragmatic,
        bench_lang: "en",
    });
    v
}

/// The export that keeps the first enabled segmenter in the wasm `cdylib` (whose size
/// `wasm-size.sh` measures): the number of segments of the UTF-8 text of `len` bytes at `ptr`,
/// in English (0 if it is not UTF-8 or the segmenter has no English rules). With no segmenter
/// enabled it counts full stops, the baseline.
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sbd_count(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let Ok(t) = std::str::from_utf8(bytes) else {
        return 0;
    };
    match candidates().first() {
        Some(c) => (c.segment)("en", t).map_or(0, |v| v.len()),
        None => t.split('.').count(),
    }
}
