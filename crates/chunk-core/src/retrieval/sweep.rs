//! The retrieval sweep (SPEC §8): one strategy over a grid of chunk sizes × overlaps, each
//! setting cut, checked against the embedding model's input limit, evaluated
//! ([`super::evaluate`](mod@super::evaluate)); the best setting is the cheapest, by the user's
//! [`SweepObjective`], among those that keep every answer whole in the top k and whose chunks
//! the model reads whole ([`best_setting`]). Plain data for the page's heat maps.

use super::document_terms::DocumentTerms;
use super::evaluate::{evaluate_prepared, Aggregate, EvalOptions, QaPair};
use crate::limit::{chunks_over_limit, model_tokens, LimitBasis, LimitCheck};
use crate::strategy::refusal::Refusal;
#[cfg(feature = "strategies")]
use crate::strategy::{chunker, run_prepared, Document};
use crate::strategy::{Settings, SizeUnit, StrategyId};

/// The settings of a sweep: every size with every overlap.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SweepGrid {
    /// Chunk sizes, in [`SweepGrid::unit`] (the heat map's rows).
    pub sizes: Vec<usize>,
    /// Overlaps as whole percents of the size (the heat map's columns).
    pub overlap_percents: Vec<usize>,
    /// The unit of the sizes.
    pub unit: SizeUnit,
}

impl Default for SweepGrid {
    /// 64, 128, 256, 512, 1024, 2048 tokens × 0, 10, 15, 20, 25 % overlap (30 settings).
    fn default() -> Self {
        SweepGrid {
            sizes: vec![64, 128, 256, 512, 1024, 2048],
            overlap_percents: vec![0, 10, 15, 20, 25],
            unit: SizeUnit::Tokens,
        }
    }
}

impl SweepGrid {
    /// The page's sweep: 60 settings, sizes 64, 128, 256, 512, 1024, 2048 tokens (four times
    /// as many characters when the unit is characters: about four characters per token of
    /// English prose) × overlaps 0, 3, 5, 8, 10, 13, 15, 18, 20, 25 % of the size.
    pub fn standard(unit: SizeUnit) -> Self {
        let per_token = match unit {
            SizeUnit::Tokens | SizeUnit::Model(_) => 1,
            SizeUnit::Characters => 4,
        };
        SweepGrid {
            sizes: [64, 128, 256, 512, 1024, 2048]
                .map(|s| s * per_token)
                .to_vec(),
            overlap_percents: vec![0, 3, 5, 8, 10, 13, 15, 18, 20, 25],
            unit,
        }
    }

    /// Number of settings.
    pub fn len(&self) -> usize {
        self.sizes.len() * self.overlap_percents.len()
    }

    /// True when the grid has no setting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Setting `index` in grid order (size by size, each overlap in turn: the order of
    /// [`Sweep::cells`]) as (chunk size, overlap percent); `None` past the end.
    pub fn setting(&self, index: usize) -> Option<(usize, usize)> {
        let n = self.overlap_percents.len();
        let size = *self.sizes.get(index.checked_div(n)?)?;
        Some((size, self.overlap_percents[index % n]))
    }
}

/// The overlap of `percent` % of `chunk_size`, rounded down: `chunk_size · percent / 100`
/// (64 at 15 % → 9).
pub fn overlap_for(chunk_size: usize, percent: usize) -> usize {
    chunk_size.saturating_mul(percent) / 100
}

/// What one setting gave.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellOutcome {
    /// The strategy cut the document and the pairs were evaluated.
    Evaluated(CellFigures),
    /// The strategy (its library) refuses this setting.
    Refused(Refusal),
}

/// The figures of one evaluated setting.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CellFigures {
    /// Number of chunks.
    pub chunks: usize,
    /// Tokens embedded (the sum of every chunk's own token count, in the document's
    /// encoding): the setting's cost.
    pub tokens_embedded: usize,
    /// Chunks the embedding model reads as more than its input limit ([`model_tokens`] with the
    /// sweep's [`LimitCheck`]): it would truncate them, so the setting is never best.
    pub over_limit: usize,
    /// The evaluation's figures across the pairs.
    pub aggregate: Aggregate,
}

