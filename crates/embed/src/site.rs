//! The site's model file: one sentence-transformers BERT model with int8 weights, in one
//! safetensors file that the page serves from its own origin (`models/<id>.int8.safetensors`,
//! [`file_path`]), written by the build ([`write_int8`]) and read by the embedding worker
//! ([`read`]).
//!
//! The file is the safetensors format ([`crate::safetensors`]), so any reader of that format
//! can open it:
//! - the tensors are [`crate::bert::Bert::tensors`] of [`crate::bert::Bert::quantize_int8`]: every linear layer's and the
//!   word table's `….weight` as `I8` (`rows × columns`) with `….weight_scale` as `F32` (`rows`:
//!   `weight ≈ I8 × scale`, row by row), every bias, layer normalisation and the position and
//!   token-type tables as `F32`, named as `transformers` names them (no `bert.` prefix);
//! - `__metadata__` holds, as strings: [`FORMAT_KEY`] = [`FORMAT_VERSION`]; [`MODEL_ID_KEY`],
//!   the page's model id (`all-minilm-l6-v2`); the model folder's `config.json`,
//!   `sentence_bert_config.json`, `1_Pooling/config.json` and `modules.json` as they were, under
//!   those names ([`CONFIG_FILES`]); [`DATA_CHECKSUM_KEY`], 16 hex digits of
//!   [`checksum`] over the tensors' bytes (everything after the header), and
//!   [`CONFIG_CHECKSUM_KEY`], the same over the id and the four files (each followed by a zero
//!   byte, in that order), so that a damaged copy is refused rather than embedding wrongly.
//!
//! The vocabulary is not in the file: the page already serves it (`vocab/<name>.txt`), and the
//! reader is handed its text.
//!
//! all-MiniLM-L6-v2: 22.7 M weights; the published fp32 file is 90.9 MB, this one about 23 MB.

use std::collections::BTreeMap;

use chunk_core::tokenizer::table::checksum;

use crate::encoder::Encoder;
use crate::safetensors::{self, LoadError, SafeTensors, Tensor};
use crate::sentence::{ModelFiles, SentenceEncoder};
use crate::static_model::{StaticEncoder, StaticFiles, TABLE, TABLE_SCALE};

/// The metadata key naming this file's layout, and its value.
pub const FORMAT_KEY: &str = "rag_chunk_calculator_site_model";
/// The layout this module writes and reads ([`FORMAT_KEY`]'s value).
pub const FORMAT_VERSION: &str = "1";
/// The metadata key of the page's model id.
pub const MODEL_ID_KEY: &str = "model_id";
/// The metadata key of the tensors' checksum (16 lower-case hex digits).
pub const DATA_CHECKSUM_KEY: &str = "data_checksum";
/// The metadata key of the id's and configuration files' checksum (16 lower-case hex digits).
pub const CONFIG_CHECKSUM_KEY: &str = "config_checksum";
/// The model folder's configuration files kept in the metadata, under their paths in the folder.
pub const CONFIG_FILES: [&str; 4] = [
    "config.json",
    "sentence_bert_config.json",
    "1_Pooling/config.json",
    "modules.json",
];

/// Where the page serves model `id`'s file, relative to the page's folder:
/// `models/<id>.int8.safetensors`.
pub fn file_path(id: &str) -> String {
    format!("models/{id}.int8.safetensors")
}

/// A model read from a site file.
#[derive(Debug, Clone)]
pub struct SiteModel {
    /// The page's model id ([`MODEL_ID_KEY`]).
    pub id: String,
    /// The encoder, equal to `SentenceEncoder::load(..).quantize_int8()` of the folder the file
    /// was written from, vector for vector.
    pub encoder: SentenceEncoder,
}

/// The checksum of `texts`, each followed by a zero byte, in order: what a site file's
/// [`CONFIG_CHECKSUM_KEY`] covers (a BERT's id and its [`CONFIG_FILES`] in that order; a static
/// model's id, [`KIND_STATIC`] and its `config.json`).
fn texts_checksum(texts: &[&str]) -> u64 {
    let mut bytes = Vec::new();
    for text in texts {
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
    }
    checksum(&bytes)
}

