//! Either kind of model the page runs, behind one interface: a sentence-transformers BERT
//! ([`SentenceEncoder`]) or a model2vec static model ([`StaticEncoder`]).

use crate::sentence::SentenceEncoder;
use crate::static_model::StaticEncoder;

/// A loaded model of either kind.
#[derive(Debug, Clone)]
pub enum Encoder {
    /// A BERT encoder with sentence-transformers' pooling.
    Bert(Box<SentenceEncoder>),
    /// A model2vec static model.
    Static(Box<StaticEncoder>),
}

/// Which kind of published folder a model comes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolderKind {
    /// A sentence-transformers BERT ([`crate::folder::ModelFolder`]).
    Bert,
    /// A model2vec static model ([`crate::folder::StaticFolder`]).
    Static,
}

impl Encoder {
    /// The model in its published folder `dir`, with int8 weights per row as the site serves
    /// it (`quantize_int8`) when `int8`, else the published fp32 ones.
    ///
    /// # Errors
    /// The folder's or the weights' error, in words naming the file.
    pub fn read(dir: &std::path::Path, kind: FolderKind, int8: bool) -> Result<Encoder, String> {
        Ok(match kind {
            FolderKind::Bert => {
                let folder = crate::folder::ModelFolder::read(dir).map_err(|e| e.to_string())?;
                let fp32 = SentenceEncoder::load(folder.files()).map_err(|e| e.to_string())?;
                Encoder::from(if int8 { fp32.quantize_int8() } else { fp32 })
            }
            FolderKind::Static => {
                let folder = crate::folder::StaticFolder::read(dir).map_err(|e| e.to_string())?;
                let fp32 = StaticEncoder::load(folder.files()).map_err(|e| e.to_string())?;
                Encoder::from(if int8 { fp32.quantize_int8() } else { fp32 })
            }
        })
    }

    /// The page's `model` from the models' folder `models_dir` (`EMBED_MODELS_DIR`: one
    /// published folder per model, named by [`DenseModel::id`]), as [`Encoder::read`].
    ///
    /// # Errors
    /// As [`Encoder::read`].
    pub fn read_model(
        models_dir: &std::path::Path,
        model: chunk_core::retrieval::DenseModel,
        int8: bool,
    ) -> Result<Encoder, String> {
        use chunk_core::retrieval::DenseModel;
        let kind = match model {
            DenseModel::AllMiniLmL6V2 => FolderKind::Bert,
            DenseModel::PotionBase8M => FolderKind::Static,
        };
        Encoder::read(&models_dir.join(model.id()), kind, int8)
    }

    /// The embedding of `text`: [`Encoder::dim`] values, as the model's own library computes
    /// it (truncation, pooling and normalisation included).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        match self {
            Encoder::Bert(m) => m.embed(text).vector,
            Encoder::Static(m) => m.embed(text).vector,
        }
    }

    /// The vectors' length.
    pub fn dim(&self) -> usize {
        match self {
            Encoder::Bert(m) => m.bert().config().hidden_size,
            Encoder::Static(m) => m.dim(),
        }
    }

    /// The most tokens of a text the model reads (a BERT's `max_seq_length`, `[CLS]` and
    /// `[SEP]` included; a static model's `max_length`, 0 when it reads every token).
    pub fn max_tokens(&self) -> usize {
        match self {
            Encoder::Bert(m) => m.max_seq_length(),
            Encoder::Static(m) => m.max_length().unwrap_or(0),
        }
    }
}

impl From<SentenceEncoder> for Encoder {
    fn from(m: SentenceEncoder) -> Encoder {
        Encoder::Bert(Box::new(m))
    }
}

impl From<StaticEncoder> for Encoder {
    fn from(m: StaticEncoder) -> Encoder {
        Encoder::Static(Box::new(m))
    }
}
