//! Design aid for the default documents: prints a text's sentences in simple-tokenizer tokens
//! and every SPEC §4 figure, marking the ones that do not hold.
//!
//! `cargo run -p chunk-core --example design_doc -- docs/default_vi.txt vi "dải nhiệt độ của XV40"`

#[path = "../tests/common/figures.rs"]
mod figures;

use chunk_core::sim::{keywords, Prepared, TokenizerChoice};

use chunk_core::Lang;

use chunk_core::segment::sentences::SentenceRule;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, lang, query] = args.as_slice() else {
        eprintln!("usage: design_doc FILE LANG QUERY");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lang = Lang::from_code(lang).unwrap_or_else(|| panic!("unknown language {lang}"));
    let p = Prepared::new(&text, TokenizerChoice::Simple, SentenceRule::Terminators);
    let kw = keywords(query, lang);
    println!("keywords: {kw:?}");
    for (i, s) in p.sentences.iter().enumerate() {
        let (b0, b1) = p.tokens.chunk_bytes(s.start, s.end).unwrap_or((0, 0));
        let hits: Vec<String> = (s.start..s.end)
            .filter_map(|t| {
                let (a, b) = p.tokens.spans[t];
                let w = text[a..b].to_lowercase();
                kw.contains(&w).then(|| format!("{w}@{t}"))
            })
            .collect();
        let head: String = text[b0..b1].chars().take(50).collect();
        println!(
            "{i:2} [{:3},{:3}) len {:2}  {:?}  {head:?}",
            s.start,
            s.end,
            s.len(),
            hits
        );
    }
    let mut bad = 0;
    for f in figures::spec_figures(&text, query, lang) {
        let mark = if f.holds() { "ok  " } else { "FAIL" };
        bad += usize::from(!f.holds());
        println!(
            "{mark} {:55} expected {:>18}  got {}",
            f.name, f.expected, f.actual
        );
    }
    println!("{bad} figure(s) differ");
}
