//! The one reader of secrets that a setting gives either as a value (`key`) or as a file holding
//! it (`key_file`): the directory's service password, the second-factor encryption key, the
//! signing-key encryption secret.
//!
//! The file form keeps secrets out of the environment and the configuration file (Docker and
//! Kubernetes secrets are files). Secrets are read here, at load, so a missing or empty file
//! stops start-up naming its key, and the rest of the service only sees the secret.

use super::ConfigError;
use secrecy::{ExposeSecret, SecretString};
use std::path::{Path, PathBuf};

/// A secret setting as the layers give it: `key`, `key_file`, both or neither.
#[derive(Debug)]
pub(super) struct SecretSetting {
    /// The value of `key`.
    pub value: Option<SecretString>,
    /// The value of `key_file`.
    pub file: Option<PathBuf>,
}

impl SecretSetting {
    /// The secret of `key` (e.g. `"mfa.encryption_key"`): its value, or the first line of the
    /// file named by `key_file` without its line ending; `None` when neither is set.
    ///
    /// An empty value or file name counts as unset, since an environment variable set to ""
    /// is the only way to unset a key that a configuration file sets. Both set is refused
    /// rather than one silently winning, and so is a file whose first line is empty.
    pub fn resolve(self, key: &str) -> Result<Option<SecretString>, ConfigError> {
        let value = self.value.filter(|v| !v.expose_secret().trim().is_empty());
        let file = self.file.filter(|f| !f.as_os_str().is_empty());
        let file_key = format!("{key}_file");
        match (value, file) {
            (Some(_), Some(_)) => Err(ConfigError::key(
                key,
                format!("set either {key} or {file_key}, not both"),
            )),
            (Some(value), None) => Ok(Some(value)),
            (None, Some(path)) => first_line(&path).map(Some).map_err(|reason| {
                ConfigError::key(&file_key, format!("{}: {reason}", path.display()))
            }),
            (None, None) => Ok(None),
        }
    }
}

/// The first line of the file at `path`, which must not be empty.
fn first_line(path: &Path) -> Result<SecretString, String> {
    let text = SecretString::from(std::fs::read_to_string(path).map_err(|e| e.to_string())?);
    match text.expose_secret().lines().next() {
        Some(line) if !line.is_empty() => Ok(SecretString::from(line)),
        _ => Err("the first line is empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        file
    }

    fn resolve(value: Option<&str>, file: Option<&Path>) -> Result<Option<String>, String> {
        let setting = SecretSetting {
            value: value.map(SecretString::from),
            file: file.map(Path::to_path_buf),
        };
        setting
            .resolve("section.secret")
            .map(|s| s.map(|s| s.expose_secret().to_owned()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_value_is_the_secret() {
        assert_eq!(resolve(Some("s3cret"), None).unwrap().unwrap(), "s3cret");
    }

    #[test]
    fn a_file_gives_its_first_line_without_the_line_ending() {
        for text in ["from-file\nsecond line\n", "from-file\r\n", "from-file"] {
            let f = file(text);
            assert_eq!(resolve(None, Some(f.path())).unwrap().unwrap(), "from-file");
        }
    }

    #[test]
    fn neither_or_empty_values_are_unset() {
        assert_eq!(resolve(None, None).unwrap(), None);
        assert_eq!(resolve(Some(""), Some(Path::new(""))).unwrap(), None);
    }

    #[test]
    fn both_are_refused_naming_both_keys() {
        let f = file("x\n");
        let err = resolve(Some("y"), Some(f.path())).unwrap_err();
        assert!(
            err.contains("`section.secret`") && err.contains("section.secret_file"),
            "{err}"
        );
    }

    #[test]
    fn an_unreadable_or_empty_file_is_refused_naming_the_key_and_the_path() {
        let err = resolve(None, Some(Path::new("/nonexistent/pw"))).unwrap_err();
        assert!(
            err.contains("`section.secret_file`") && err.contains("/nonexistent/pw"),
            "{err}"
        );
        let f = file("\nsecond line\n");
        let err = resolve(None, Some(f.path())).unwrap_err();
        assert!(err.contains("the first line is empty"), "{err}");
    }
}
