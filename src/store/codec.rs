//! How records become the JSON text both backends keep, and back.
//!
//! The only place the store encodes or decodes a record, so the two failures stay apart: a value
//! that cannot be encoded is a bug on the writing side ([`StoreError::Encoding`], nothing is
//! written), while text that does not decode was damaged or written by an incompatible version
//! ([`StoreError::Corrupt`]).

use super::StoreError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Serialises `value` (a `what`, named in the error) for writing.
pub(super) fn encode<T: Serialize>(what: &'static str, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::Encoding { what, source })
}

/// Parses a `what` read back from the store.
pub(super) fn decode<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}
