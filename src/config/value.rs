//! Readers of setting values that serde's derive cannot express: a choice among names, counts
//! that must not be 0, durations given as whole numbers of a unit, and the lists that an
//! environment variable gives as one string.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::time::Duration;

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

/// A count that must not be 0 (a pool size, an attempt limit, a timeout in a unit of its own).
pub(super) fn positive<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default + PartialEq,
{
    let value = T::deserialize(de)?;
    if value == T::default() {
        return Err(D::Error::custom("must be greater than 0"));
    }
    Ok(value)
}

/// A duration given in whole seconds; 0 is allowed where it means "never" or "not at all".
pub(super) fn secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    u64::deserialize(de).map(Duration::from_secs)
}

/// A duration given in whole seconds, at least one.
pub(super) fn positive_secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    positive::<D, u64>(de).map(Duration::from_secs)
}

/// A duration given in milliseconds, at least one.
pub(super) fn positive_millis<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    positive::<D, u64>(de).map(Duration::from_millis)
}

/// A duration given in whole days; 0 is allowed where it means "never".
pub(super) fn days<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    from_days::<D>(u64::deserialize(de)?)
}

/// A duration given in whole days, at least one.
pub(super) fn positive_days<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    from_days::<D>(positive(de)?)
}

fn from_days<'de, D: Deserializer<'de>>(days: u64) -> Result<Duration, D::Error> {
    days.checked_mul(86_400)
        .map(Duration::from_secs)
        .ok_or_else(|| D::Error::custom("is too many days"))
}
