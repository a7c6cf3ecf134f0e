//! A sign-in name as typed, reduced to the one spelling that limits, the audit log and the
//! directory see, as an LDAP server compares names (RFC 4518's preparation for
//! `caseIgnoreMatch`): characters mapped to nothing dropped (soft hyphen, zero-width and
//! variation marks), Unicode compatibility forms folded (NFKC), case folded, and spaces made
//! insignificant (surrounding ones trimmed, each run inside one space). `ａｌａｎ` (fullwidth)
//! and `𝐚𝐥𝐚𝐧` (mathematical bold) are `alan`, and `mary  jane` is `mary jane`, so every
//! spelling of one entry shares its attempt counter and cannot buy fresh guesses against it.

use icu_normalizer::ComposingNormalizerBorrowed;

/// Longest name kept, in characters after normalisation.
pub const MAX_CHARS: usize = 256;

/// Longest input looked at, in bytes: normalising is linear, but nothing needs more.
const MAX_INPUT_BYTES: usize = 4 * MAX_CHARS;

/// Why a typed name was refused before anything was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UsernameError {
    /// Nothing but spaces.
    #[error("enter your username")]
    Empty,
    /// Longer than any directory name.
    #[error("the username is too long")]
    TooLong,
    /// A control character (newline, NUL...), which no directory name holds.
    #[error("the username holds a control character")]
    ControlCharacter,
}

/// A normalised sign-in name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// Normalises a typed name, or says why it cannot be one.
    pub fn parse(raw: &str) -> Result<Self, UsernameError> {
        if raw.len() > MAX_INPUT_BYTES {
            return Err(UsernameError::TooLong);
        }
        if raw.chars().any(char::is_control) {
            return Err(UsernameError::ControlCharacter);
        }
        let name = fold(raw);
        if name.is_empty() {
            return Err(UsernameError::Empty);
        }
        if name.chars().count() > MAX_CHARS {
            return Err(UsernameError::TooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(UsernameError::ControlCharacter);
        }
        Ok(Self(name))
    }

    /// The normalised name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `raw` as an LDAP server compares it (see the module's head).
pub fn fold(raw: &str) -> String {
    let kept: String = raw.chars().filter(|c| !mapped_to_nothing(*c)).collect();
    let nfkc = ComposingNormalizerBorrowed::new_nfkc();
    // Lowercasing can produce sequences that compose again: normalise on both sides.
    let lower = nfkc.normalize(&kept).to_lowercase();
    let folded = nfkc.normalize(&lower);
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// RFC 4518 §2.2: characters a comparison ignores.
fn mapped_to_nothing(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{1806}'
            | '\u{180B}'..='\u{180D}'
            | '\u{200B}'
            | '\u{2060}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFFC}'
    )
}

impl std::fmt::Display for Username {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(raw: &str) -> String {
        Username::parse(raw).unwrap().as_str().to_owned()
    }

    #[test]
    fn look_alike_spellings_are_one_name() {
        for spelling in [
            "alan",
            "ALAN",
            " Alan ",
            "ａｌａｎ",
            "𝐚𝐥𝐚𝐧",
            "ＡＬＡＮ",
            "𝓪𝓵𝓪𝓷",
        ] {
            assert_eq!(name(spelling), "alan", "{spelling:?}");
        }
    }

    #[test]
    fn spaces_are_insignificant_as_ldap_compares_names() {
        for spelling in [
            "mary jane",
            "mary  jane",
            "mary   jane",
            " Mary\u{3000}Jane ",
            "mary\u{00A0}jane",
            "ma\u{00AD}ry jane",
            "mary\u{200B} jane",
        ] {
            assert_eq!(name(spelling), "mary jane", "{spelling:?}");
        }
    }

    #[test]
    fn other_scripts_keep_their_letters() {
        assert_eq!(name("Jürgen"), "jürgen");
        assert_eq!(name("Ju\u{308}rgen"), "jürgen");
        assert_eq!(name("ΣΟΦΙΑ"), "σοφια");
    }

    #[test]
    fn control_characters_blank_and_overlong_names_are_refused() {
        assert_eq!(
            Username::parse("ada\n"),
            Err(UsernameError::ControlCharacter)
        );
        assert_eq!(
            Username::parse("a\u{0}da"),
            Err(UsernameError::ControlCharacter)
        );
        assert_eq!(Username::parse("   "), Err(UsernameError::Empty));
        assert_eq!(
            Username::parse(&"a".repeat(MAX_CHARS + 1)),
            Err(UsernameError::TooLong)
        );
        assert_eq!(
            Username::parse(&"a".repeat(100_000)),
            Err(UsernameError::TooLong)
        );
        assert!(Username::parse(&"a".repeat(MAX_CHARS)).is_ok());
    }
}
