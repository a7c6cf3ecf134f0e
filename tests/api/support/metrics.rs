//! A scrape of `/metrics`, read by a Prometheus text-format parser, and the values in it.

use prometheus_parse::{Scrape, Value};

/// GETs `url` and parses the answer; panics unless it is a 200 the parser reads.
pub async fn scrape(client: &reqwest::Client, url: &str) -> (Scrape, String) {
    let response = client.get(url).send().await.unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::OK, "{url}");
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    let text = response.text().await.unwrap();
    let lines = text.lines().map(|l| Ok(l.to_owned()));
    let parsed = Scrape::parse(lines).unwrap_or_else(|e| panic!("{e}: {text}"));
    (parsed, text)
}

/// The value of the sample `metric` whose labels include every pair of `labels`, if any: a
/// counter, gauge or untyped sample (a histogram's `_count` and `_sum` are untyped).
pub fn value(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == metric)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .find_map(|s| match s.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => Some(v),
            _ => None,
        })
}

/// Like [`value`], 0 when there is no such sample.
pub fn count(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    value(scrape, metric, labels).unwrap_or(0.0)
}
