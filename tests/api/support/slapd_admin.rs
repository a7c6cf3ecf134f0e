//! What an administrator does to the test slapd beyond plain changes: OpenLDAP's password
//! policy (the ppolicy overlay; a policy of its own for each test, people under it, and the
//! states an administrator or the overlay puts them in, set with Relax Rules), and referrals
//! (added with ManageDsaIT).

use super::slapd::{run_with_input, Slapd, BASE, PEOPLE};
use std::process::{Command, Stdio};

/// The password of every person added here.
pub const POLICY_PASSWORD: &str = "policy-pw-1";
/// Wrong passwords before the overlay locks an account.
pub const MAX_FAILURE: u32 = 3;

/// A person under a password policy.
#[derive(Debug, Clone)]
pub struct PolicyUser {
    /// Their DN.
    pub dn: String,
    /// Their uid, the name they sign in with.
    pub uid: String,
}

impl Slapd {
    /// Adds a password policy named `name`: lockout after [`MAX_FAILURE`] wrong passwords
    /// (until an administrator unlocks), passwords valid one day, a reset password to be
    /// changed at the next bind. Answers its DN.
    pub fn add_policy(&self, name: &str) -> String {
        let dn = format!("cn={name},{BASE}");
        self.change(
            &format!(
                "dn: {dn}\nchangetype: add\nobjectClass: device\nobjectClass: pwdPolicy\n\
                 cn: {name}\npwdAttribute: userPassword\npwdLockout: TRUE\n\
                 pwdMaxFailure: {MAX_FAILURE}\npwdMaxAge: 86400\npwdMustChange: TRUE\n"
            ),
            &[],
        );
        dn
    }

    /// Adds a password policy named `name` that locks an account at `max_failure` wrong
    /// passwords, forgetting each after `interval` seconds (0: only at a correct one).
    /// Answers its DN.
    pub fn add_lockout_policy(&self, name: &str, max_failure: u32, interval: u64) -> String {
        let dn = format!("cn={name},{BASE}");
        self.change(
            &format!(
                "dn: {dn}\nchangetype: add\nobjectClass: device\nobjectClass: pwdPolicy\n\
                 cn: {name}\npwdAttribute: userPassword\npwdLockout: TRUE\n\
                 pwdMaxFailure: {max_failure}\npwdFailureCountInterval: {interval}\n"
            ),
            &[],
        );
        dn
    }

    /// Whether the overlay has locked `user`: a bind with the right password is refused.
    pub fn is_locked(&self, user: &PolicyUser) -> bool {
        !Command::new("ldapwhoami")
            .args(["-x", "-H", &self.url(), "-D", &user.dn])
            .args(["-w", POLICY_PASSWORD])
            .env("LDAPNOINIT", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("ldapwhoami runs")
            .success()
    }

    /// Adds a person `uid` whose password `password` is stored as an Argon2 hash (the way the
    /// compose stack's directory keeps them). Answers their DN.
    pub fn add_argon2_user(&self, uid: &str, password: &str) -> String {
        let output = Command::new("slappasswd")
            .args(["-o", "module-load=argon2", "-h", "{ARGON2}", "-s", password])
            .output()
            .expect("slappasswd runs");
        assert!(output.status.success(), "{output:?}");
        let hash = String::from_utf8(output.stdout).unwrap();
        let dn = format!("uid={uid},{PEOPLE}");
        self.change(
            &format!(
                "dn: {dn}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: {uid}\ncn: {uid}\n\
                 sn: {uid}\nuserPassword: {}\n",
                hash.trim()
            ),
            &[],
        );
        dn
    }

    /// Adds a person `uid` under `policy`, password [`POLICY_PASSWORD`].
    pub fn add_policy_user(&self, uid: &str, policy: &str) -> PolicyUser {
        let dn = format!("uid={uid},{PEOPLE}");
        self.change(
            &format!(
                "dn: {dn}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: {uid}\ncn: {uid}\n\
                 sn: {uid}\nuserPassword: {POLICY_PASSWORD}\npwdPolicySubentry: {policy}\n"
            ),
            &[],
        );
        PolicyUser {
            dn,
            uid: uid.to_owned(),
        }
    }

    /// Sets an attribute the overlay keeps (`pwdAccountLockedTime`, `pwdReset`,
    /// `pwdChangedTime`), as an administrator may with the Relax Rules control.
    pub fn set_policy_state(&self, user: &PolicyUser, attribute: &str, value: &str) {
        self.change(
            &format!(
                "dn: {}\nchangetype: modify\nreplace: {attribute}\n{attribute}: {value}\n-\n",
                user.dn
            ),
            &["-e", "relax"],
        );
    }

    /// Binds as `user` with wrong passwords until the overlay locks the account.
    pub fn lock_out(&self, user: &PolicyUser) {
        for attempt in 0..MAX_FAILURE {
            let bound = Command::new("ldapwhoami")
                .args(["-x", "-H", &self.url(), "-D", &user.dn])
                .args(["-w", &format!("wrong-{attempt}")])
                .env("LDAPNOINIT", "1")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("ldapwhoami runs");
            assert!(!bound.success(), "a wrong password was accepted");
        }
    }

    /// Adds a referral `dn` (objectClass referral) sending searches to `url`.
    pub fn add_referral(&self, dn: &str, url: &str) {
        let name = dn
            .split(',')
            .next()
            .and_then(|rdn| rdn.strip_prefix("cn="))
            .expect("a cn= DN");
        self.change(
            &format!(
                "dn: {dn}\nchangetype: add\nobjectClass: referral\nobjectClass: extensibleObject\n\
                 cn: {name}\nref: {url}\n"
            ),
            // ManageDsaIT: the referral entry itself is meant, not followed.
            &["-M"],
        );
    }

    /// Applies LDIF changes as the directory's administrator, with `flags` besides.
    fn change(&self, ldif: &str, flags: &[&str]) {
        run_with_input(self.as_admin("ldapmodify").args(flags), ldif);
    }
}
