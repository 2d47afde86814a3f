//! all-MiniLM-L6-v2's sentence embeddings against the reference (`oracle/bert_numpy.py`: Hugging
//! Face `tokenizers` on the model's own `tokenizer.json`, and an independent float64 NumPy
//! forward pass from the same `model.safetensors`), on texts in the page's languages, code,
//! an empty text and texts over the model's 256 tokens.
//!
//! Needs the model folder (`EMBED_MODELS_DIR`, from `scripts/ensure-models.sh`) and the oracle
//! venv's Python (`CHUNK_ORACLE_PYTHON`): `make test` provides both. `CHUNK_ORACLE_SKIP=1`
//! skips on purpose, saying so.

mod common;

use std::path::{Path, PathBuf};

use embed_core::folder::ModelFolder;
use embed_core::sentence::{cosine, SentenceEncoder};

/// The bound the issue sets for every model against its reference.
const MIN_COSINE: f64 = 0.9999;

/// The test texts: one per language the page speaks and a few the models meet in documents.
fn texts() -> Vec<String> {
    let long_en = "Chunk size decides what a retriever can find. ".repeat(40);
    let long_ru = "Размер фрагмента определяет, что найдёт поиск. ".repeat(30);
    vec![
        "How many tokens does a 512-token chunk hold after overlap?".into(),
        "Kích thước đoạn quyết định những gì hệ thống truy xuất tìm thấy.".into(),
        "Ukuran potongan menentukan apa yang dapat ditemukan oleh retriever.".into(),
        "Размер фрагмента определяет, что сможет найти поиск.".into(),
        "Rozmiar fragmentu decyduje o tym, co znajdzie wyszukiwarka. Zażółć gęślą jaźń.".into(),
        "分块大小决定了检索器能找到什么。チャンクのサイズが検索結果を決める。".into(),
        "fn main() {\n    let chunks = text.split(\"\\n\\n\").collect::<Vec<_>>();\n}".into(),
        String::new(),
        "   \n\t ".into(),
        "[CLS] special tokens [SEP] written in the text [MASK]".into(),
        "emoji 🤖🧩 and symbols ∑ ≤ ≥ ©".into(),
        long_en,
        long_ru,
    ]
}

fn model_dir() -> Option<(PathBuf, String)> {
    common::oracle_env("embedding reference")
        .map(|(models, python)| (models.join("all-minilm-l6-v2"), python))
}

fn load(dir: &Path) -> SentenceEncoder {
    let folder = ModelFolder::read(dir).unwrap_or_else(|e| panic!("{e}"));
    SentenceEncoder::load(folder.files()).expect("the model loads")
}

#[derive(serde::Deserialize)]
struct Reference {
    ids: Vec<u32>,
    vector: Vec<f32>,
}

fn reference(python: &str, dir: &Path, texts: &[String]) -> Vec<Reference> {
    common::oracle_lines(python, "bert_numpy.py", dir, texts)
        .iter()
        .map(|l| serde_json::from_str(l).expect("a reference line"))
        .collect()
}

#[test]
fn minilm_equals_the_reference_and_int8_stays_close() {
    let Some((dir, python)) = model_dir() else {
        return;
    };
    let texts = texts();
    let fp32 = load(&dir);
    let int8 = fp32.quantize_int8();
    let refs = reference(&python, &dir, &texts);
    assert_eq!(refs.len(), texts.len());
    let (mut worst, mut worst_q) = (1f64, 1f64);
    for (text, r) in texts.iter().zip(&refs) {
        let (ids, _) = fp32.input_ids(text);
        assert_eq!(ids, r.ids, "ids of {text:?}");
        let e = fp32.embed(text);
        let c = cosine(&e.vector, &r.vector);
        assert!(
            c >= MIN_COSINE,
            "cosine {c} against the reference for {text:?}"
        );
        let q = cosine(&int8.embed(text).vector, &e.vector);
        worst = worst.min(c);
        worst_q = worst_q.min(q);
    }
    // Over the model's limit: 256 tokens read, [CLS] and [SEP] included.
    let long = fp32.embed(&texts[11]);
    assert_eq!((long.tokens_read, long.truncated()), (256, true));
    assert!(long.text_tokens > 300, "{}", long.text_tokens);
    let empty = fp32.embed("");
    assert_eq!((empty.tokens_read, empty.truncated()), (2, false));
    println!(
        "all-MiniLM-L6-v2, {} texts: fp32 against the reference, lowest cosine \
         1 − {:.1e}; int8 against fp32, lowest cosine {worst_q:.6}; weights fp32 {} B, int8 {} B",
        texts.len(),
        1.0 - worst,
        fp32.bert().bytes(),
        int8.bert().bytes()
    );
    // Weight-only int8, per output row: measured 0.99 and above on these texts.
    assert!(worst_q >= 0.99, "int8 lowest cosine {worst_q}");
}
