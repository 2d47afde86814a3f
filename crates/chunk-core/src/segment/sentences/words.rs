//! The word lists of the contextual sentence rule ([`super::contextual`]), in the UI languages
//! (en, vi, id, ru, pl). Every list is lower-case, without the full stop, and sorted by byte
//! order so that it can be binary-searched (a unit test checks the order).

/// Abbreviations that stand before a name, so that a full stop after them does not end a
/// sentence even when a capital follows ("Dr. Lee", "TP. Hồ Chí Minh", "Jl. Sudirman",
/// "ул. Ленина", "г. Москва", "np. Kraków"), unless a number stands before them (then they are
/// a unit or "year": "1799 г.", "1990 r.", "5 ms."). Absent on purpose: abbreviations that
/// often end a sentence ("etc.", "Inc.", "dll.", "itd."), those that stand before a number
/// (a digit after a full stop never starts a sentence anyway: "Fig. 3", "p. 55") and words
/// that are also everyday words ("fig", "doc"). Internal full stops are kept ("e.g", "m.in").
#[rustfmt::skip]
pub(crate) const PREFIXES: &[&str] = &[
    "a.n", "acad", "adm", "al", "bpk", "capt", "cf", "col", "cpt", "d.a", "dr", "dra", "drs", "e.g",
    "fr", "gen", "gov", "hab", "hj", "hon", "i.e", "im", "inż", "ir", "jl", "jln", "kab", "kec",
    "kel", "ks", "lt", "m.in", "messrs", "mgr", "mlle", "mme", "mr", "mrs", "mt", "mx", "np", "ny",
    "os", "pl", "pres", "prof", "prov", "płk", "rev", "sdr", "sdri", "sen", "sgt", "st", "ths",
    "tj", "tn", "tp", "tzw", "u.p", "ul", "viz", "vs", "woj", "yth", "św", "акад", "гр", "доц",
    "им", "пер", "пл", "пр", "просп", "проф", "св", "см", "ср", "тов", "ул", "डॉ",
];

/// Abbreviations that end a sentence after a number, where they are a unit or "year" ("1799 г.",
/// "1941–1945 гг.", "1990 r.", "took 5 ms."), and stand before a name otherwise ("г. Москва",
/// "Ms. Lee", "Ft. Worth").
#[rustfmt::skip]
pub(crate) const UNITS: &[&str] = &[
    "cm", "ft", "kg", "km", "min", "ml", "mm", "ms", "r", "sek", "г", "гг", "мин", "млн", "млрд",
    "руб", "тыс",
];

/// Abbreviations written in capitals that stand before a name: Vietnamese titles and places
/// ("TS. Nguyễn", "TP. Hồ Chí Minh"), the Indonesian "RS." (hospital). Compared as written: a
/// word in capitals is no lower-case abbreviation ("OS.", "NY.", "ST.").
#[rustfmt::skip]
pub(crate) const CAPITAL_PREFIXES: &[&str] = &[
    "BS", "CN", "GS", "KS", "LS", "PGS", "RS", "THS", "TP", "TS", "TT", "UBND",
];

/// Words that commonly open a sentence. After an abbreviation that is ambiguous on its own (an
/// upper-case initial such as "E." or an acronym such as "U.S."), a capital word ends the
/// sentence only when it is one of these ("I live in the U.S. How about you?" against "the U.S.
/// Government").
#[rustfmt::skip]
pub(crate) const STARTERS: &[&str] = &[
    "a", "after", "ale", "all", "also", "although", "and", "anda", "anh", "another", "apa", "are",
    "as", "at", "bagaimana", "because", "before", "being", "both", "but", "by", "can", "chúng",
    "could", "dan", "dia", "did", "do", "does", "during", "each", "either", "even", "every", "for",
    "from", "furthermore", "gdy", "had", "has", "have", "he", "hence", "her", "here", "his", "how",
    "however", "họ", "i", "ia", "if", "in", "is", "it", "its", "itu", "jednak", "kami", "karena",
    "kemudian", "ketika", "khi", "kiedy", "kita", "lalu", "let", "many", "may", "meanwhile",
    "mereka", "might", "more", "moreover", "most", "must", "my", "namun", "następnie", "neither",
    "nevertheless", "nhưng", "no", "not", "now", "nếu", "of", "on", "once", "one", "only", "or",
    "other", "our", "over", "please", "potem", "sau", "saya", "setelah", "she", "should", "since",
    "so", "some", "still", "such", "that", "the", "their", "then", "there", "therefore", "these",
    "they", "this", "those", "though", "thus", "to", "today", "tôi", "under", "vì", "was", "we",
    "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "without",
    "would", "wtedy", "yang", "yes", "yet", "you", "your", "đây", "đó", "а", "в", "если", "затем",
    "и", "к", "когда", "на", "но", "однако", "он", "она", "они", "потом", "с", "хотя", "это", "я",
];

/// Whether `word` (lower-case) is in the sorted `list`.
pub(crate) fn contains(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_lower_case_and_without_full_stops_at_the_ends() {
        for list in [PREFIXES, UNITS, STARTERS] {
            for pair in list.windows(2) {
                assert!(pair[0] < pair[1], "{pair:?} out of order or repeated");
            }
            for w in list {
                assert_eq!(w.to_lowercase(), *w);
                assert!(!w.starts_with('.') && !w.ends_with('.'), "{w}");
            }
        }
        for pair in CAPITAL_PREFIXES.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?} out of order or repeated");
        }
        assert!(CAPITAL_PREFIXES.iter().all(|w| w.to_uppercase() == *w));
        assert!(contains(PREFIXES, "dr") && contains(PREFIXES, "m.in"));
        assert!(!contains(PREFIXES, "etc") && !contains(PREFIXES, "co"));
        assert!(contains(STARTERS, "how") && !contains(STARTERS, "government"));
    }
}