/// One setting of the grid.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepCell {
    /// `chunk_size`, in the grid's unit.
    pub chunk_size: usize,
    /// The overlap asked for, in percent of the size.
    pub overlap_percent: usize,
    /// `chunk_overlap` given to the strategy ([`overlap_for`]), in the grid's unit.
    pub chunk_overlap: usize,
    /// What it gave.
    pub outcome: CellOutcome,
}

impl SweepCell {
    /// The figures, when the setting was evaluated.
    pub fn figures(&self) -> Option<&CellFigures> {
        match &self.outcome {
            CellOutcome::Evaluated(f) => Some(f),
            CellOutcome::Refused(_) => None,
        }
    }
}

/// A whole sweep.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sweep {
    /// The strategy.
    pub strategy: StrategyId,
    /// The grid.
    pub grid: SweepGrid,
    /// [`EvalOptions::k`] of the evaluations.
    pub k: usize,
    /// Every setting, row by row: `cells[s * overlap_percents.len() + o]` is size `s` with
    /// overlap `o` ([`Sweep::cell`]).
    pub cells: Vec<SweepCell>,
    /// The model's input limit the cells were checked against, in its tokens with what it adds
    /// ([`LimitCheck::max_input_tokens`]; `usize::MAX`: no limit).
    pub max_input_tokens: usize,
    /// What [`CellFigures::over_limit`] was counted with.
    pub limit_basis: LimitBasis,
}

/// What the sweep's best setting minimises, among the settings that keep every answer whole in
/// the top k and that the model reads whole ([`best_setting`]).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    serde::Serialize,
    serde::Deserialize,
)]
#[strum(serialize_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum SweepObjective {
    /// The fewest tokens embedded (what an embedding API bills); ties go to fewer vectors.
    #[default]
    Tokens,
    /// The fewest vectors (chunks: what the vector store holds and searches); ties go to fewer
    /// tokens embedded.
    Vectors,
}

impl SweepObjective {
    /// The stable name: `"tokens"` or `"vectors"`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl Sweep {
    /// The sweep of `strategy` over `grid` whose settings, in grid order, gave `cells`, at top
    /// `k`, checked against `limit`.
    pub fn new(
        strategy: StrategyId,
        grid: SweepGrid,
        k: usize,
        cells: Vec<SweepCell>,
        limit: &LimitCheck<'_>,
    ) -> Self {
        Sweep {
            strategy,
            grid,
            k,
            cells,
            max_input_tokens: limit.max_input_tokens,
            limit_basis: limit.basis,
        }
    }

    /// The index in [`Sweep::cells`] of the best setting for `objective` ([`best_setting`]).
    pub fn best(&self, objective: SweepObjective) -> Option<usize> {
        best_setting(&self.cells, objective)
    }

    /// The cell of size index `size` and overlap index `overlap`.
    pub fn cell(&self, size: usize, overlap: usize) -> Option<&SweepCell> {
        if overlap >= self.grid.overlap_percents.len() {
            return None;
        }
        self.cells
            .get(size * self.grid.overlap_percents.len() + overlap)
    }

    /// How many settings make a chunk the model would truncate ([`CellFigures::over_limit`]
    /// above 0): none of them is ever best.
    pub fn settings_over_limit(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| c.figures().is_some_and(|f| f.over_limit > 0))
            .count()
    }

    /// The refusal of the first setting when no setting was evaluated (the strategy refuses
    /// every setting, or raises on the text itself, as a library does on a special-token
    /// string): the sweep has no figure, and this says why.
    pub fn refused_throughout(&self) -> Option<&Refusal> {
        if self.cells.iter().any(|c| c.figures().is_some()) {
            return None;
        }
        self.cells.iter().find_map(|c| match &c.outcome {
            CellOutcome::Refused(r) => Some(r),
            CellOutcome::Evaluated(_) => None,
        })
    }

    /// True when the cells were checked against a model's input limit (one was chosen, with a
    /// stated limit).
    pub fn has_limit(&self) -> bool {
        self.max_input_tokens != usize::MAX
    }

    /// The best cell for `objective` ([`Sweep::best`]).
    pub fn best_cell(&self, objective: SweepObjective) -> Option<&SweepCell> {
        self.best(objective).and_then(|i| self.cells.get(i))
    }
}

