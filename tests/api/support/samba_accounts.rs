//! Account states on the Samba domain controller: disabling, ending and locking accounts,
//! putting passwords out of date, and reading the lockout counters AD keeps.

use super::samba::{AdUser, Samba, BASE, LOCKOUT_THRESHOLD, REALM};
use std::process::{Command, Stdio};

/// 2020-01-01T00:00:00Z as a Windows FILETIME (100 ns since 1601): a date in the past.
const LONG_AGO: u64 = 132_223_104_000_000_000;

/// What AD counts of an account's wrong passwords.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lockout {
    /// Wrong passwords since the last success or the last quiet observation window.
    pub bad_password_count: u32,
    /// When the account was locked out (FILETIME); 0 when it is not.
    pub lockout_time: u64,
}

impl Samba {
    /// Replaces `attribute` of `user` with `value`, as the domain administrator.
    pub fn set(&self, user: &AdUser, attribute: &str, value: &str) {
        self.modify(&format!(
            "dn: {}\nchangetype: modify\nreplace: {attribute}\n{attribute}: {value}\n-\n",
            user.dn
        ));
    }

    /// Disables the account (`userAccountControl` ACCOUNTDISABLE with NORMAL_ACCOUNT).
    pub fn disable(&self, user: &AdUser) {
        self.set(user, "userAccountControl", "514");
    }

    /// Gives the account an end date in the past (`accountExpires`).
    pub fn end_account(&self, user: &AdUser) {
        self.set(user, "accountExpires", &LONG_AGO.to_string());
    }

    /// Makes the password one to change at the next sign-in (`pwdLastSet` 0).
    pub fn require_password_change(&self, user: &AdUser) {
        self.set(user, "pwdLastSet", "0");
    }

    /// Makes the password older than the domain's maximum password age. AD lets no one set
    /// `pwdLastSet` to a date, so this writes it straight into the domain's database file,
    /// beneath Samba's checks, as a password set long ago would have left it.
    pub fn expire_password(&self, user: &AdUser) {
        let partition = self
            .dir()
            .join("private/sam.ldb.d")
            .join(format!("{}.ldb", BASE.to_ascii_uppercase()));
        let ldif = format!(
            "dn: {}\nchangetype: modify\nreplace: pwdLastSet\npwdLastSet: {LONG_AGO}\n-\n",
            user.dn
        );
        let file = self.dir().join(format!("expire-{}.ldif", user.sam));
        std::fs::write(&file, ldif).expect("the change file is written");
        let output = Command::new("ldbmodify")
            .arg("-H")
            .arg(&partition)
            .arg(&file)
            .output()
            .expect("ldbmodify runs");
        assert!(
            output.status.success(),
            "ldbmodify failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Binds as `user` with a wrong password until AD locks the account out.
    pub fn lock_out(&self, user: &AdUser) {
        for attempt in 0..LOCKOUT_THRESHOLD {
            let wrong = format!("Wrong-Passw0rd-{attempt}");
            assert!(!self.binds(user, &wrong), "a wrong password was accepted");
        }
        assert_ne!(
            self.lockout(user).lockout_time,
            0,
            "the account is not locked"
        );
    }

    /// Whether a simple bind as `user` (by UPN) with `password` succeeds, over LDAPS.
    pub fn binds(&self, user: &AdUser, password: &str) -> bool {
        Command::new("ldapwhoami")
            .args(["-x", "-o", "nettimeout=5", "-H", &self.url()])
            .args(["-D", &format!("{}@{REALM}", user.sam), "-w", password])
            .env("LDAPTLS_CACERT", self.ca_file())
            .env("LDAPTLS_REQCERT", "demand")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("ldapwhoami runs")
            .success()
    }

    /// The account's lockout counters, read as the domain administrator.
    pub fn lockout(&self, user: &AdUser) -> Lockout {
        let output = self
            .ldap("ldapsearch")
            .args(["-LLL", "-s", "base", "-b", &user.dn])
            .args(["badPwdCount", "lockoutTime"])
            .output()
            .expect("ldapsearch runs");
        assert!(output.status.success(), "ldapsearch of {} failed", user.dn);
        let text = String::from_utf8_lossy(&output.stdout);
        let value = |name: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(&format!("{name}: ")))
                .map_or(0, |v| v.trim().parse().expect("a number"))
        };
        Lockout {
            bad_password_count: value("badPwdCount") as u32,
            lockout_time: value("lockoutTime"),
        }
    }
}
