//! One comparison row from a prepared document: the strategy's chunker at the request's
//! [`Figures`] (a semantic strategy over the embeddings given), its chunks, and their
//! [`Summary`] as an [`Outcome`]. The page's comparison worker (`compare-engine`), the
//! command-line tool (`crates/cli`) and the Python package (`crates/python`) all call
//! [`compare_row`], so that a corpus's rows are the page's rows, figure for figure.

use std::sync::Arc;

use crate::analysis::compare::{cost, summary_prepared, LimitCheck};
use crate::analysis::protocol::{EmbeddingCost, Figures, Outcome};
use crate::analysis::refusal::Refusal;
use crate::strategy::semantic::Vectors;
use crate::strategy::{
    chunker_with, run_prepared, Chunker, Chunks, Document, SemanticChunker, StrategyError,
    StrategyId,
};

/// The chunker of `strategy` at `figures`: [`chunker_with`], or for a semantic strategy with a
/// model ([`Figures::embedder`]), its [`SemanticChunker`] over `vectors` (the embeddings held
/// of that model, by exact text; `None` when none are).
///
/// # Errors
/// The strategy's refusal of the settings ([`StrategyError`]).
pub fn chunker_for(
    strategy: StrategyId,
    figures: &Figures,
    vectors: Option<Arc<Vectors>>,
) -> Result<Box<dyn Chunker>, StrategyError> {
    match semantic_chunker(strategy, figures) {
        Some(built) => Ok(Box::new(built?.with_vectors(vectors.unwrap_or_default()))),
        None => chunker_with(strategy, &figures.settings, figures.structure),
    }
}

/// The semantic chunker of `strategy` at `figures`, without vectors; `None` for another
/// strategy or without a model ([`Figures::embedder`]).
pub fn semantic_chunker(
    strategy: StrategyId,
    figures: &Figures,
) -> Option<Result<SemanticChunker, StrategyError>> {
    figures.embedder?;
    SemanticChunker::with_breakpoints(strategy, &figures.settings, figures.breakpoints)
}

/// The texts a semantic strategy embeds on `document` before it cuts, as an
/// [`EmbeddingCost`]: counted in the document's encoding (the settings'), priced at
/// [`Figures::price_per_million`]. `None` for any other strategy, without a model, or when the
/// strategy refuses.
pub fn embedding_cost(
    strategy: StrategyId,
    document: &Document,
    figures: &Figures,
) -> Option<EmbeddingCost> {
    let (texts, tokens) = semantic_chunker(strategy, figures)?
        .ok()?
        .embedding_tokens(document)
        .ok()?;
    Some(EmbeddingCost {
        texts,
        tokens,
        cost: cost(tokens, figures.price_per_million),
    })
}

/// `strategy`'s cut of `document` at `figures` ([`chunker_for`] then [`run_prepared`]), or its
/// refusal in words the page can say ([`Refusal`]).
///
/// # Errors
/// The strategy's refusal.
pub fn cut(
    strategy: StrategyId,
    document: &Document,
    figures: &Figures,
    vectors: Option<Arc<Vectors>>,
) -> Result<Chunks, Refusal> {
    chunker_for(strategy, figures, vectors)
        .and_then(|c| run_prepared(c.as_ref(), document))
        .map_err(|e| Refusal::from(&e))
}

/// One comparison row: `strategy` on `document` (prepared in `figures.settings.encoding`) at
/// `figures`, checked against `limit` (the chosen model's, [`LimitCheck::for_model`]), as the
/// page's table shows it ([`Outcome::Figures`] or [`Outcome::Refused`]), with the chunks it
/// cut (`None` when refused) for a caller that needs more than the summary (a corpus's exact
/// percentiles, an export).
pub fn compare_row(
    strategy: StrategyId,
    document: &Document,
    figures: &Figures,
    limit: &LimitCheck<'_>,
    vectors: Option<Arc<Vectors>>,
) -> (Outcome, Option<Chunks>) {
    match cut(strategy, document, figures, vectors) {
        Ok(chunks) => (
            Outcome::Figures {
                summary: summary_prepared(document, &chunks, limit, figures.price_per_million),
                overlap_clamped: chunks.overlap_clamped,
                overlap_ignored: chunks.overlap_ignored,
                embedding: embedding_cost(strategy, document, figures),
            },
            Some(chunks),
        ),
        Err(refusal) => (Outcome::Refused { refusal }, None),
    }
}