/// What every setting of a sweep is checked with: the pairs, the evaluation's options and the
/// embedding model's input limit.
#[derive(Clone, Copy, Debug)]
pub struct SweepCheck<'a> {
    /// Questions and their answers' byte spans.
    pub pairs: &'a [QaPair],
    /// Language, BM25 and k.
    pub options: &'a EvalOptions,
    /// The model's input limit ([`LimitCheck::within`]`(usize::MAX)`: none).
    pub limit: &'a LimitCheck<'a>,
}

#[cfg(feature = "strategies")]
/// How a sweep makes its strategy at one setting's [`Settings`]: `&|s| chunker(strategy, s)`
/// ([`chunker`]), or what else builds it (a semantic strategy with the embeddings it reads).
pub type BuildAt<'a> =
    &'a dyn Fn(
        &Settings,
    ) -> Result<Box<dyn crate::strategy::Chunker>, crate::strategy::StrategyError>;

#[cfg(feature = "strategies")]
/// The chunks of one setting of a sweep: what [`sweep_cell`] and [`sweep_cell_dense`] cut,
/// with the strategy `build` makes at the setting.
///
/// # Errors
/// The strategy's refusal of the setting or the text.
pub fn sweep_cell_chunks(
    document: &Document,
    build: BuildAt<'_>,
    (chunk_size, overlap_percent): (usize, usize),
    unit: SizeUnit,
) -> Result<crate::strategy::Chunks, crate::strategy::StrategyError> {
    let settings = Settings {
        chunk_size,
        chunk_overlap: overlap_for(chunk_size, overlap_percent),
        unit,
        encoding: document.encoding(),
    };
    build(&settings).and_then(|c| run_prepared(&*c, document))
}

#[cfg(feature = "strategies")]
/// One setting: the strategy `build` makes with `chunk_size` and [`overlap_for`]`(chunk_size,
/// overlap_percent)` in `unit`, run on the prepared `document` (its encoding measures the
/// chunks), its chunks checked against [`SweepCheck::limit`] and evaluated on the pairs with
/// BM25 ([`evaluate_prepared`] with `terms`, the document's terms in [`EvalOptions::lang`]:
/// build them once per document and language, [`DocumentTerms::new`]).
pub fn sweep_cell(
    document: &Document,
    terms: &DocumentTerms,
    build: BuildAt<'_>,
    setting: (usize, usize),
    unit: SizeUnit,
    check: &SweepCheck<'_>,
) -> SweepCell {
    let cut = sweep_cell_chunks(document, build, setting, unit);
    cell_of(document, setting, cut, check, |chunks| {
        Ok(evaluate_prepared(
            document.text(),
            terms,
            chunks,
            check.pairs,
            check.options,
        ))
    })
    .expect("BM25 always ranks")
}

#[cfg(feature = "strategies")]
/// The embeddings of a dense or hybrid sweep: the questions' (one per pair), and each chunk
/// text's, looked up by text (what the embedding worker sent; a chunk text may come again in
/// many settings and is embedded once).
pub struct SweepVectors<'a> {
    /// Dense or hybrid.
    pub retriever: super::dense::Retriever,
    /// One per pair.
    pub questions: &'a [Vec<f32>],
    /// The embedding of a chunk's own text, when held.
    pub chunk: &'a dyn Fn(&str) -> Option<Vec<f32>>,
}

#[cfg(feature = "strategies")]
/// [`sweep_cell`] ranked by dense or hybrid retrieval ([`super::evaluate_dense`]).
///
/// # Errors
/// [`super::VectorsError`] when the retriever is BM25, a chunk's embedding is not held
/// (`Chunks`, with the number found) or the questions' do not match the pairs.
pub fn sweep_cell_dense(
    document: &Document,
    terms: &DocumentTerms,
    build: BuildAt<'_>,
    setting: (usize, usize),
    unit: SizeUnit,
    check: &SweepCheck<'_>,
    vectors: &SweepVectors<'_>,
) -> Result<SweepCell, super::VectorsError> {
    let cut = sweep_cell_chunks(document, build, setting, unit);
    cell_of(document, setting, cut, check, |chunks| {
        let held: Vec<Vec<f32>> = chunks
            .chunks
            .iter()
            .map_while(|c| (vectors.chunk)(&c.text(document.text())))
            .collect();
        super::evaluate_dense(
            document.text(),
            terms,
            chunks,
            check.pairs,
            check.options,
            super::Vectors {
                retriever: vectors.retriever,
                chunks: &held,
                questions: vectors.questions,
            },
        )
    })
}

