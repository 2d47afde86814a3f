//! The simulator's documents: the default equipment manual for the fictional data logger XV40
//! in each UI language, its default query, and the presets of SPEC §4. The texts are ours,
//! written for this page (files in `crates/chunk-core/docs/`).
//!
//! Figures below are in simple-tokenizer tokens under the terminator sentence rule
//! ([`super::tokens::TokenizerChoice::Simple`], [`crate::segment::sentences::SentenceRule::Terminators`]);
//! `tests/gate/spec_figures.rs` checks each of them.

use crate::Lang;

/// A document the simulator can load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    /// The XV40 manual ([`default_document`]).
    #[default]
    Manual,
    /// "Uneven sentences": sentences of 19, 72, 18 and 49 tokens (158 in all). Sentence packing
    /// at size 60 gives chunks of 19, 72 (oversize, warned), 18 and 49 tokens; fixed windows at
    /// 60 give 60, 60 and 38 tokens and split 2 sentences.
    UnevenSentences,
    /// "One sentence": 44 tokens and no terminator, so sentence packing gives one 44-token
    /// chunk (oversize) at any size below 44, even 10.
    OneSentence,
}

impl Preset {
    /// Every preset, default first.
    pub const ALL: [Preset; 3] = [Preset::Manual, Preset::UnevenSentences, Preset::OneSentence];

    /// The preset's text in `lang`. The two small presets exist in English and Vietnamese;
    /// the other languages get the English text.
    pub fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Preset::Manual, _) => default_document(lang),
            (Preset::UnevenSentences, Lang::Vi) => include_str!("../../docs/uneven_vi.txt"),
            (Preset::UnevenSentences, _) => include_str!("../../docs/uneven_en.txt"),
            (Preset::OneSentence, Lang::Vi) => include_str!("../../docs/one_sentence_vi.txt"),
            (Preset::OneSentence, _) => include_str!("../../docs/one_sentence_en.txt"),
        }
    }
}

/// The default document in `lang`: a short manual for the data logger XV40 whose answer
/// sentence names the device early and gives the operating temperature range (−10 to 50 °C)
/// much later. In every language it gives each SPEC §4 figure exactly: 267 tokens, 13
/// sentences (also under UAX #29), every sentence ≤ 60 tokens, answer sentence = tokens
/// 110–164, `XV40` = token 112, the range phrase (the query's first keyword) at token 134, and
/// the query's other range keywords only in that sentence.
pub fn default_document(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../docs/default_en.txt"),
        Lang::Vi => include_str!("../../docs/default_vi.txt"),
        Lang::Id => include_str!("../../docs/default_id.txt"),
        Lang::Ru => include_str!("../../docs/default_ru.txt"),
        Lang::Pl => include_str!("../../docs/default_pl.txt"),
    }
}

/// The default query in `lang`, "operating temperature range of XV40", worded in each
/// language so that 4 keywords remain after stop words (SPEC §4 counts 4; the literal English
/// "temperature range of XV40" would leave 3). Each keyword appears in the document in exactly
/// the query's word form.
pub fn default_query(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "operating temperature range of XV40",
        Lang::Vi => "dải nhiệt độ của XV40",
        Lang::Id => "rentang suhu operasi XV40",
        Lang::Ru => "диапазон рабочих температур XV40",
        Lang::Pl => "zakres temperatury pracy XV40",
    }
}