/// `tensors` as a site file: `metadata` with [`FORMAT_KEY`], [`CONFIG_CHECKSUM_KEY`] over
/// `covered` ([`texts_checksum`]) and [`DATA_CHECKSUM_KEY`] over the tensors' bytes as the
/// writer lays them out.
fn write_site(
    tensors: &[(String, Vec<usize>, Tensor)],
    mut metadata: BTreeMap<String, String>,
    covered: &[&str],
) -> Vec<u8> {
    metadata.insert(FORMAT_KEY.to_owned(), FORMAT_VERSION.to_owned());
    metadata.insert(
        CONFIG_CHECKSUM_KEY.to_owned(),
        format!("{:016x}", texts_checksum(covered)),
    );
    let data = safetensors::write(tensors, &BTreeMap::new());
    let header = u64::from_le_bytes(data[..8].try_into().unwrap_or_default()) as usize;
    metadata.insert(
        DATA_CHECKSUM_KEY.to_owned(),
        format!("{:016x}", checksum(&data[8 + header..])),
    );
    safetensors::write(tensors, &metadata)
}

/// Metadata entry `key` of a site file.
fn entry<'m>(meta: &'m BTreeMap<String, String>, key: &str) -> Result<&'m str, LoadError> {
    meta.get(key)
        .map(String::as_str)
        .ok_or_else(|| LoadError::Config(format!("the site model file has no metadata {key:?}")))
}

/// Refuses a file of another layout than [`FORMAT_VERSION`].
fn check_layout(meta: &BTreeMap<String, String>) -> Result<(), LoadError> {
    let format = entry(meta, FORMAT_KEY)?;
    if format != FORMAT_VERSION {
        return Err(LoadError::Config(format!(
            "site model layout {format:?}, this reader reads {FORMAT_VERSION:?}"
        )));
    }
    Ok(())
}

/// Refuses a damaged file: [`DATA_CHECKSUM_KEY`] against the tensors' bytes,
/// [`CONFIG_CHECKSUM_KEY`] against `covered`.
fn check_sums(st: &SafeTensors, covered: &[&str]) -> Result<(), LoadError> {
    for (key, found) in [
        (DATA_CHECKSUM_KEY, checksum(st.data())),
        (CONFIG_CHECKSUM_KEY, texts_checksum(covered)),
    ] {
        let written = entry(st.metadata(), key)?;
        if written != format!("{found:016x}") {
            return Err(LoadError::Damaged(format!(
                "{key} is {found:016x}, the file says {written}"
            )));
        }
    }
    Ok(())
}

/// The site file of model `id` from its folder's `files` (the published fp32 weights): the
/// encoder loaded, quantized to int8 ([`SentenceEncoder::quantize_int8`]) and written as the
/// module docs say.
///
/// Errors: those of [`SentenceEncoder::load`].
pub fn write_int8(id: &str, files: ModelFiles) -> Result<Vec<u8>, LoadError> {
    write(id, files, SentenceEncoder::load(files)?.quantize_int8())
}

/// The same layout with the published fp32 weights as they are (about 4 times larger): not for
/// the page, for measuring the fp32 path in the same module (`bench/embed.mjs`). [`read`]
/// reads it like the int8 one.
///
/// Errors: those of [`SentenceEncoder::load`].
pub fn write_fp32(id: &str, files: ModelFiles) -> Result<Vec<u8>, LoadError> {
    write(id, files, SentenceEncoder::load(files)?)
}

fn write(id: &str, files: ModelFiles, encoder: SentenceEncoder) -> Result<Vec<u8>, LoadError> {
    let configs = [
        files.config,
        files.sentence_bert_config,
        files.pooling,
        files.modules,
    ];
    let mut metadata = BTreeMap::from([(MODEL_ID_KEY.to_owned(), id.to_owned())]);
    for (name, text) in CONFIG_FILES.iter().zip(configs) {
        metadata.insert((*name).to_owned(), text.to_owned());
    }
    let covered = [id, configs[0], configs[1], configs[2], configs[3]];
    Ok(write_site(&encoder.bert().tensors(), metadata, &covered))
}

/// Reads a site file (`bytes`) with its vocabulary (`vocab`, the text of `vocab.txt`).
///
/// Errors: [`LoadError::Truncated`] / [`LoadError::Header`] for bytes that are not such a
/// file; [`LoadError::Config`] for a file of another layout (no [`FORMAT_KEY`] of
/// [`FORMAT_VERSION`]), one lacking a metadata entry, or a configuration the encoder does not
/// compute; [`LoadError::Damaged`] when a checksum differs; and the errors of
/// [`SentenceEncoder::load`] (a missing or misshapen tensor, a vocabulary without `[CLS]`).
pub fn read(bytes: &[u8], vocab: &str) -> Result<SiteModel, LoadError> {
    read_bert(&SafeTensors::parse(bytes)?, bytes, vocab)
}