#[cfg(feature = "strategies")]
/// A cell from its cut and a ranking of its chunks.
fn cell_of(
    document: &Document,
    (chunk_size, overlap_percent): (usize, usize),
    cut: Result<crate::strategy::Chunks, crate::strategy::StrategyError>,
    check: &SweepCheck<'_>,
    evaluate: impl FnOnce(&crate::strategy::Chunks) -> Result<super::Evaluation, super::VectorsError>,
) -> Result<SweepCell, super::VectorsError> {
    let limit = check.limit;
    let outcome = match cut {
        Ok(chunks) => {
            let e = evaluate(&chunks)?;
            let over_limit = if limit.max_input_tokens == usize::MAX {
                0
            } else {
                let read = model_tokens(document.text(), &chunks, limit);
                chunks_over_limit(&read, limit.max_input_tokens)
            };
            CellOutcome::Evaluated(CellFigures {
                chunks: e.chunks,
                tokens_embedded: e.tokens_embedded,
                over_limit,
                aggregate: e.aggregate,
            })
        }
        Err(refused) => CellOutcome::Refused(Refusal::from(&refused)),
    };
    Ok(SweepCell {
        chunk_size,
        overlap_percent,
        chunk_overlap: overlap_for(chunk_size, overlap_percent),
        outcome,
    })
}

/// The index of the best cell for `objective`. A cell qualifies when every answer is whole in
/// a chunk ranked in the top k ([`Aggregate::all_whole_in_top_k`], the k the heat map shows)
/// and no chunk is over the model's limit ([`CellFigures::over_limit`] = 0: nothing silently
/// truncated). Among those, the fewest tokens embedded then the fewest vectors
/// ([`SweepObjective::Tokens`]), or the fewest vectors then the fewest tokens
/// ([`SweepObjective::Vectors`]); remaining ties go to the first in `cells` order (the smaller
/// size, then the smaller overlap, in a grid given in ascending order). `None` when no cell
/// qualifies; a cell evaluated on no pair never does.
pub fn best_setting(cells: &[SweepCell], objective: SweepObjective) -> Option<usize> {
    cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let f = c.figures()?;
            let qualifies = f.aggregate.all_whole_in_top_k && f.over_limit == 0;
            let key = match objective {
                SweepObjective::Tokens => (f.tokens_embedded, f.chunks),
                SweepObjective::Vectors => (f.chunks, f.tokens_embedded),
            };
            qualifies.then_some((key, i))
        })
        .min()
        .map(|(_, i)| i)
}

#[cfg(feature = "strategies")]
/// [`sweep_with_progress`] without progress.
pub fn sweep(
    document: &Document,
    strategy: StrategyId,
    grid: &SweepGrid,
    check: &SweepCheck<'_>,
) -> Sweep {
    sweep_with_progress(document, strategy, grid, check, |_, _| {})
}

