//! The UI languages (SPEC §1), which select the default documents, queries and stop words.

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Vietnamese.
    Vi,
    /// Indonesian.
    Id,
    /// Russian.
    Ru,
    /// Polish.
    Pl,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::Vi, Lang::Id, Lang::Ru, Lang::Pl];

    /// The ISO 639-1 code, e.g. `"vi"`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
            Lang::Id => "id",
            Lang::Ru => "ru",
            Lang::Pl => "pl",
        }
    }

    /// Parses an ISO 639-1 code; `None` for a language the page does not ship.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), Some(l));
        }
        assert_eq!(Lang::from_code("de"), None);
    }
}
