//! Times the retrieval sweep natively: the fixture repeated to about 1 MB, 10 question/answer
//! pairs (spans in its first copy), a 60-setting grid (64…2048 tokens × ten overlaps from 0 to
//! 25 %) for one strategy; prints the best setting, the time of the whole sweep and of the
//! slowest setting, and one setting's evaluation both ways (splitting every chunk, and from the
//! document's terms found once; it asserts that both agree). It prints the times, it does not
//! assert them (the budget is for the page's worker).
//!
//! Usage: `cargo run --release -p chunk-core --example retrieval_sweep -- [STRATEGY_ID]`
//! (default `fixed`). An unknown id prints a message on stderr and exits with status 2.

use chunk_core::analysis::LimitCheck;
use chunk_core::retrieval::{
    evaluate, evaluate_prepared, locate_answer, sweep_with_progress, DocumentTerms, EvalOptions,
    QaPair, SweepCheck, SweepGrid, SweepObjective,
};
use chunk_core::strategy::{chunker, run_prepared, Document, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use std::process::ExitCode;
use std::time::Instant;

const PAIRS: [(&str, &str); 10] = [
    (
        "Who crossed India and seized Somnauth?",
        "Mahmoud of Ghizni",
    ),
    (
        "Where did Tippoo have the Diamond placed?",
        "as an ornament in the handle of a dagger",
    ),
    (
        "What did the dying Indian say?",
        "Moonstone will have its vengeance yet on you and yours!",
    ),
    ("When was Seringapatam stormed?", "the 4th of May, 1799"),
    (
        "What does the writer refuse his cousin?",
        "right hand of friendship",
    ),
    (
        "What god does the stone adorn?",
        "the four-handed Indian god who typifies the Moon",
    ),
    (
        "Who watched the Diamond in disguise?",
        "the three\nguardian priests followed and watched it in disguise",
    ),
    (
        "Who held the torch and the dagger?",
        "I saw John Herncastle, with a torch in one hand",
    ),
    (
        "Who can't do without Gabriel Betteredge?",
        "\"Sir John,\" she says, \"I can't\ndo without Gabriel Betteredge.\"",
    ),
    (
        "Whose temper got the better of him?",
        "Herncastle's unlucky temper got the better of him",
    ),
];

fn main() -> ExitCode {
    let id = std::env::args().nth(1).unwrap_or_else(|| "fixed".into());
    let Ok(strategy) = id.parse::<StrategyId>() else {
        eprintln!("retrieval_sweep: unknown strategy id {id:?}");
        return ExitCode::from(2);
    };
    let fixture = include_str!("../../../tests/fixtures/moonstone-short.txt");
    let copies = (1_000_000 / fixture.len()).max(1);
    let text = fixture.repeat(copies);
    let mut pairs = Vec::new();
    for (q, a) in PAIRS {
        // Located in one copy; in the repeated text the same span is the first copy's.
        match locate_answer(fixture, a) {
            Ok(answer) => pairs.push(QaPair {
                question: q.into(),
                answer,
            }),
            Err(e) => {
                eprintln!("retrieval_sweep: {a:?}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let grid = SweepGrid::standard(SizeUnit::Tokens);
    let t0 = Instant::now();
    let document = Document::new(&text, Encoding::Cl100kBase);
    let prepared = t0.elapsed();
    let mut last = Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    let t1 = Instant::now();
    let options = EvalOptions::default();
    let check = SweepCheck {
        pairs: &pairs,
        options: &options,
        limit: &LimitCheck::within(usize::MAX),
    };
    let s = sweep_with_progress(&document, strategy, &grid, &check, |_, _| {
        slowest = slowest.max(last.elapsed());
        last = Instant::now();
    });
    let swept = t1.elapsed();
    println!(
        "{} bytes, {} tokens, {} pairs, {} settings of {strategy}",
        text.len(),
        document.tokens(),
        pairs.len(),
        s.cells.len()
    );
    match s.best_cell(SweepObjective::Tokens) {
        Some(c) => println!(
            "best: chunk_size {} overlap {} % ({} tokens embedded)",
            c.chunk_size,
            c.overlap_percent,
            c.figures().map_or(0, |f| f.tokens_embedded)
        ),
        None => println!("best: none keeps every answer whole in the top 5"),
    }
    println!(
        "prepare {:.0} ms, sweep {:.0} ms, slowest setting {:.0} ms",
        prepared.as_secs_f64() * 1e3,
        swept.as_secs_f64() * 1e3,
        slowest.as_secs_f64() * 1e3
    );
    // One setting taken apart: cutting and measuring, then the evaluation.
    let settings = Settings {
        chunk_size: 256,
        chunk_overlap: 0,
        unit: SizeUnit::Tokens,
        encoding: document.encoding(),
    };
    let t2 = Instant::now();
    let Ok(chunks) = chunker(strategy, &settings).and_then(|c| run_prepared(&*c, &document)) else {
        return ExitCode::SUCCESS;
    };
    let cut = t2.elapsed();
    let t3 = Instant::now();
    let e = evaluate(&text, &chunks, &pairs, &EvalOptions::default());
    let slow = t3.elapsed();
    let t4 = Instant::now();
    let terms = DocumentTerms::new(&text, EvalOptions::default().lang);
    let found = t4.elapsed();
    let t5 = Instant::now();
    let fast = evaluate_prepared(&text, &terms, &chunks, &pairs, &EvalOptions::default());
    let fast_time = t5.elapsed();
    assert_eq!(fast, e, "the fast path must equal evaluate");
    println!(
        "at 256 tokens: {} chunks, cut {:.0} ms, evaluate {:.1} ms; document terms once {:.0} ms, \
         then evaluate_prepared {:.1} ms",
        e.chunks,
        cut.as_secs_f64() * 1e3,
        slow.as_secs_f64() * 1e3,
        found.as_secs_f64() * 1e3,
        fast_time.as_secs_f64() * 1e3
    );
    ExitCode::SUCCESS
}
