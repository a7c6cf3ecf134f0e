//! Enrolment and verification: an authenticator is set up (secret kept encrypted, pending
//! until a first code confirms it), then each sign-in proves it with a code or a recovery code.

use super::{recovery, totp, Context, MfaError};
use crate::domain::Digest;
use crate::events::{Event, SecondFactorOutcome};
use crate::store::EnrolmentRecord;

/// What the enrolment page shows.
pub struct SetupView {
    /// The QR code, an SVG data URI.
    pub qr: String,
    /// The secret in base32 groups, for typing in by hand.
    pub secret: String,
    /// The `otpauth://` URL the QR code holds.
    pub url: String,
}

/// How a second factor was proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// A TOTP code.
    Totp,
    /// A recovery code; this many are left.
    Recovery { left: u64 },
}

/// Who is setting up an authenticator. A set-up is kept per user and per holder's slot, so it
/// is never shown to anyone but the one who started it, and each slot holds one set-up: a
/// browser's (its flow cookie's digest), or the admin API's one per account, which a new
/// set-up replaces and which opens only with the `setup_id` that started it.
#[derive(Debug, Clone, Copy)]
pub struct Holder<'a> {
    slot: &'a str,
    proof: &'a str,
}

impl<'a> Holder<'a> {
    /// The browser whose flow cookie has this digest (hex).
    pub fn browser(digest: &'a str) -> Self {
        Self {
            slot: digest,
            proof: "",
        }
    }

    /// The admin API caller holding `setup_id`.
    pub fn api(setup_id: &'a str) -> Self {
        Self {
            slot: "api",
            proof: setup_id,
        }
    }

    /// What the pending secret is sealed for: the user, and the proof that opens it.
    fn sealed_for(self, sub: &str) -> String {
        if self.proof.is_empty() {
            sub.to_owned()
        } else {
            format!("{sub}\n{}", self.proof)
        }
    }
}

/// Whether `sub` has a confirmed enrolment.
pub async fn is_enrolled(cx: &impl Context, sub: &str) -> Result<bool, MfaError> {
    Ok(cx.store().second_factor(sub).await?.is_some())
}

/// The authenticator `holder` is setting up for `sub`: the one it started earlier (a reload
/// shows the same QR code) or a new one, kept encrypted until confirmed or
/// `session.request_ttl_secs` pass.
pub async fn setup(
    cx: &impl Context,
    sub: &str,
    holder: Holder<'_>,
) -> Result<SetupView, MfaError> {
    let secret = match pending_secret(cx, sub, holder).await? {
        Some(secret) => secret,
        None => {
            let secret = totp::new_secret();
            let sealed = cx
                .mfa_key()
                .seal(&holder.sealed_for(sub), &secret)
                .ok_or(MfaError::Unusable("sealing failed"))?;
            let ttl = cx.setup_ttl().as_secs();
            cx.store().put_setup(sub, holder.slot, &sealed, ttl).await?;
            secret
        }
    };
    let generator = generator(cx, &secret, sub)?;
    let url = generator.get_url();
    Ok(SetupView {
        qr: totp::qr_data_uri(&url).ok_or(MfaError::Unusable("QR code too large"))?,
        secret: totp::display_secret(&generator),
        url,
    })
}

async fn pending_secret(
    cx: &impl Context,
    sub: &str,
    holder: Holder<'_>,
) -> Result<Option<Vec<u8>>, MfaError> {
    let Some(sealed) = cx.store().setup(sub, holder.slot).await? else {
        return Ok(None);
    };
    // Another holder's set-up in the same slot (a newer API set-up) does not open.
    Ok(cx.mfa_key().open(&holder.sealed_for(sub), &sealed))
}

fn generator(cx: &impl Context, secret: &[u8], sub: &str) -> Result<totp_rs::TOTP, MfaError> {
    totp::generator(secret, &cx.mfa_settings().issuer_label, sub)
        .ok_or(MfaError::Unusable("TOTP secret rejected by the generator"))
}

/// Confirms `holder`'s set-up with a first code: stores the enrolment (replacing any earlier
/// one) and answers ten fresh recovery codes, to be shown once.
pub async fn confirm(
    cx: &impl Context,
    sub: &str,
    holder: Holder<'_>,
    code: &str,
) -> Result<Vec<String>, MfaError> {
    let secret = pending_secret(cx, sub, holder)
        .await?
        .ok_or(MfaError::NoSetup)?;
    let generator = generator(cx, &secret, sub)?;
    let step = totp::matching_step(&generator, code.trim(), cx.now()).ok_or(MfaError::WrongCode)?;
    spend_step(cx, sub, &secret, step).await?;
    let record = EnrolmentRecord {
        sealed_secret: cx
            .mfa_key()
            .seal(sub, &secret)
            .ok_or(MfaError::Unusable("sealing failed"))?,
        enrolled_at: cx.now(),
    };
    // The earlier authenticator, if any, keeps working until this very write replaces it.
    let replaced = is_enrolled(cx, sub).await?;
    let (codes, digests) = fresh_codes(cx, sub);
    cx.store().put_second_factor(sub, &record, &digests).await?;
    cx.store().delete_setup(sub, holder.slot).await?;
    let event = Event::SecondFactorEnrolled {
        sub: sub.to_owned(),
        replaced,
    };
    cx.events().publish(event).await;
    Ok(codes)
}

