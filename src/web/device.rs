//! The browser a request came from, as a person's account page shows their sessions: kept at
//! sign-in ([`Browser`], the extractor), and told coarsely ([`describe`]: "Firefox", "Linux"),
//! never as the whole `User-Agent` text.

use super::address::ClientAddr;
use crate::store::Device;
use poem::http::header;
use poem::{FromRequest, Request, RequestBody};
use std::net::IpAddr;

/// Longest `User-Agent` kept with a session, in characters: enough for every browser's
/// product tokens, while a forged header cannot grow the record.
const MAX_USER_AGENT_CHARS: usize = 256;

/// The `User-Agent` and client address of a request.
#[derive(Debug, Clone, Default)]
pub struct Browser {
    /// As a session keeps it.
    pub device: Device,
    /// The client's address, as the attempt limits and the events take it.
    pub ip: Option<IpAddr>,
}

impl<'a> FromRequest<'a> for Browser {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let user_agent = req
            .headers()
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(|ua| {
                ua.chars()
                    .filter(|c| !c.is_control())
                    .take(MAX_USER_AGENT_CHARS)
                    .collect::<String>()
            })
            .filter(|ua| !ua.trim().is_empty());
        let client = ClientAddr::of(req);
        Ok(Self {
            device: Device {
                user_agent,
                address: client.shown(),
            },
            ip: client.ip(),
        })
    }
}

/// Browsers by a token of their `User-Agent`, the most specific first (Edge and Opera also
/// say Chrome, Chrome also says Safari).
const BROWSERS: [(&str, &str); 7] = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
];

/// Systems by a token of their `User-Agent`, the most specific first (Android also says Linux,
/// iOS also says Mac OS X).
const SYSTEMS: [(&str, &str); 7] = [
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
];

/// The browser and the system a `User-Agent` names, each when it names a known one.
pub fn describe(user_agent: &str) -> (Option<&'static str>, Option<&'static str>) {
    let find = |table: &[(&str, &'static str)]| {
        table
            .iter()
            .find(|(token, _)| user_agent.contains(token))
            .map(|(_, name)| *name)
    };
    (find(&BROWSERS), find(&SYSTEMS))
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn common_browsers_are_told_by_name_and_system() {
        let cases = [
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                (Some("Firefox"), Some("Linux")),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
                (Some("Edge"), Some("Windows")),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                (Some("Safari"), Some("iOS")),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
                (Some("Chrome"), Some("Android")),
            ),
            ("something else entirely", (None, None)),
        ];
        for (ua, expected) in cases {
            assert_eq!(describe(ua), expected, "{ua}");
        }
    }
}