/// [`read`] of a file already parsed (`st`, of `bytes`).
fn read_bert(st: &SafeTensors, bytes: &[u8], vocab: &str) -> Result<SiteModel, LoadError> {
    let meta = st.metadata();
    check_layout(meta)?;
    let id = entry(meta, MODEL_ID_KEY)?;
    let configs = [
        entry(meta, CONFIG_FILES[0])?,
        entry(meta, CONFIG_FILES[1])?,
        entry(meta, CONFIG_FILES[2])?,
        entry(meta, CONFIG_FILES[3])?,
    ];
    check_sums(st, &[id, configs[0], configs[1], configs[2], configs[3]])?;
    let encoder = SentenceEncoder::load(ModelFiles {
        config: configs[0],
        sentence_bert_config: configs[1],
        pooling: configs[2],
        modules: configs[3],
        vocab,
        weights: bytes,
    })?;
    Ok(SiteModel {
        id: id.to_owned(),
        encoder,
    })
}

/// The metadata key of the model's kind: [`KIND_STATIC`] for a model2vec static model; absent
/// (or [`KIND_BERT`]) for a sentence-transformers BERT.
pub const KIND_KEY: &str = "kind";
/// [`KIND_KEY`]'s value for a BERT model.
pub const KIND_BERT: &str = "bert";
/// [`KIND_KEY`]'s value for a model2vec static model.
pub const KIND_STATIC: &str = "static";
/// The static model's configuration in the metadata (its folder's `config.json`).
pub const STATIC_CONFIG: &str = "config.json";

/// The site file of static model `id` from its folder's `files`: the table in int8 per row
/// ([`StaticEncoder::int8_table`]), the per-token weights if any, and the metadata of the
/// module docs with [`KIND_KEY`] = [`KIND_STATIC`] and the folder's `config.json`; read back by
/// [`read_any`] as `StaticEncoder::load(files)?.quantize_int8()`.
///
/// Errors: those of [`StaticEncoder::load`].
pub fn write_static_int8(id: &str, files: StaticFiles) -> Result<Vec<u8>, LoadError> {
    let model = StaticEncoder::load(files)?;
    let (q, scales) = model.int8_table();
    let rows = scales.len();
    let mut tensors = vec![
        (TABLE.to_owned(), vec![rows, model.dim()], Tensor::I8(&q)),
        (TABLE_SCALE.to_owned(), vec![rows], Tensor::F32(&scales)),
    ];
    if let Some(w) = model.token_weights() {
        tensors.push(("weights".to_owned(), vec![rows], Tensor::F32(w)));
    }
    let metadata = BTreeMap::from([
        (MODEL_ID_KEY.to_owned(), id.to_owned()),
        (KIND_KEY.to_owned(), KIND_STATIC.to_owned()),
        (STATIC_CONFIG.to_owned(), files.config.to_owned()),
    ]);
    Ok(write_site(
        &tensors,
        metadata,
        &[id, KIND_STATIC, files.config],
    ))
}

/// A model of either kind read from a site file.
#[derive(Debug, Clone)]
pub struct AnyModel {
    /// The page's model id.
    pub id: String,
    /// The model.
    pub encoder: Encoder,
}

