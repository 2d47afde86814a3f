//! The site's model file of all-MiniLM-L6-v2 (`embed_core::site`), read with the vocabulary the
//! page serves (`crates/chunk-core/vocab/bert-base-uncased.txt`), gives exactly the vectors of
//! the published model loaded and quantized natively (`SentenceEncoder::load(..).quantize_int8()`),
//! bit for bit. The sizes the model select shows (`DenseModel::download_bytes`) are those of
//! the files the build writes.
//!
//! Needs the model folder (`EMBED_MODELS_DIR`, from `scripts/ensure-models.sh`), which
//! `make test` provides; `CHUNK_ORACLE_SKIP=1` skips on purpose, saying so.

use std::path::PathBuf;

use chunk_core::retrieval::dense::DenseModel;
use embed_core::folder::{ModelFolder, StaticFolder};
use embed_core::sentence::SentenceEncoder;
use embed_core::site;

fn model_dir() -> Option<PathBuf> {
    if std::env::var("CHUNK_ORACLE_SKIP").as_deref() == Ok("1") {
        eprintln!("site model test NOT RUN: CHUNK_ORACLE_SKIP=1");
        return None;
    }
    let dir = std::env::var("EMBED_MODELS_DIR")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| {
            panic!(
                "EMBED_MODELS_DIR is not set, so the site model test cannot run: use `make test` \
                 (scripts/ensure-models.sh), or set CHUNK_ORACLE_SKIP=1 to skip"
            )
        });
    Some(PathBuf::from(dir))
}

#[test]
fn the_site_file_equals_the_native_int8_model_bit_for_bit() {
    let Some(dir) = model_dir().map(|d| d.join("all-minilm-l6-v2")) else {
        return;
    };
    let folder = ModelFolder::read(&dir).unwrap_or_else(|e| panic!("{e}"));
    let files = folder.files();
    let native = SentenceEncoder::load(files).unwrap().quantize_int8();
    let bytes = site::write_int8("all-minilm-l6-v2", files).unwrap();
    let served_vocab = include_str!("../../chunk-core/vocab/bert-base-uncased.txt");
    assert_eq!(
        served_vocab, files.vocab,
        "the page's vocabulary is the model's vocab.txt"
    );
    let model = site::read(&bytes, served_vocab).unwrap();
    assert_eq!(model.id, "all-minilm-l6-v2");
    assert_eq!(model.encoder.max_seq_length(), 256);
    assert_eq!(model.encoder.bert().config().hidden_size, 384);
    let texts = [
        String::new(),
        "How many tokens does a 512-token chunk hold after overlap?".into(),
        "Размер фрагмента определяет, что сможет найти поиск.".into(),
        "分块大小决定了检索器能找到什么。".into(),
        "Chunk size decides what a retriever can find. ".repeat(40),
    ];
    for text in &texts {
        let (a, b) = (model.encoder.embed(text), native.embed(text));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.vector), bits(&b.vector), "{text:?}");
        assert_eq!(a.tokens_read, b.tokens_read);
    }
    assert_eq!(
        DenseModel::AllMiniLmL6V2.download_bytes(),
        (bytes.len() + served_vocab.len()) as u64,
        "the model select's size of all-MiniLM-L6-v2: its file and vocabulary"
    );
    println!(
        "site model file {}: {} bytes (weights held {} bytes)",
        site::file_path("all-minilm-l6-v2"),
        bytes.len(),
        model.encoder.bert().bytes()
    );
}

#[test]
fn the_static_model_s_download_is_its_site_file_and_vocabulary() {
    let Some(dir) = model_dir().map(|d| d.join("potion-base-8m")) else {
        return;
    };
    let folder = StaticFolder::read(&dir).unwrap_or_else(|e| panic!("{e}"));
    let (files, vocab) = (folder.files(), folder.vocab());
    let bytes = site::write_static_int8("potion-base-8m", files).unwrap();
    assert_eq!(
        DenseModel::PotionBase8M.download_bytes(),
        (bytes.len() + vocab.len()) as u64,
        "the model select's size of potion-base-8M: its file ({} B) and vocabulary ({} B)",
        bytes.len(),
        vocab.len()
    );
}
