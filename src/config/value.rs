//! Readers of setting values that serde's derive cannot express: a choice among names and the
//! lists that an environment variable gives as one string.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// One of `choices`, by its exact name; anything else is refused listing the names.
pub(super) fn choice<'de, D: Deserializer<'de>, T: Copy>(
    de: D,
    choices: &[(&str, T)],
) -> Result<T, D::Error> {
    let name = String::deserialize(de)?;
    if let Some((_, value)) = choices.iter().find(|(n, _)| *n == name) {
        return Ok(*value);
    }
    let names: Vec<String> = choices.iter().map(|(n, _)| format!("`{n}`")).collect();
    Err(D::Error::custom(format!(
        "must be {}, not `{name}`",
        names.join(" or ")
    )))
}