/// Reads a site file of either kind ([`KIND_KEY`]) with its vocabulary: a BERT as [`read`]
/// does, a static model written by [`write_static_int8`].
///
/// Errors: those of [`read`]; for a static model also [`LoadError::Damaged`] when a checksum
/// differs and the errors of [`StaticEncoder::load`].
pub fn read_any(bytes: &[u8], vocab: &str) -> Result<AnyModel, LoadError> {
    let st = SafeTensors::parse(bytes)?;
    let meta = st.metadata();
    if meta.get(KIND_KEY).map(String::as_str) != Some(KIND_STATIC) {
        let m = read_bert(&st, bytes, vocab)?;
        return Ok(AnyModel {
            id: m.id,
            encoder: m.encoder.into(),
        });
    }
    check_layout(meta)?;
    let (id, config) = (entry(meta, MODEL_ID_KEY)?, entry(meta, STATIC_CONFIG)?);
    check_sums(&st, &[id, KIND_STATIC, config])?;
    let model = StaticEncoder::load(StaticFiles {
        config,
        vocab,
        weights: bytes,
    })?;
    Ok(AnyModel {
        id: id.to_owned(),
        encoder: model.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiny::TinyModel;

    #[test]
    fn the_file_gives_the_int8_encoder_bit_for_bit() {
        let tiny = TinyModel::new();
        let int8 = SentenceEncoder::load(tiny.files()).unwrap().quantize_int8();
        let bytes = write_int8("tiny", tiny.files()).unwrap();
        let site = read(&bytes, &tiny.vocab).unwrap();
        assert_eq!(site.id, "tiny");
        for text in ["", "the cat", "a dog and the cat sat", "unknown words here"] {
            assert_eq!(site.encoder.embed(text), int8.embed(text), "{text:?}");
        }
        assert_eq!(site.encoder.bert().bytes(), int8.bert().bytes());
        let st = SafeTensors::parse(&bytes).unwrap();
        let info = st
            .info("encoder.layer.0.attention.self.query.weight")
            .unwrap();
        assert_eq!((info.dtype.as_str(), &info.shape[..]), ("I8", &[8, 8][..]));
        let scale = st
            .info("encoder.layer.0.attention.self.query.weight_scale")
            .unwrap();
        assert_eq!((scale.dtype.as_str(), &scale.shape[..]), ("F32", &[8][..]));
        let word = st.info("embeddings.word_embeddings.weight").unwrap();
        assert_eq!(word.dtype, "I8");
        assert_eq!(st.metadata()["config.json"], tiny.config);
        assert_eq!(st.metadata()["modules.json"], tiny.modules);
        // The fp32 layout reads back as the published model.
        let fp32 = read(&write_fp32("tiny", tiny.files()).unwrap(), &tiny.vocab).unwrap();
        let published = SentenceEncoder::load(tiny.files()).unwrap();
        assert_eq!(fp32.encoder.embed("the cat"), published.embed("the cat"));
        assert_ne!(published.embed("the cat"), int8.embed("the cat"));
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        let tiny = TinyModel::new();
        let bytes = write_int8("tiny", tiny.files()).unwrap();
        // One weight byte changed.
        let mut damaged = bytes.clone();
        let last = damaged.len() - 5;
        damaged[last] ^= 0x10;
        assert!(matches!(
            read(&damaged, &tiny.vocab),
            Err(LoadError::Damaged(_))
        ));
        // Cut short.
        assert!(matches!(
            read(&bytes[..bytes.len() - 3], &tiny.vocab),
            Err(LoadError::Truncated(_))
        ));
        assert!(matches!(
            read(&[], &tiny.vocab),
            Err(LoadError::Truncated(_))
        ));
        // The published fp32 file is not a site file.
        assert!(matches!(
            read(&tiny.weights, &tiny.vocab),
            Err(LoadError::Config(_))
        ));
        // A vocabulary larger than the model's table.
        let big = format!("{}extra\n", tiny.vocab);
        assert!(matches!(read(&bytes, &big), Err(LoadError::Config(_))));
        assert_eq!(
            file_path("all-minilm-l6-v2"),
            "models/all-minilm-l6-v2.int8.safetensors"
        );
        // Configurations the encoder would trip on are refused at load, not at the first text.
        for (field, bad) in [
            ("\"intermediate_size\": 16", "\"intermediate_size\": 0"),
            ("\"type_vocab_size\": 2", "\"type_vocab_size\": 0"),
            ("\"hidden_size\": 8", "\"hidden_size\": 0"),
        ] {
            let mut broken = tiny.clone();
            broken.config = tiny.config.replace(field, bad);
            assert_ne!(broken.config, tiny.config, "{field}");
            assert!(
                matches!(
                    SentenceEncoder::load(broken.files()),
                    Err(LoadError::Config(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_static_file_gives_the_int8_table_bit_for_bit_and_refuses_damage() {
        let vocab = TinyModel::new().vocab;
        let rows = vocab.lines().count();
        let table: Vec<f32> = (0..rows * 4)
            .map(|i| ((i * 37 % 23) as f32 - 11.0) / 7.0)
            .collect();
        let weights = safetensors::write(
            &[(TABLE.to_owned(), vec![rows, 4], Tensor::F32(&table))],
            &BTreeMap::new(),
        );
        let files = StaticFiles {
            config: r#"{"normalize": true, "max_length": 16}"#,
            vocab: &vocab,
            weights: &weights,
        };
        let int8 = StaticEncoder::load(files).unwrap().quantize_int8();
        let bytes = write_static_int8("tiny-static", files).unwrap();
        let model = read_any(&bytes, &vocab).unwrap();
        assert_eq!(model.id, "tiny-static");
        assert_eq!((model.encoder.dim(), model.encoder.max_tokens()), (4, 16));
        for text in ["", "the cat", "a dog and the cat sat", "unknown words here"] {
            assert_eq!(
                model.encoder.embed(text),
                int8.embed(text).vector,
                "{text:?}"
            );
        }
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(matches!(
            read_any(&damaged, &vocab),
            Err(LoadError::Damaged(_))
        ));
        // A BERT file reads as one too.
        let tiny = TinyModel::new();
        let bert = write_int8("tiny", tiny.files()).unwrap();
        let any = read_any(&bert, &tiny.vocab).unwrap();
        assert!(matches!(any.encoder, Encoder::Bert(_)));
    }
}
