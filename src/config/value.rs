//! Readers of setting values that serde's derive cannot express: a choice among names, counts
//! that must not be 0, durations given as whole numbers of a unit (each under a ceiling), network
//! addresses, and the lists that an environment variable gives as one string.

use ipnet::IpNet;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::net::IpAddr;
use std::path::PathBuf;
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

/// The longest lifetime or window a setting may give. None needs more, and the expiry times
/// computed from a value far past it overflow: Redis refuses such a key's expiry, so a service
/// given one started and then failed every code exchange as though the store were down.
const MAX_LIFETIME_SECS: u64 = 10 * 365 * 86_400;

/// [`MAX_LIFETIME_SECS`] for the refusal.
const MAX_LIFETIME_IN_WORDS: &str = "ten years";

/// A duration given in whole seconds, up to [`MAX_LIFETIME_SECS`]; 0 is allowed where it means
/// "never" or "not at all".
pub(super) fn secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let secs = at_most::<D>(
        u64::deserialize(de)?,
        MAX_LIFETIME_SECS,
        MAX_LIFETIME_IN_WORDS,
    )?;
    Ok(Duration::from_secs(secs))
}

/// A duration given in whole seconds, from 1 to [`MAX_LIFETIME_SECS`].
pub(super) fn positive_secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let secs = positive_at_most::<D>(de, MAX_LIFETIME_SECS, MAX_LIFETIME_IN_WORDS)?;
    Ok(Duration::from_secs(secs))
}

/// The longest an authorization code may live: RFC 6749 (section 4.1.2) recommends ten
/// minutes at most. The app redeems its code the moment the browser brings it back.
const MAX_CODE_SECS: u64 = 600;

/// An authorization code's lifetime in whole seconds, from 1 to [`MAX_CODE_SECS`].
pub(super) fn code_secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let secs = positive_at_most::<D>(
        de,
        MAX_CODE_SECS,
        "ten minutes, the most RFC 6749 recommends",
    )?;
    Ok(Duration::from_secs(secs))
}

/// The longest timeout of one call to the store or the directory. A request that waited longer
/// has been given up by the browser or the app that sent it, so a larger value would only let
/// calls to a server that never answers pile up; and a value of years is no timeout at all.
const MAX_TIMEOUT_MS: u64 = 60_000;

/// A timeout given in milliseconds, from 1 to [`MAX_TIMEOUT_MS`].
pub(super) fn timeout_millis<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let millis = positive_at_most::<D>(de, MAX_TIMEOUT_MS, "one minute")?;
    Ok(Duration::from_millis(millis))
}

/// A count from 1 to `max` (`max_in_words` says how long that is, for the refusal).
fn positive_at_most<'de, D: Deserializer<'de>>(
    de: D,
    max: u64,
    max_in_words: &str,
) -> Result<u64, D::Error> {
    at_most::<D>(positive::<D, u64>(de)?, max, max_in_words)
}

/// `value` unless it is above `max` (`max_in_words` says how long that is, for the refusal).
fn at_most<'de, D: Deserializer<'de>>(
    value: u64,
    max: u64,
    max_in_words: &str,
) -> Result<u64, D::Error> {
    if value > max {
        return Err(D::Error::custom(format!(
            "must be at most {max} ({max_in_words}), not {value}"
        )));
    }
    Ok(value)
}

/// The longest a stopping node waits for its requests in flight. Each call a request makes is
/// bounded by [`MAX_TIMEOUT_MS`], and a request makes a few; ten minutes leaves room for the
/// slowest, and a longer wait only keeps a node that was told to stop from stopping.
const MAX_SHUTDOWN_GRACE_SECS: u64 = 600;

/// A shutdown grace given in whole seconds, from 1 to [`MAX_SHUTDOWN_GRACE_SECS`].
pub(super) fn grace_secs<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let secs = positive_at_most::<D>(de, MAX_SHUTDOWN_GRACE_SECS, "ten minutes")?;
    Ok(Duration::from_secs(secs))
}

/// [`MAX_LIFETIME_SECS`] in days.
const MAX_LIFETIME_DAYS: u64 = MAX_LIFETIME_SECS / 86_400;

/// A duration given in whole days, up to [`MAX_LIFETIME_DAYS`]; 0 is allowed where it means
/// "never".
pub(super) fn days<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let days = at_most::<D>(
        u64::deserialize(de)?,
        MAX_LIFETIME_DAYS,
        MAX_LIFETIME_IN_WORDS,
    )?;
    Ok(Duration::from_secs(days * 86_400))
}

