//! Chunks sized in an open model's tokens before its tokenizer is installed: every entry point
//! refuses with `TokenizerNotLoaded`, none counts 0 or falls back to characters. Its own test
//! binary, so that no other test of the process has installed a tokenizer (the registry is
//! process-wide: `OpenTokenizer::install`).

use chunk_core::strategy::{
    chunker, ChonkieRecursiveChunker, Chunker, LangchainMarkdownHeaderTextSplitter,
    LangchainRecursiveCharacterTextSplitter, Semchunk, Settings, SizeUnit, StrategyError,
    StrategyId, TextSplitterTextSplitter,
};
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::tokenizer::Encoding;

#[test]
fn every_entry_point_refuses_a_tokenizer_not_installed() {
    let text = "A first sentence. A second one.\n\n# A heading\n\nA paragraph under it.";
    for vocab in OpenVocab::ALL {
        assert!(
            vocab.loaded().is_none(),
            "nothing is installed in this binary"
        );
        let settings = Settings {
            chunk_size: 8,
            chunk_overlap: 2,
            unit: SizeUnit::Model(vocab),
            encoding: Encoding::Cl100kBase,
        };
        let refused = StrategyError::TokenizerNotLoaded { vocab };
        for id in StrategyId::all().filter(|s| s.supports(settings.unit)) {
            assert_eq!(chunker(id, &settings).err(), Some(refused.clone()), "{id}");
        }
        // Built directly, past `chunker`: each refuses when it would count.
        let direct: Vec<Box<dyn Chunker>> = vec![
            Box::new(LangchainRecursiveCharacterTextSplitter::new(&settings).expect("valid")),
            Box::new(LangchainMarkdownHeaderTextSplitter::new(&settings).expect("valid")),
            Box::new(TextSplitterTextSplitter::new(&settings).expect("valid")),
            Box::new(Semchunk::new(&settings).expect("valid")),
            Box::new(ChonkieRecursiveChunker::new(&settings).expect("valid")),
        ];
        for c in direct {
            assert_eq!(c.split(text).err(), Some(refused.clone()), "{}", c.id());
        }
    }
}