/// Gives `sub`'s enrolment a new set of recovery codes, to be shown once: the earlier set
/// stops working in the same store write. The caller publishes the change (it knows from
/// where it was asked).
pub async fn renew_recovery_codes(cx: &impl Context, sub: &str) -> Result<Vec<String>, MfaError> {
    let record = cx
        .store()
        .second_factor(sub)
        .await?
        .ok_or(MfaError::NotEnrolled)?;
    let (codes, digests) = fresh_codes(cx, sub);
    cx.store().put_second_factor(sub, &record, &digests).await?;
    Ok(codes)
}

/// A fresh set of recovery codes for `sub`: as shown, and as stored.
fn fresh_codes(cx: &impl Context, sub: &str) -> (Vec<String>, Vec<Digest>) {
    let codes = recovery::generate();
    let digests = codes
        .iter()
        .filter_map(|c| recovery::digest(cx.mfa_key(), sub, c))
        .collect();
    (codes, digests)
}

/// Checks a code from the enrolled authenticator, or else a recovery code; publishes how it
/// went.
pub async fn verify(cx: &impl Context, sub: &str, code: &str) -> Result<Proof, MfaError> {
    let result = check(cx, sub, code).await;
    let outcome = match &result {
        Ok(Proof::Totp) => Some(SecondFactorOutcome::Code),
        Ok(Proof::Recovery { .. }) => Some(SecondFactorOutcome::RecoveryCode),
        Err(MfaError::WrongCode) => Some(SecondFactorOutcome::Wrong),
        Err(MfaError::Replayed) => Some(SecondFactorOutcome::Replayed),
        // Nothing was checked: no enrolment, or an outage.
        Err(_) => None,
    };
    if let Some(outcome) = outcome {
        let event = Event::SecondFactorChecked {
            sub: sub.to_owned(),
            outcome,
        };
        cx.events().publish(event).await;
    }
    result
}

async fn check(cx: &impl Context, sub: &str, code: &str) -> Result<Proof, MfaError> {
    let record = cx
        .store()
        .second_factor(sub)
        .await?
        .ok_or(MfaError::NotEnrolled)?;
    let code = code.trim();
    if code.len() == totp::DIGITS && code.bytes().all(|b| b.is_ascii_digit()) {
        let secret = cx
            .mfa_key()
            .open(sub, &record.sealed_secret)
            .ok_or(MfaError::Undecryptable)?;
        let generator = generator(cx, &secret, sub)?;
        let step = totp::matching_step(&generator, code, cx.now()).ok_or(MfaError::WrongCode)?;
        spend_step(cx, sub, &secret, step).await?;
        return Ok(Proof::Totp);
    }
    let digest = recovery::digest(cx.mfa_key(), sub, code).ok_or(MfaError::WrongCode)?;
    if !cx.store().use_recovery_code(sub, &digest).await? {
        return Err(MfaError::WrongCode);
    }
    let left = cx.store().recovery_codes_left(sub).await?;
    let event = Event::RecoveryCodeUsed {
        sub: sub.to_owned(),
        left,
    };
    cx.events().publish(event).await;
    Ok(Proof::Recovery { left })
}

/// Accepts each time step once per user and secret: a code seen before (even by another node)
/// is refused, while a new authenticator's first code is not mistaken for a replay.
async fn spend_step(
    cx: &impl Context,
    sub: &str,
    secret: &[u8],
    step: u64,
) -> Result<(), MfaError> {
    // Long enough to outlive the drift window in which the code would still match.
    let ttl = 4 * totp::STEP;
    // A short tag of the secret's digest tells authenticators apart without revealing anything.
    let digest = Digest::of(&hex::encode(secret));
    let tag = &digest.as_hex()[..8];
    let fresh = cx.store().spend_otp_step(sub, tag, step, ttl).await?;
    if fresh {
        Ok(())
    } else {
        Err(MfaError::Replayed)
    }
}

/// Removes a user's second factors (superadmin reset): the authenticator app with its
/// recovery codes, and every passkey; answers whether there was any. Set-ups in progress are
/// left to expire: confirming one still takes the user's own sign-in.
pub async fn reset(cx: &impl Context, sub: &str) -> Result<bool, MfaError> {
    let app = cx.store().delete_second_factor(sub).await?;
    let passkeys = super::passkey::remove_all(cx, sub).await?;
    Ok(app || passkeys > 0)
}
