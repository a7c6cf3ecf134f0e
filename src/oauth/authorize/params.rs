//! The query of an authorize request: each parameter with every value it was given.

use crate::domain::bounds::check;
use std::collections::HashMap;

/// Query parameters, each with every value it was given.
pub(super) struct Params(HashMap<String, Vec<String>>);

impl Params {
    /// Reads a query string.
    pub(super) fn parse(raw_query: &str) -> Self {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for (k, v) in url::form_urlencoded::parse(raw_query.as_bytes()) {
            map.entry(k.into_owned()).or_default().push(v.into_owned());
        }
        Self(map)
    }

    /// The single value of `name`; `Err` when it is repeated (RFC 6749 §3.1).
    pub(super) fn one(&self, name: &str) -> Result<Option<&str>, String> {
        match self.0.get(name).map(Vec::as_slice) {
            None | Some([]) => Ok(None),
            Some([one]) => Ok(Some(one.as_str())),
            Some(_) => Err(format!("parameter `{name}` must not be repeated")),
        }
    }

    /// The single value of `name`, treating an empty value as absent (RFC 6749 §3.1).
    pub(super) fn non_empty(&self, name: &str) -> Result<Option<&str>, String> {
        Ok(self.one(name)?.filter(|v| !v.is_empty()))
    }

    /// [`Params::non_empty`], refused when longer than `max` bytes.
    pub(super) fn bounded(&self, name: &str, max: usize) -> Result<Option<&str>, String> {
        self.non_empty(name)?
            .map(|v| check(name, v, max))
            .transpose()
    }

    /// Whether `name` was given at all.
    pub(super) fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_parameters_are_detected() {
        let p = Params::parse("a=1&a=2&b=3&c=");
        assert!(p.one("a").is_err());
        assert_eq!(p.one("b"), Ok(Some("3")));
        assert_eq!(p.non_empty("c"), Ok(None));
    }
}