#[cfg(feature = "strategies")]
/// Runs every setting of `grid` ([`sweep_cell`], the document's terms found once for all of
/// them), calling `progress(done, total)` after each setting (for the worker's progress
/// messages).
pub fn sweep_with_progress(
    document: &Document,
    strategy: StrategyId,
    grid: &SweepGrid,
    check: &SweepCheck<'_>,
    mut progress: impl FnMut(usize, usize),
) -> Sweep {
    let total = grid.len();
    let terms = DocumentTerms::new(document.text(), check.options.lang);
    let mut cells = Vec::with_capacity(total);
    while let Some(setting) = grid.setting(cells.len()) {
        cells.push(sweep_cell(
            document,
            &terms,
            &|s| chunker(strategy, s),
            setting,
            grid.unit,
            check,
        ));
        progress(cells.len(), total);
    }
    Sweep::new(strategy, grid.clone(), check.options.k, cells, check.limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell of size `size` with `tokens` embedded in `chunks` vectors, every answer whole in
    /// the top k or not, `over` chunks over the model's limit.
    fn cell(size: usize, tokens: usize, chunks: usize, whole: bool, over: usize) -> SweepCell {
        let aggregate = Aggregate {
            pairs: 1,
            whole: 1,
            hits_at_1: usize::from(whole),
            hits_at_3: usize::from(whole),
            hits_at_5: usize::from(whole),
            hits_at_k: usize::from(whole),
            all_whole_in_top_1: whole,
            all_whole_in_top_3: whole,
            all_whole_in_top_5: whole,
            all_whole_in_top_k: whole,
            mean_recall: 1.0,
            mean_precision: 0.5,
            mean_iou: 0.5,
            mrr: 1.0,
            mean_ndcg: 1.0,
        };
        SweepCell {
            chunk_size: size,
            overlap_percent: 0,
            chunk_overlap: 0,
            outcome: CellOutcome::Evaluated(CellFigures {
                chunks,
                tokens_embedded: tokens,
                over_limit: over,
                aggregate,
            }),
        }
    }

    #[test]
    fn each_objective_picks_its_own_setting_and_never_a_truncated_or_missed_one() {
        let cells = vec![
            cell(64, 100, 10, true, 0),  // fewest tokens (tied with 96), more vectors
            cell(96, 100, 8, true, 0),   // fewest tokens, fewer vectors: the tokens pick
            cell(128, 120, 5, true, 0),  // fewest vectors: the vectors pick
            cell(256, 120, 5, true, 0),  // the same figures, later in the grid
            cell(512, 50, 1, true, 2),   // cheapest of all, but the model truncates it
            cell(1024, 10, 1, false, 0), // cheapest, but an answer is not in the top k
        ];
        assert_eq!(best_setting(&cells, SweepObjective::Tokens), Some(1));
        assert_eq!(best_setting(&cells, SweepObjective::Vectors), Some(2));
        assert_eq!(best_setting(&cells[4..], SweepObjective::Tokens), None);
        assert_eq!(best_setting(&[], SweepObjective::Vectors), None);
        let sweep = Sweep::new(
            StrategyId::Fixed,
            SweepGrid::default(),
            5,
            cells,
            &LimitCheck::within(256),
        );
        assert_eq!(sweep.settings_over_limit(), 1);
        assert_eq!(
            sweep.refused_throughout(),
            None,
            "some settings were evaluated"
        );
        assert!(sweep.has_limit());
        assert_eq!(
            sweep
                .best_cell(SweepObjective::Vectors)
                .map(|c| c.chunk_size),
            Some(128)
        );
        assert_eq!(
            "vectors".parse::<SweepObjective>(),
            Ok(SweepObjective::Vectors)
        );
        assert_eq!(SweepObjective::Tokens.as_str(), "tokens");
    }

    #[test]
    fn a_strategy_that_raises_on_the_text_refuses_every_setting_and_says_why() {
        // LangChain's token-sized splitters raise on a special-token string in the text.
        let text = "Before <|endoftext|> after, and more words to cut.";
        let document = Document::new(text, crate::tokenizer::Encoding::Cl100kBase);
        let pairs = [QaPair {
            question: "after".into(),
            answer: 21..26,
        }];
        let grid = SweepGrid {
            sizes: vec![4, 8],
            overlap_percents: vec![0, 25],
            unit: SizeUnit::Tokens,
        };
        let options = EvalOptions::default();
        let check = SweepCheck {
            pairs: &pairs,
            options: &options,
            limit: &LimitCheck::within(usize::MAX),
        };
        let s = sweep(&document, StrategyId::LangchainRecursive, &grid, &check);
        let refusal = s.refused_throughout().expect("every setting refused");
        assert_eq!(refusal.kind, "text-refused");
        assert_eq!(s.best(SweepObjective::Tokens), None);
        assert!(!s.has_limit());
    }

    #[test]
    fn a_dense_cell_ranks_its_own_chunks_by_the_vectors_held() {
        use crate::retrieval::{evaluate_dense, Retriever, Vectors, VectorsError};
        let text = "Cats purr on the mat. The XV40 range is wide and long. Dogs bark at night. \
                    The XV40 range again, shorter.";
        let document = Document::new(text, crate::tokenizer::Encoding::Cl100kBase);
        let terms = DocumentTerms::new(text, crate::Lang::En);
        let answer = text.find("range is wide").unwrap();
        let pairs = [QaPair {
            question: "What is the range of the XV40?".into(),
            answer: answer..answer + 13,
        }];
        let options = EvalOptions::default();
        let check = SweepCheck {
            pairs: &pairs,
            options: &options,
            limit: &LimitCheck::within(usize::MAX),
        };
        // A stand-in embedding: how often "wide", "dogs" and "cats" occur.
        let embed = |t: &str| -> Vec<f32> {
            ["wide", "dogs", "cats"]
                .iter()
                .map(|w| t.to_lowercase().matches(w).count() as f32 + 0.01)
                .collect()
        };
        let questions = vec![vec![1.0, 0.0, 0.0]];
        let lookup = |t: &str| Some(embed(t));
        let setting = (8, 0);
        for retriever in [Retriever::Dense, Retriever::Hybrid] {
            let vectors = SweepVectors {
                retriever,
                questions: &questions,
                chunk: &lookup,
            };
            let cell = sweep_cell_dense(
                &document,
                &terms,
                &|s| chunker(StrategyId::Fixed, s),
                setting,
                SizeUnit::Tokens,
                &check,
                &vectors,
            )
            .unwrap();
            // The same chunks ranked by the same vectors, composed by hand.
            let chunks = sweep_cell_chunks(
                &document,
                &|s| chunker(StrategyId::Fixed, s),
                setting,
                SizeUnit::Tokens,
            )
            .unwrap();
            let chunk_vectors: Vec<Vec<f32>> =
                chunks.chunks.iter().map(|c| embed(&c.text(text))).collect();
            let e = evaluate_dense(
                text,
                &terms,
                &chunks,
                &pairs,
                &options,
                Vectors {
                    retriever,
                    chunks: &chunk_vectors,
                    questions: &questions,
                },
            )
            .unwrap();
            let f = cell.figures().expect("evaluated");
            assert_eq!((f.chunks, f.aggregate), (e.chunks, e.aggregate));
            assert!(chunks.chunks.len() > 2, "{}", chunks.chunks.len());
        }
        // Dense ranks the "wide" chunk first: the answer's.
        let dense = sweep_cell_dense(
            &document,
            &terms,
            &|s| chunker(StrategyId::Fixed, s),
            setting,
            SizeUnit::Tokens,
            &check,
            &SweepVectors {
                retriever: Retriever::Dense,
                questions: &questions,
                chunk: &lookup,
            },
        )
        .unwrap();
        assert_eq!(dense.figures().unwrap().aggregate.hits_at_1, 1);
        // A chunk whose vector is not held: refused in words, not ranked without it.
        let none = |_: &str| None;
        let missing = sweep_cell_dense(
            &document,
            &terms,
            &|s| chunker(StrategyId::Fixed, s),
            setting,
            SizeUnit::Tokens,
            &check,
            &SweepVectors {
                retriever: Retriever::Dense,
                questions: &questions,
                chunk: &none,
            },
        );
        assert!(matches!(
            missing,
            Err(VectorsError::Chunks { found: 0, .. })
        ));
    }

    #[test]
    fn the_standard_grid_has_sixty_settings_from_64_to_2048_tokens() {
        let g = SweepGrid::standard(SizeUnit::Tokens);
        assert_eq!(g.len(), 60);
        assert_eq!(g.setting(0), Some((64, 0)));
        assert_eq!(g.setting(59), Some((2048, 25)));
        assert_eq!(g.setting(60), None);
        let c = SweepGrid::standard(SizeUnit::Characters);
        assert_eq!((c.sizes[0], c.sizes[5], c.len()), (256, 8192, 60));
    }

    #[test]
    fn settings_come_size_by_size_each_overlap_in_turn() {
        let grid = SweepGrid {
            sizes: vec![64, 128],
            overlap_percents: vec![0, 10, 25],
            unit: SizeUnit::Tokens,
        };
        let order: Vec<(usize, usize)> = (0..grid.len()).map_while(|i| grid.setting(i)).collect();
        assert_eq!(
            order,
            [(64, 0), (64, 10), (64, 25), (128, 0), (128, 10), (128, 25)]
        );
        assert_eq!(grid.setting(6), None);
        let empty = SweepGrid {
            overlap_percents: Vec::new(),
            ..grid
        };
        assert_eq!(empty.setting(0), None);
    }
}
