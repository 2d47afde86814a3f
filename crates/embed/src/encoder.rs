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

impl Encoder {
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