/// A duration given in whole days, from 1 to [`MAX_LIFETIME_DAYS`].
pub(super) fn positive_days<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
    let days = positive_at_most::<D>(de, MAX_LIFETIME_DAYS, MAX_LIFETIME_IN_WORDS)?;
    Ok(Duration::from_secs(days * 86_400))
}

/// The most threads `server.worker_threads` may ask for. Requests mostly wait on Redis and the
/// directory, so workers beyond the cores only take turns; and the runtime creates them all
/// before the service starts: asked for a million, it had not logged a line 40 seconds later.
const MAX_WORKER_THREADS: u64 = 1024;

/// A number of worker threads, from 0 (chosen from the cores) to [`MAX_WORKER_THREADS`].
pub(super) fn worker_threads<'de, D: Deserializer<'de>>(de: D) -> Result<usize, D::Error> {
    let threads = at_most::<D>(
        u64::deserialize(de)?,
        MAX_WORKER_THREADS,
        "workers beyond the cores only take turns",
    )?;
    usize::try_from(threads).map_err(D::Error::custom)
}

/// The most connections `store.pool_size` and `directory.pool_size` may ask for. Redis
/// connections each carry many requests at once, and directory connections each serve one
/// bind or many searches, so a node has no use for more; the store's pool sets up every slot
/// at start-up: asked for a hundred billion, it grew past 8 GB without serving a request.
const MAX_POOL_SIZE: u64 = 1024;

/// A number of connections, from 1 to [`MAX_POOL_SIZE`].
pub(super) fn pool_size<'de, D: Deserializer<'de>>(de: D) -> Result<usize, D::Error> {
    let size = positive_at_most::<D>(de, MAX_POOL_SIZE, "more than a node's requests can use")?;
    usize::try_from(size).map_err(D::Error::custom)
}

/// A list given either as a TOML array or as one string (the form an environment variable
/// takes) whose items are separated by any of `separators`. Items are trimmed and blank ones
/// dropped, so `""` is the empty list.
fn split_list<'de, D: Deserializer<'de>>(
    de: D,
    separators: &[char],
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        List(Vec<String>),
        Text(String),
    }
    let items = match Raw::deserialize(de)? {
        Raw::List(items) => items,
        Raw::Text(text) => text.split(separators).map(str::to_owned).collect(),
    };
    Ok(items
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect())
}

/// Names: `"superadmin,admin"` (or `;`-separated) in an environment variable.
pub(super) fn name_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    split_list(de, &[',', ';'])
}

/// Paths: `"/a.pem,/b.pem"` in an environment variable.
pub(super) fn path_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<PathBuf>, D::Error> {
    Ok(split_list(de, &[','])?
        .into_iter()
        .map(PathBuf::from)
        .collect())
}

/// URLs: `"redis://a:26379, redis://b:26379"` or `"redis://a:26379 redis://b:26379"` in an
/// environment variable (a URL holds neither a comma nor a space).
pub(super) fn url_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    split_list(de, &[',', ' ', '\t', '\n'])
}

/// DNs, which hold commas: `"cn=a,ou=g,dc=x;cn=b,ou=g,dc=x"` in an environment variable.
pub(super) fn dn_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    split_list(de, &[';'])
}

/// Addresses and networks: `"10.0.0.5, 10.1.0.0/16, 2001:db8::/32"` in an environment variable.
/// A bare address is a network of that one address; a network must be written by its first
/// address, so a slip such as `10.0.0.1/8` is refused rather than read as all of `10.0.0.0/8`.
pub(super) fn network_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<IpNet>, D::Error> {
    split_list(de, &[','])?
        .iter()
        .map(|item| network(item).map_err(D::Error::custom))
        .collect()
}

fn network(item: &str) -> Result<IpNet, String> {
    if let Ok(addr) = item.parse::<IpAddr>() {
        // `::ffff:10.0.0.5` is how a dual-stack socket shows an IPv4 peer; peers are compared
        // in their IPv4 form, so the entry is too.
        return Ok(IpNet::from(addr.to_canonical()));
    }
    let net: IpNet = item
        .parse()
        .map_err(|_| format!("`{item}` is not an IP address or a network such as 10.0.0.0/8"))?;
    if net.trunc() != net {
        return Err(format!(
            "`{item}` has bits set beyond its prefix length; write the network as `{}`",
            net.trunc()
        ));
    }
    Ok(net)
}
