//! Native figures of the static (model2vec) encoder on potion-base-8M: the time to load it, and
//! the MB/s of text embedded from a mixed text of about 1 MB (the moonstone fixture, then
//! paragraphs in Vietnamese, Russian, Polish, Chinese and Japanese, and code), embedded (a) in
//! chunks of about 1,000 bytes, as the page embeds chunks, each read whole (under the
//! model's 3,072-character cut), and (b) as one text with the model's cuts lifted
//! (config.json's `max_length` set to `null`), which leaves only the tokenizer and the mean.
//! Not a test: it prints figures, it asserts nothing.
//!
//! Usage: `cargo run --release -p embed-core --example static_bench -- [model folder]`
//! (default: `$EMBED_MODELS_DIR/potion-base-8m`, from `scripts/ensure-models.sh`).

use std::path::PathBuf;
use std::time::Instant;

use embed_core::folder::StaticFolder;
use embed_core::static_model::{StaticEncoder, StaticFiles};

/// About 1 MB of mixed text.
fn corpus() -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let english =
        std::fs::read_to_string(format!("{root}/../../tests/fixtures/moonstone-short.txt"))
            .expect("the moonstone fixture");
    let others = [
        "Kích thước đoạn quyết định những gì hệ thống truy xuất tìm thấy. Một đoạn quá dài làm \
         loãng ý nghĩa; một đoạn quá ngắn mất ngữ cảnh.\n\n",
        "Размер фрагмента определяет, что сможет найти поиск. Слишком длинный фрагмент размывает \
         смысл, слишком короткий теряет контекст.\n\n",
        "Rozmiar fragmentu decyduje o tym, co znajdzie wyszukiwarka. Zbyt długi fragment rozmywa \
         znaczenie, zbyt krótki gubi kontekst.\n\n",
        "分块大小决定了检索器能找到什么。块太长会稀释含义，块太短会丢失上下文。\
         チャンクのサイズが検索結果を決める。\n\n",
        "fn main() {\n    let chunks: Vec<&str> = text.split(\"\\n\\n\").collect();\n    \
         println!(\"{} chunks\", chunks.len());\n}\n\n",
    ];
    let mut text = String::new();
    while text.len() < 1_000_000 {
        text.push_str(&english[..english.len().min(60_000)]);
        for (i, p) in others.iter().enumerate() {
            for _ in 0..(40 + 10 * i) {
                text.push_str(p);
            }
        }
    }
    text
}

/// Pieces of about `size` bytes, cut at a character boundary.
fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut at = rest.len().min(size);
        while !rest.is_char_boundary(at) {
            at += 1;
        }
        out.push(&rest[..at]);
        rest = &rest[at..];
    }
    out
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let Some(models) = std::env::var_os("EMBED_MODELS_DIR") else {
                eprintln!(
                    "give the model folder, or set EMBED_MODELS_DIR (scripts/ensure-models.sh)"
                );
                std::process::exit(2)
            };
            PathBuf::from(models).join("potion-base-8m")
        });
    let folder = StaticFolder::read(&dir).unwrap_or_else(|e| {
        eprintln!("cannot read {e}");
        std::process::exit(2)
    });
    let files = folder.files();
    let start = Instant::now();
    let model = StaticEncoder::load(files).unwrap_or_else(|e| {
        eprintln!("the model does not load: {e}");
        std::process::exit(1)
    });
    let load_ms = start.elapsed().as_secs_f64() * 1e3;

    // The same model with no cut: config.json's max_length set to null.
    let mut uncut: serde_json::Value = serde_json::from_str(files.config).expect("config.json");
    uncut["max_length"] = serde_json::Value::Null;
    let uncut = uncut.to_string();
    let whole = StaticEncoder::load(StaticFiles {
        config: &uncut,
        ..files
    })
    .expect("the uncut model loads");

    let text = corpus();
    let mb = text.len() as f64 / 1e6;
    let pieces = chunks(&text, 1000);
    let best = |f: &dyn Fn() -> usize| {
        let mut best = f64::MAX;
        let mut tokens = 0;
        for _ in 0..5 {
            let t = Instant::now();
            tokens = f();
            best = best.min(t.elapsed().as_secs_f64());
        }
        (best, tokens)
    };
    let (chunked, chunk_tokens) = best(&|| pieces.iter().map(|p| model.embed(p).tokens_read).sum());
    let (ids_only, _) = best(&|| pieces.iter().map(|p| model.ids(p).len()).sum());
    let truncated = pieces.iter().filter(|p| model.embed(p).truncated).count();
    let (one, one_tokens) = best(&|| whole.embed(&text).tokens_read);
    println!(
        "potion-base-8M (static, dim {}, table {} B), loaded in {load_ms:.0} ms",
        model.dim(),
        model.bytes()
    );
    println!(
        "mixed text {:.2} MB ({} chars), best of 5:",
        mb,
        text.chars().count()
    );
    println!(
        "  {} chunks of ~1,000 B ({} cut): {:.1} MB/s, {:.0} chunks/s, {} tokens averaged",
        pieces.len(),
        truncated,
        mb / chunked,
        pieces.len() as f64 / chunked,
        chunk_tokens
    );
    println!(
        "    of which the ids alone (cuts, tokenizer, [UNK] removed): {:.1} MB/s",
        mb / ids_only
    );
    println!(
        "  the whole text as one, no cut: {:.1} MB/s, {} tokens averaged",
        mb / one,
        one_tokens
    );
}
