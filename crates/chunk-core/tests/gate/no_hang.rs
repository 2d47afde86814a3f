//! Non-progress cases first, in a child process with a deadline (SPEC §6: a hang is a
//! failure, not a slow test): the simulator's, then every strategy's
//! ([`crate::strategies::non_progress_cases`]).
//!
//! The parent re-runs this test binary (`std::env::current_exe()`) with only the ignored test
//! [`child_non_progress_cases`] selected and [`CHILD_ENV`] set, waits at most [`DEADLINE`],
//! and kills the child if it is still running. Every other test of the gate calls [`ensure`]
//! first, so nothing else runs before these cases have passed.

use crate::corpus::prepared;
use crate::sweep::check;
use chunk_core::reconstruct::check_reconstruction;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::sweep::{OVERLAP_SLIDER, SIZE_SLIDER};
use chunk_core::sim::{Prepared, Strategy, TokenizerChoice};
use chunk_core::tokenizer::Encoding;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Set to `1` in the child process.
const CHILD_ENV: &str = "CHUNK_CORE_GATE_NO_HANG_CHILD";
/// The child's full test name.
const CHILD_TEST: &str = "no_hang::child_non_progress_cases";
/// How long the child may run; a debug build needs a few seconds, a hang never ends.
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs the non-progress cases once per process, in a child with a deadline; panics on a
/// hang or a failure, with the child's output.
pub fn ensure() {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    if let Err(e) = DONE.get_or_init(run_child) {
        panic!("{e}");
    }
}

fn run_child() -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the test binary: {e}"))?;
    let mut child = Command::new(exe)
        .args([
            "--ignored",
            "--exact",
            CHILD_TEST,
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the child: {e}"))?;
    // Drain both pipes in threads so a chatty child never blocks on a full pipe.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut s);
            }
            s
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        match child
            .try_wait()
            .map_err(|e| format!("cannot wait for the child: {e}"))?
        {
            Some(status) => break status,
            None if started.elapsed() > DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("non-progress cases still running after {DEADLINE:?}: a chunker does not advance"));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    if !status.success() || !out.contains("1 passed") {
        return Err(format!(
            "non-progress cases failed ({status}):\n{out}\n{err}"
        ));
    }
    Ok(())
}

#[test]
fn non_progress_cases_end_before_the_deadline() {
    ensure();
}

/// E01 text (cl100k 11 tokens).
const E01: &str = "alpha beta gamma delta epsilon zeta eta theta iota kappa";

#[test]
#[ignore = "the child of `non_progress_cases_end_before_the_deadline`; needs its deadline"]
fn child_non_progress_cases() {
    assert_eq!(
        std::env::var(CHILD_ENV).as_deref(),
        Ok("1"),
        "run through the gate's parent test"
    );
    let cl100k = TokenizerChoice::Bpe(Encoding::Cl100kBase);

    // E01: overlap equal to the size, every mode, both tokenizers: clamped, flagged, and done.
    for tokenizer in [TokenizerChoice::Simple, cl100k] {
        let p = Prepared::new(E01, tokenizer, SentenceRule::Terminators);
        for strategy in Strategy::ALL {
            for (size, overlap) in [(2, 2), (5, 5)] {
                let c = p.chunk(strategy, size, overlap).expect("size ≥ 1");
                assert!(c.overlap_clamped, "E01 {strategy:?} {size}/{overlap}");
                assert_eq!(c.chunk_overlap, size - 1);
                let spans: Vec<_> = c.chunks.iter().map(|w| (w.start, w.end)).collect();
                assert!(check_reconstruction(p.n_tokens(), &spans).is_ok());
            }
        }
    }
    let p = Prepared::new(E01, cl100k, SentenceRule::Terminators);
    assert_eq!(p.n_tokens(), 11);
    assert_eq!(
        p.chunk(Strategy::Fixed, 2, 2)
            .expect("size ≥ 1")
            .chunks
            .len(),
        10
    );
    // One sentence of 11 tokens: one oversize chunk, however large the overlap.
    let c = p.chunk(Strategy::Sentence, 5, 5).expect("size ≥ 1");
    assert_eq!((c.chunks.len(), c.oversize.clone()), (1, vec![0]));

    // E12: 300 × "x" between two words (cl100k 41 tokens).
    let e12 = format!("Prefix {} suffix", "x".repeat(300));
    let p = Prepared::new(&e12, cl100k, SentenceRule::Terminators);
    assert_eq!(p.n_tokens(), 41);
    let fixed = p.chunk(Strategy::Fixed, 10, 3).expect("size ≥ 1");
    assert!(fixed.chunks.iter().all(|w| w.len() <= 10));
    let spans: Vec<_> = fixed.chunks.iter().map(|w| (w.start, w.end)).collect();
    assert_eq!(
        check_reconstruction(41, &spans),
        Ok(41 + 3 * (spans.len() - 1))
    );
    // Sentence packing cannot cut inside its only sentence: one chunk, flagged oversize.
    let sentence = p.chunk(Strategy::Sentence, 10, 3).expect("size ≥ 1");
    assert_eq!(sentence.chunks.len(), 1);
    assert_eq!(sentence.oversize, vec![0]);

    // Overlap ≥ size over the slider grid, and size 1 with any overlap, for every document.
    let mut configs = 0;
    for pd in prepared() {
        for strategy in Strategy::ALL {
            for size in SIZE_SLIDER.values() {
                for overlap in OVERLAP_SLIDER
                    .values()
                    .chain([size + 1000])
                    .filter(|&o| o >= size)
                {
                    check(pd, strategy, size, overlap).unwrap_or_else(|e| panic!("{e}"));
                    configs += 1;
                }
            }
            for overlap in [0, 1, 5, 50] {
                check(pd, strategy, 1, overlap).unwrap_or_else(|e| panic!("{e}"));
                configs += 1;
            }
        }
    }
    // Per document and strategy: sizes 10–50 meet 9, 8, …, 1 slider overlaps ≥ size (45),
    // + one huge overlap per slider size (31) + 4 overlaps at size 1.
    assert_eq!(configs, prepared().len() * 2 * (45 + 31 + 4));

    // The same kinds of case for every strategy of `chunk_core::strategy`, own and library.
    crate::strategies::non_progress_cases();
}
