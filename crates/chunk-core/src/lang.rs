//! The UI languages (SPEC §1): they select the default documents, queries and stop words here,
//! and the message catalog and number formats of the page.

/// A language of the page. In messages (serde) its ISO 639-1 code, `"en"` … `"pl"`
/// ([`Lang::code`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
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
        self.into()
    }

    /// Parses an ISO 639-1 code; `None` for a language the page does not ship.
    pub fn from_code(code: &str) -> Option<Self> {
        code.parse().ok()
    }

    /// Parses a code or a browser language tag such as `"vi"`, `"vi-VN"`, `"pl_PL"` (the
    /// primary subtag, any case); `None` for a language the page does not ship.
    pub fn from_tag(tag: &str) -> Option<Self> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        Self::from_code(&primary)
    }

    /// The BCP 47 locale for number formats (decides `10,000` vs `10.000`).
    pub fn locale(self) -> &'static str {
        match self {
            Lang::En => "en-US",
            Lang::Vi => "vi-VN",
            Lang::Id => "id-ID",
            Lang::Ru => "ru-RU",
            Lang::Pl => "pl-PL",
        }
    }

    /// The language's own name, for a language switch.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
            Lang::Id => "Bahasa Indonesia",
            Lang::Ru => "Русский",
            Lang::Pl => "Polski",
        }
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
        assert_eq!(
            Lang::ALL.map(Lang::code),
            ["en", "vi", "id", "ru", "pl"],
            "the codes are ISO 639-1"
        );
        for l in Lang::ALL {
            assert_eq!(
                serde_json::to_value(l).unwrap(),
                l.code(),
                "serde writes the code"
            );
        }
        assert_eq!(Lang::from_code("de"), None);
        assert_eq!(Lang::from_code("EN"), None, "codes are lower case");
        assert_eq!(Lang::from_tag("vi-VN"), Some(Lang::Vi));
        assert_eq!(Lang::from_tag("PL_pl"), Some(Lang::Pl));
        assert_eq!(Lang::from_tag(""), None);
    }
}
