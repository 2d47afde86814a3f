//! The structure report's promise for the product's own strategies (the issue "own strategies
//! beat the libraries on structure"): on every gate document and the libraries' field cases,
//! in tokens and characters, at sizes a user picks, no chunk of `recursive`, `sentence` or
//! `markdown` is only a code fence, starts with the separator of the text before it, or cuts a
//! code block anywhere but between two lines; `section-budget` (whose oversized units are token
//! windows, SPEC §5) never starts a chunk with a separator.

use crate::corpus::documents;
use crate::no_hang;
use crate::strategies::{own, settings};
use chunk_core::analysis::structure::{structure_faults, StructureFaults};
use chunk_core::segment::markdown::Outline;
use chunk_core::strategy::{chunker, run, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;

/// The field cases: langchain PR 21665 (separators) and text-splitter issue 798 (a code fence
/// alone).
fn field_cases() -> Vec<(String, String)> {
    let lines: String = (0..40).map(|i| format!("let x{i} = {i};\n")).collect();
    vec![
        ("separators".into(), "Para A.\n\nPara B.\n\nPara C.".into()),
        (
            "fence 798".into(),
            format!("# Setup\n\nInstall it like this:\n\n```rust\n{lines}```\n\nDone.\n"),
        ),
    ]
}

#[test]
fn own_strategies_make_no_fence_only_or_separator_led_chunk() {
    no_hang::ensure();
    let mut docs: Vec<(String, String)> = documents()
        .into_iter()
        .map(|d| (d.name.clone(), d.text.to_string()))
        .collect();
    docs.extend(field_cases());
    let mut failures = Vec::new();
    let mut checked = 0;
    // The semantic strategy cuts where the sentences' meaning shifts, which may be anywhere
    // between two sentences (a code fence line too): its structure faults are counted on the
    // page, not ruled out.
    for id in own().into_iter().filter(|id| !id.needs_embeddings()) {
        for unit in [SizeUnit::Tokens, SizeUnit::Characters] {
            let k = if unit == SizeUnit::Characters { 4 } else { 1 };
            for size in [24, 64, 128, 512] {
                for overlap in [0, size / 8] {
                    let s = settings(size * k, overlap * k, unit);
                    let Ok(c) = chunker(id, &s) else {
                        continue; // the unit is not the strategy's (section-budget: tokens)
                    };
                    for (name, text) in &docs {
                        if text.trim().is_empty() {
                            continue;
                        }
                        let chunks = run(c.as_ref(), text, Encoding::Cl100kBase).expect("runs");
                        let f = structure_faults(text, &Outline::new(text), &chunks);
                        checked += 1;
                        let want = match id {
                            StrategyId::SectionBudget => StructureFaults {
                                separator_led: 0,
                                ..f
                            },
                            StrategyId::Fixed => f,
                            _ => StructureFaults {
                                heading_changed: f.heading_changed,
                                ..StructureFaults::default()
                            },
                        };
                        if f != want {
                            failures.push(format!("{id} {name} {s:?}: {f:?}"));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 0 || own().iter().all(|id| id.needs_embeddings()));
    assert!(
        failures.is_empty(),
        "{} of {checked}: {failures:#?}",
        failures.len()
    );
}

#[test]
fn the_report_sees_the_faults_of_fixed_windows() {
    no_hang::ensure();
    if !own().contains(&StrategyId::Fixed) {
        return;
    }
    let (_, text) = &field_cases()[1];
    let s = settings(50, 0, SizeUnit::Tokens);
    let c = run(
        chunker(StrategyId::Fixed, &s).expect("valid").as_ref(),
        text,
        Encoding::Cl100kBase,
    )
    .expect("runs");
    let f = structure_faults(text, &Outline::new(text), &c);
    assert!(f.code_cut > 0 && f.separator_led > 0, "{f:?}");
}
