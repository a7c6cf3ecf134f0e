//! Text from outside (a name typed at a sign-in form, a URI from a query string) made safe to
//! put in a log line.

use std::fmt;

/// Shows text with every control character, line or paragraph separator and bidirectional
/// override escaped (`\n`, `\u{1b}`, `\u{202e}`), and backslashes doubled, so the text can
/// neither start a forged log line, nor move the terminal's cursor, nor pass one of those
/// escapes off as its own.
///
/// Log it as `field = ?Escaped(text)`: the debug form is also quoted, with quotes escaped, so
/// a name such as `ada success=true` cannot pose as another field of the line either.
pub struct Escaped<'a>(pub &'a str);

impl Escaped<'_> {
    fn write(&self, f: &mut fmt::Formatter<'_>, quote: bool) -> fmt::Result {
        for c in self.0.chars() {
            if c == '\\' || (quote && c == '"') || c.is_control() || is_invisible_format(c) {
                write!(f, "{}", c.escape_debug())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

impl fmt::Debug for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        self.write(f, true)?;
        f.write_str("\"")
    }
}

/// Line and paragraph separators, and the characters that reorder text as it is shown.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::Escaped;

    #[test]
    fn control_characters_separators_and_overrides_are_escaped() {
        let typed = "eve\n2030-01-01T00:00:00Z  INFO audit: forged\r\u{1b}[2K\t\u{2028}\u{202e}";
        let shown = Escaped(typed).to_string();
        assert_eq!(
            shown,
            "eve\\n2030-01-01T00:00:00Z  INFO audit: forged\\r\\u{1b}[2K\\t\\u{2028}\\u{202e}"
        );
        assert!(!shown.chars().any(char::is_control));
    }

    #[test]
    fn a_typed_backslash_cannot_pass_for_an_escape() {
        assert_eq!(Escaped("a\\nb").to_string(), "a\\\\nb");
        assert_ne!(Escaped("a\\nb").to_string(), Escaped("a\nb").to_string());
    }

    #[test]
    fn the_debug_form_is_quoted_so_a_name_cannot_pose_as_another_field() {
        assert_eq!(
            format!("{:?}", Escaped("ada\" success=\"true")),
            "\"ada\\\" success=\\\"true\""
        );
    }

    #[test]
    fn ordinary_names_are_shown_as_they_are() {
        for name in ["ada", "Zoë O'Brien", "用户", "cn=x,dc=example"] {
            assert_eq!(Escaped(name).to_string(), name);
        }
    }
}
