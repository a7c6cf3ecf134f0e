//! A software authenticator for the tests: a P-256 key per credential, answering the options a
//! page hands `navigator.credentials` with real WebAuthn structures (CBOR attestation object
//! with a COSE key, `none` attestation; signed assertions), as a browser with a platform
//! authenticator would. The service verifies them with webauthn-rs, as it would a browser's.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One discoverable credential the authenticator holds.
pub struct Held {
    pub id: Vec<u8>,
    key: SigningKey,
    pub user_handle: Vec<u8>,
    pub counter: u32,
}

/// A platform authenticator with user verification, used from `origin`.
pub struct SoftAuthenticator {
    pub origin: String,
    pub held: Vec<Held>,
    /// Whether it verifies the user (PIN, biometric).
    pub verifies_user: bool,
}

impl SoftAuthenticator {
    /// An authenticator in a browser at `origin` (`http://localhost:<port>`).
    pub fn new(origin: &str) -> Self {
        Self {
            origin: origin.to_owned(),
            held: Vec::new(),
            verifies_user: true,
        }
    }

    fn rp_hash(options: &Value, origin: &str) -> [u8; 32] {
        let rp_id = options["rp"]["id"]
            .as_str()
            .or(options["rpId"].as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| {
                url::Url::parse(origin)
                    .unwrap()
                    .host_str()
                    .unwrap()
                    .to_owned()
            });
        Sha256::digest(rp_id.as_bytes()).into()
    }

    fn client_data(&self, kind: &str, options: &Value) -> Vec<u8> {
        json!({
            "type": kind,
            "challenge": options["challenge"],
            "origin": self.origin,
            "crossOrigin": false,
        })
        .to_string()
        .into_bytes()
    }

    fn flags(&self, extra: u8) -> u8 {
        // UP, UV when verified, and whatever the step adds (AT at registration).
        0x01 | if self.verifies_user { 0x04 } else { 0 } | extra
    }

    /// Answers `navigator.credentials.create({publicKey: options})`, as the page's script
    /// posts it.
    pub fn register(&mut self, options: &Value) -> String {
        let key = SigningKey::random(&mut rand::thread_rng());
        let id: Vec<u8> = (0..32).map(|_| rand::random::<u8>()).collect();
        let user_handle = URL_SAFE_NO_PAD
            .decode(options["user"]["id"].as_str().unwrap())
            .unwrap();
        let point = key.verifying_key().to_encoded_point(false);
        let cose = map(vec![
            (int(1), int(2)),
            (int(3), int(-7)),
            (int(-1), int(1)),
            (int(-2), bytes(point.x().unwrap())),
            (int(-3), bytes(point.y().unwrap())),
        ]);
        let mut auth_data = Self::rp_hash(options, &self.origin).to_vec();
        auth_data.push(self.flags(0x40));
        auth_data.extend(0u32.to_be_bytes());
        auth_data.extend([0u8; 16]);
        auth_data.extend((id.len() as u16).to_be_bytes());
        auth_data.extend(&id);
        auth_data.extend(cose);
        let attestation = map(vec![
            (text("fmt"), text("none")),
            (text("attStmt"), map(Vec::new())),
            (text("authData"), bytes(&auth_data)),
        ]);
        let client_data = self.client_data("webauthn.create", options);
        let answer = json!({
            "id": URL_SAFE_NO_PAD.encode(&id),
            "rawId": URL_SAFE_NO_PAD.encode(&id),
            "type": "public-key",
            "response": {
                "attestationObject": URL_SAFE_NO_PAD.encode(attestation),
                "clientDataJSON": URL_SAFE_NO_PAD.encode(client_data),
                "transports": ["internal"],
            },
            "extensions": {"credProps": {"rk": true}},
        });
        self.held.push(Held {
            id,
            key,
            user_handle,
            counter: 0,
        });
        answer.to_string()
    }

    /// Answers `navigator.credentials.get({publicKey: options})` with the credential at
    /// `index`: one the options allow, or (an empty allow list) a discoverable one.
    pub fn assert_with(&mut self, index: usize, options: &Value) -> String {
        let rp_hash = Self::rp_hash(options, &self.origin);
        let client_data = self.client_data("webauthn.get", options);
        let flags = self.flags(0);
        let held = &mut self.held[index];
        held.counter += 1;
        let mut auth_data = rp_hash.to_vec();
        auth_data.push(flags);
        auth_data.extend(held.counter.to_be_bytes());
        let mut signed = auth_data.clone();
        signed.extend(Sha256::digest(&client_data));
        let signature: Signature = held.key.sign(&signed);
        json!({
            "id": URL_SAFE_NO_PAD.encode(&held.id),
            "rawId": URL_SAFE_NO_PAD.encode(&held.id),
            "type": "public-key",
            "response": {
                "authenticatorData": URL_SAFE_NO_PAD.encode(&auth_data),
                "clientDataJSON": URL_SAFE_NO_PAD.encode(&client_data),
                "signature": URL_SAFE_NO_PAD.encode(signature.to_der().as_bytes()),
                "userHandle": URL_SAFE_NO_PAD.encode(&held.user_handle),
            },
            "extensions": {},
        })
        .to_string()
    }

    /// Answers with the newest credential.
    pub fn assert(&mut self, options: &Value) -> String {
        let newest = self.held.len() - 1;
        self.assert_with(newest, options)
    }
}

// --- just enough CBOR (RFC 8949) for an attestation object and a COSE key ---

fn head(major: u8, n: u64) -> Vec<u8> {
    let m = major << 5;
    match n {
        0..=23 => vec![m | n as u8],
        24..=0xff => vec![m | 24, n as u8],
        0x100..=0xffff => [vec![m | 25], (n as u16).to_be_bytes().to_vec()].concat(),
        _ => [vec![m | 26], (n as u32).to_be_bytes().to_vec()].concat(),
    }
}

fn int(v: i64) -> Vec<u8> {
    if v >= 0 {
        head(0, v as u64)
    } else {
        head(1, (-1 - v) as u64)
    }
}

fn bytes(b: &[u8]) -> Vec<u8> {
    [head(2, b.len() as u64), b.to_vec()].concat()
}

fn text(t: &str) -> Vec<u8> {
    [head(3, t.len() as u64), t.as_bytes().to_vec()].concat()
}

fn map(entries: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<u8> {
    let mut out = head(5, entries.len() as u64);
    for (k, v) in entries {
        out.extend(k);
        out.extend(v);
    }
    out
}

/// The options of the page's passkey form (its `data-passkey-options`), and the form's
/// action and hidden inputs.
pub fn passkey_form(page: &str) -> Option<(Value, crate::helpers::Form)> {
    let start = page.find("data-passkey-options=\"")? + "data-passkey-options=\"".len();
    let end = page[start..].find('"')? + start;
    let options = serde_json::from_str(&crate::helpers::unescape(&page[start..end])).unwrap();
    let form_start = page[..start].rfind("<form")?;
    Some((options, crate::helpers::Form::parse(&page[form_start..])))
}
