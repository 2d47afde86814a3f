//! The published model folders, read from disk: a sentence-transformers folder
//! ([`ModelFolder`]: `config.json`, `sentence_bert_config.json`, `1_Pooling/config.json`,
//! `modules.json`, `vocab.txt`, `model.safetensors`) and a model2vec folder ([`StaticFolder`]:
//! `config.json`, `vocab.txt`, `model.safetensors`), as `scripts/ensure-models.sh` unpacks them
//! into `target/models/<model id>/`. For the build's hook, the examples and the tests; the
//! worker never reads a folder (it gets the site's file, [`crate::site`]).

use std::path::{Path, PathBuf};

use crate::sentence::ModelFiles;
use crate::static_model::StaticFiles;

/// A file of a model folder that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FolderError {
    /// The file's path.
    pub path: PathBuf,
    /// Why it could not be read (a missing file, or text that is not UTF-8).
    pub source: std::io::Error,
}

fn text(dir: &Path, name: &str) -> Result<String, FolderError> {
    let path = dir.join(name);
    std::fs::read_to_string(&path).map_err(|source| FolderError { path, source })
}

fn bytes(dir: &Path, name: &str) -> Result<Vec<u8>, FolderError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| FolderError { path, source })
}

/// A sentence-transformers model folder's files, owned ([`ModelFolder::files`] lends them
/// as [`ModelFiles`]).
#[derive(Debug, Clone)]
pub struct ModelFolder {
    config: String,
    sentence_bert_config: String,
    pooling: String,
    modules: String,
    vocab: String,
    weights: Vec<u8>,
}

impl ModelFolder {
    /// Reads the six files of the folder `dir`.
    ///
    /// # Errors
    /// The first file that cannot be read, with its path ([`FolderError`]).
    pub fn read(dir: &Path) -> Result<ModelFolder, FolderError> {
        Ok(ModelFolder {
            config: text(dir, "config.json")?,
            sentence_bert_config: text(dir, "sentence_bert_config.json")?,
            pooling: text(dir, "1_Pooling/config.json")?,
            modules: text(dir, "modules.json")?,
            vocab: text(dir, "vocab.txt")?,
            weights: bytes(dir, "model.safetensors")?,
        })
    }

    /// The files, as [`crate::sentence::SentenceEncoder::load`] and the site's writer take them.
    pub fn files(&self) -> ModelFiles<'_> {
        ModelFiles {
            config: &self.config,
            sentence_bert_config: &self.sentence_bert_config,
            pooling: &self.pooling,
            modules: &self.modules,
            vocab: &self.vocab,
            weights: &self.weights,
        }
    }
}

/// A model2vec model folder's files, owned ([`StaticFolder::files`] lends them as
/// [`StaticFiles`]).
#[derive(Debug, Clone)]
pub struct StaticFolder {
    config: String,
    vocab: String,
    weights: Vec<u8>,
}

impl StaticFolder {
    /// Reads `config.json`, `vocab.txt` (written by `scripts/ensure-models.sh` from the
    /// model's `tokenizer.json`) and `model.safetensors` of the folder `dir`.
    ///
    /// # Errors
    /// The first file that cannot be read, with its path ([`FolderError`]).
    pub fn read(dir: &Path) -> Result<StaticFolder, FolderError> {
        Ok(StaticFolder {
            config: text(dir, "config.json")?,
            vocab: text(dir, "vocab.txt")?,
            weights: bytes(dir, "model.safetensors")?,
        })
    }

    /// The files, as [`crate::static_model::StaticEncoder::load`] and the site's writer take
    /// them.
    pub fn files(&self) -> StaticFiles<'_> {
        StaticFiles {
            config: &self.config,
            vocab: &self.vocab,
            weights: &self.weights,
        }
    }

    /// `vocab.txt`, which the site serves beside the model's file.
    pub fn vocab(&self) -> &str {
        &self.vocab
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_named_with_its_path() {
        let dir = std::env::temp_dir().join(format!("embed-folder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.json"), "{}").unwrap();
        let err = StaticFolder::read(&dir).unwrap_err();
        assert_eq!(err.path, dir.join("vocab.txt"));
        assert_eq!(err.source.kind(), std::io::ErrorKind::NotFound);
        assert!(err
            .to_string()
            .starts_with(&dir.join("vocab.txt").display().to_string()));
        std::fs::write(dir.join("vocab.txt"), "[UNK]\n").unwrap();
        std::fs::write(dir.join("model.safetensors"), [1u8, 2]).unwrap();
        let folder = StaticFolder::read(&dir).unwrap();
        assert_eq!((folder.files().config, folder.vocab()), ("{}", "[UNK]\n"));
        assert_eq!(folder.files().weights, &[1, 2]);
        assert_eq!(
            ModelFolder::read(&dir).unwrap_err().path,
            dir.join("sentence_bert_config.json")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
