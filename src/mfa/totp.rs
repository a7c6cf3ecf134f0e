//! TOTP (RFC 6238): 6 digits, 30-second steps, HMAC-SHA1 — what every authenticator app
//! speaks — with one step of clock drift accepted either way.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use qrcode::render::svg;
use qrcode::QrCode;
use rand::RngCore;
use subtle::ConstantTimeEq;
use totp_rs::{Algorithm, TOTP};

/// Digits of a code.
pub const DIGITS: usize = 6;
/// Seconds per time step.
pub const STEP: u64 = 30;
/// Bytes of a new secret (160 bits, the RFC 4226 recommendation).
const SECRET_BYTES: usize = 20;

/// A fresh random secret.
pub fn new_secret() -> Vec<u8> {
    let mut secret = vec![0u8; SECRET_BYTES];
    rand::thread_rng().fill_bytes(&mut secret);
    secret
}

/// The generator for `secret`, labelled for authenticator apps as `issuer:account`.
/// `None` only for a secret shorter than 128 bits, which this service never makes.
pub fn generator(secret: &[u8], issuer: &str, account: &str) -> Option<TOTP> {
    // ':' separates issuer and account in an otpauth label; it cannot appear inside either.
    let account = account.replace(':', "_");
    TOTP::new(
        Algorithm::SHA1,
        DIGITS,
        1,
        STEP,
        secret.to_vec(),
        Some(issuer.to_owned()),
        account,
    )
    .ok()
}

/// The time step a presented code belongs to: the current one, or one either side (clock
/// drift). `None` for a wrong or malformed code. Every candidate is compared in constant time.
pub fn matching_step(totp: &TOTP, code: &str, now: u64) -> Option<u64> {
    if code.len() != DIGITS || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let current = now / STEP;
    let mut found = None;
    for step in [current.saturating_sub(1), current, current + 1] {
        let expected = totp.generate(step * STEP);
        if bool::from(expected.as_bytes().ct_eq(code.as_bytes())) && found.is_none() {
            found = Some(step);
        }
    }
    found
}

/// The enrolment QR code as an SVG data URI (rendered here: no outside service sees the secret).
pub fn qr_data_uri(otpauth_url: &str) -> Option<String> {
    let code = QrCode::new(otpauth_url.as_bytes()).ok()?;
    let image = code
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build();
    Some(format!(
        "data:image/svg+xml;base64,{}",
        STANDARD.encode(image)
    ))
}

/// The secret in base32 groups of four, for typing into an app by hand.
pub fn display_secret(totp: &TOTP) -> String {
    let base32 = totp.get_secret_base32();
    base32
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 secret "12345678901234567890", last six digits.
    #[test]
    fn codes_match_the_rfc_6238_test_vectors() {
        let totp = generator(b"12345678901234567890", "t", "a").unwrap();
        for (time, code) in [
            (59, "287082"),
            (1111111109, "081804"),
            (2000000000, "279037"),
        ] {
            assert_eq!(totp.generate(time), code);
            assert_eq!(matching_step(&totp, code, time), Some(time / STEP));
        }
    }

    #[test]
    fn one_step_of_drift_is_accepted_and_two_are_not() {
        let totp = generator(&new_secret(), "t", "a").unwrap();
        let now = 1_700_000_015;
        let code = totp.generate(now);
        assert!(matching_step(&totp, &code, now + STEP).is_some());
        assert!(matching_step(&totp, &code, now - STEP).is_some());
        assert!(matching_step(&totp, &code, now + 2 * STEP).is_none());
        assert!(matching_step(&totp, "12345", now).is_none());
        assert!(matching_step(&totp, "abcdef", now).is_none());
    }

    #[test]
    fn the_qr_code_is_an_svg_data_uri() {
        let totp = generator(&new_secret(), "sso-bridge", "ada").unwrap();
        let uri = qr_data_uri(&totp.get_url()).unwrap();
        assert!(uri.starts_with("data:image/svg+xml;base64,"));
    }
}
