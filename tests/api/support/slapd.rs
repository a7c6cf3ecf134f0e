//! A private slapd serving `tests/fixtures/directory.ldif` on free loopback ports, with LDAPS
//! and StartTLS under a test CA made with the `openssl` command.
//!
//! slapd runs under a small `sh` wrapper that kills it as soon as the wrapper's stdin closes,
//! which happens when the test process exits however it exits: a shared instance held in a
//! `static` (never dropped) leaves no server behind.

use super::ports::{free_port, wait_for_port};
use secrecy::SecretString;
use sso_bridge::config::{DirectoryBackend, DirectoryFlavor, DirectorySettings, ServiceAccount};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// Suffix of the test directory.
pub const BASE: &str = "dc=example,dc=com";
/// Where the people are.
pub const PEOPLE: &str = "ou=people,dc=example,dc=com";
/// The service account that searches the people.
pub const SERVICE_DN: &str = "cn=sso-bridge,ou=services,dc=example,dc=com";
/// Its password.
pub const SERVICE_PASSWORD: &str = "sso-bridge-pw";
/// A service account reading what the other reads, but answered at most [`PAGED_LIMIT`]
/// entries per search and per page, as Active Directory answers at most 1,000.
pub const PAGED_READER_DN: &str = "cn=paged-reader,ou=services,dc=example,dc=com";
/// Its password.
pub const PAGED_READER_PASSWORD: &str = "paged-reader-pw";
/// Entries it is answered at most per search without paging, and per page with paging.
pub const PAGED_LIMIT: u32 = 3;
/// The fixture loaded into every instance.
pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/directory.ldif");

/// How long start-up may take before the harness gives up (slapadd, slapd, first bind).
const READY_LIMIT: Duration = Duration::from_secs(20);

/// Runs `"$@"` in the background, prints its pid, and kills it when stdin reaches end of file.
pub(super) const WRAPPER: &str = r#""$@" >/dev/null 2>>"$SLAPD_LOG" &
child=$!
echo "$child"
read _ignored
kill -KILL "$child" 2>/dev/null
wait "$child" 2>/dev/null
if [ -n "$SLAPD_CLEANUP" ]; then rm -rf "$SLAPD_CLEANUP"; fi
"#;

/// A running slapd; killed on drop.
pub struct Slapd {
    dir: TempDir,
    port: u16,
    ldaps_port: u16,
    /// Whether the wrapper removes the directory itself (the shared instance is never dropped).
    cleanup_on_exit: bool,
    process: Option<Process>,
}

struct Process {
    wrapper: Child,
    pid: u32,
}

impl Slapd {
    /// Starts a slapd of its own, for tests that stop, restart or suspend it. Like every
    /// instance it serves `ldap://` (with StartTLS) and `ldaps://`.
    pub fn start() -> Slapd {
        Self::launch(false)
    }

    /// One slapd shared by the tests of this run that leave it running as it is (never stop or
    /// suspend it).
    pub fn shared() -> &'static Slapd {
        static SHARED: OnceLock<Slapd> = OnceLock::new();
        SHARED.get_or_init(|| Self::launch(true))
    }

    fn launch(cleanup_on_exit: bool) -> Slapd {
        let dir = tempfile::Builder::new()
            .prefix("sso-bridge-slapd-")
            .tempdir()
            .expect("a temporary directory for slapd");
        std::fs::create_dir(dir.path().join("db")).expect("the database directory");
        make_certificates(dir.path(), "IP:127.0.0.1,DNS:localhost");
        std::fs::write(dir.path().join("slapd.conf"), slapd_conf(dir.path()))
            .expect("slapd.conf written");
        run(Command::new("slapadd")
            .arg("-q")
            .arg("-f")
            .arg(dir.path().join("slapd.conf"))
            .arg("-l")
            .arg(FIXTURE));
        let mut slapd = Slapd {
            dir,
            port: free_port(),
            ldaps_port: free_port(),
            cleanup_on_exit,
            process: None,
        };
        slapd.spawn();
        slapd
    }

    /// `ldap://127.0.0.1:<port>/` (StartTLS is offered there too).
    pub fn url(&self) -> String {
        format!("ldap://127.0.0.1:{}/", self.port)
    }

    /// `ldaps://127.0.0.1:<port>/`.
    pub fn ldaps_url(&self) -> String {
        format!("ldaps://127.0.0.1:{}/", self.ldaps_port)
    }

    /// PEM of the CA that signed the server certificate (for 127.0.0.1 and localhost).
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// PEM of another CA, which signed nothing this server presents.
    pub fn foreign_ca_file(&self) -> PathBuf {
        self.dir.path().join("foreign-ca.pem")
    }

    /// Settings of an LDAP directory on this server: plain `ldap://`, the service account,
    /// short timeouts (1 s connect, 1.5 s per operation), the default filters.
    pub fn settings(&self) -> DirectorySettings {
        DirectorySettings {
            backend: DirectoryBackend::Ldap,
            flavor: DirectoryFlavor::Generic,
            ldif_path: None,
            url: vec![self.url().parse().expect("an ldap:// URL")],
            service_account: Some(ServiceAccount {
                dn: SERVICE_DN.into(),
                password: SecretString::from(SERVICE_PASSWORD),
            }),
            user_base: PEOPLE.into(),
            user_filter: "(&(objectClass=inetOrgPerson)(uid={username}))".into(),
            lookup_filter: "(&(objectClass=inetOrgPerson)(uid={sub}))".into(),
            starttls: false,
            ca_file: None,
            connect_timeout: Duration::from_millis(1000),
            operation_timeout: Duration::from_millis(1500),
            pool_size: 2,
            page_size: 500,
            help_url: None,
            password_change_url: None,
            password_policy_dn: None,
            groups: sso_bridge::config::Settings::load_from(None, Vec::new())
                .expect("the built-in defaults load")
                .directory
                .groups,
        }
    }

    /// Freezes the server (SIGSTOP): the kernel still accepts connections, nothing answers.
    /// Returns once every thread of slapd is stopped: the signal is delivered asynchronously,
    /// and a thread still running could answer one more request.
    pub fn suspend(&self) {
        self.signal("-STOP");
        let pid = self.process.as_ref().expect("slapd is running").pid;
        let deadline = Instant::now() + READY_LIMIT;
        while !all_threads_stopped(pid) {
            assert!(Instant::now() < deadline, "slapd did not stop");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Lets a suspended server run again (SIGCONT).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    /// Kills the server and waits until it is gone; its data and ports are kept for `restart`.
    pub fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            // Closing the wrapper's stdin makes it kill slapd and wait for it.
            drop(process.wrapper.stdin.take());
            process.wrapper.wait().expect("the slapd wrapper ends");
        }
    }

    /// Starts the server again on the same ports with the same data, and waits until it answers.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn();
    }

    /// Deletes an entry, as the directory's administrator (a person leaving the company).
    pub fn delete(&self, dn: &str) {
        run(self.as_admin("ldapdelete").arg(dn));
    }

    /// Sets one attribute of an entry to `value`, as the directory's administrator (a person
    /// changing role).
    pub fn replace(&self, dn: &str, attribute: &str, value: &str) {
        self.apply(&format!(
            "dn: {dn}\nchangetype: modify\nreplace: {attribute}\n{attribute}: {value}\n"
        ));
    }

    /// Renames an entry to `new_rdn` under the same parent, the old name's value removed (a
    /// person whose username changed).
    pub fn rename(&self, dn: &str, new_rdn: &str) {
        self.apply(&format!(
            "dn: {dn}\nchangetype: modrdn\nnewrdn: {new_rdn}\ndeleteoldrdn: 1\n"
        ));
    }

    /// Applies LDIF changes (`changetype: ...` records) as the directory's administrator; tests
    /// may call this on the shared server at once.
    pub fn apply(&self, ldif: &str) {
        run_with_input(&mut self.as_admin("ldapmodify"), ldif);
    }

    /// An OpenLDAP client command bound as the directory's administrator.
    pub(super) fn as_admin(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .args(["-x", "-H", &self.url(), "-D", &format!("cn=admin,{BASE}")])
            .args(["-w", "admin-pw"])
            .env("LDAPNOINIT", "1");
        command
    }

    fn signal(&self, signal: &str) {
        let pid = self.process.as_ref().expect("slapd is running").pid;
        run(Command::new("kill").arg(signal).arg(pid.to_string()));
    }

    fn spawn(&mut self) {
        let dir = self.dir.path();
        let urls = format!("{} {}", self.url(), self.ldaps_url());
        // A process group of its own: the test binary's group may be orphaned (no job control
        // in CI), and the kernel sends SIGCONT to every stopped member of an orphaned group
        // whenever one of its processes exits, which would wake a suspended server at random.
        let mut wrapper = Command::new("sh")
            .process_group(0)
            .arg("-c")
            .arg(WRAPPER)
            .arg("slapd-wrapper")
            .arg("slapd")
            .arg("-f")
            .arg(dir.join("slapd.conf"))
            .arg("-h")
            .arg(&urls)
            .arg("-d")
            .arg("0")
            .env("SLAPD_LOG", dir.join("slapd.log"))
            .env(
                "SLAPD_CLEANUP",
                if self.cleanup_on_exit {
                    dir.as_os_str()
                } else {
                    OsStr::new("")
                },
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh runs slapd");
        let mut line = String::new();
        BufReader::new(wrapper.stdout.take().expect("wrapper stdout"))
            .read_line(&mut line)
            .expect("the wrapper prints slapd's pid");
        let pid = line.trim().parse().expect("a pid");
        self.process = Some(Process { wrapper, pid });
        self.wait_until_ready();
    }

    /// Polls with a real bind as the service account until it succeeds or the limit passes.
    fn wait_until_ready(&self) {
        let deadline = Instant::now() + READY_LIMIT;
        wait_for_port(self.port, READY_LIMIT);
        loop {
            let bound = Command::new("ldapwhoami")
                .args(["-x", "-o", "nettimeout=1", "-H", &self.url()])
                .args(["-D", SERVICE_DN, "-w", SERVICE_PASSWORD])
                .env("LDAPNOINIT", "1")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("ldapwhoami runs");
            if bound.success() {
                wait_for_port(self.ldaps_port, READY_LIMIT);
                return;
            }
            if Instant::now() > deadline {
                let log =
                    std::fs::read_to_string(self.dir.path().join("slapd.log")).unwrap_or_default();
                panic!("slapd did not accept the service bind within {READY_LIMIT:?}:\n{log}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Whether every thread of process `pid` is stopped (state `T` in `/proc/<pid>/task/*/stat`).
fn all_threads_stopped(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().all(|task| {
        std::fs::read_to_string(task.path().join("stat"))
            .ok()
            .and_then(|stat| {
                // The state follows the command name, which is in parentheses.
                let after = &stat[stat.rfind(')')? + 1..];
                after.split_whitespace().next().map(|state| state == "T")
            })
            .unwrap_or(false)
    })
}

impl Drop for Slapd {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            drop(process.wrapper.stdin.take());
            let _ = process.wrapper.wait();
        }
    }
}

/// slapd.conf: the schemas inetOrgPerson needs, one mdb database, TLS, and ACLs under which
/// only the service account (and each person, for their own entry) reads the people, and
/// passwords are usable for binds but readable by no one; the service account reads password
/// policy entries too. Argon2 password hashes can be checked. The password policy overlay is on,
/// with no default policy: it governs only the entries naming a policy of their own
/// (`pwdPolicySubentry`, see `slapd_admin`), and tells a locked account from a wrong password
/// (`ppolicy_use_lockout`).
fn slapd_conf(dir: &Path) -> String {
    let dir = dir.display();
    format!(
        r#"include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload ppolicy
moduleload argon2
TLSCACertificateFile {dir}/ca.pem
TLSCertificateFile {dir}/server.pem
TLSCertificateKeyFile {dir}/server.key

database mdb
suffix "{BASE}"
rootdn "cn=admin,{BASE}"
rootpw admin-pw
directory {dir}/db
maxsize 16777216
limits dn.exact="{PAGED_READER_DN}" size.soft={PAGED_LIMIT} size.hard={PAGED_LIMIT} size.pr={PAGED_LIMIT} size.prtotal=unlimited

access to dn.base="" by * read
access to attrs=userPassword
  by self write
  by anonymous auth
  by * none
access to dn.subtree="{PEOPLE}"
  by dn.exact="{SERVICE_DN}" read
  by dn.exact="{PAGED_READER_DN}" read
  by self read
  by * none
access to dn.subtree="ou=groups,{BASE}"
  by dn.exact="{SERVICE_DN}" read
  by dn.exact="{PAGED_READER_DN}" read
  by * none
access to filter="(objectClass=pwdPolicy)"
  by dn.exact="{SERVICE_DN}" read
  by * none
access to * by * none

overlay ppolicy
ppolicy_use_lockout
"#
    )
}

/// A test CA (`ca.pem`), a server certificate it signs for `san` (`server.pem`, key
/// `server.key`), and an unrelated CA (`foreign-ca.pem`).
pub(super) fn make_certificates(dir: &Path, san: &str) {
    let ca = |name: &str, subject: &str| {
        run(Command::new("openssl")
            .current_dir(dir)
            .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
            .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
            .args([
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.pem"),
            ])
            .args(["-subj", subject])
            .args(["-addext", "basicConstraints=critical,CA:TRUE"])
            .args(["-addext", "keyUsage=critical,keyCertSign,cRLSign"]));
    };
    ca("ca", "/CN=sso-bridge test CA");
    ca("foreign-ca", "/CN=some other CA");
    run(Command::new("openssl")
        .current_dir(dir)
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
        .args(["-keyout", "server.key", "-out", "server.pem"])
        .args([
            "-subj",
            "/CN=localhost",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
        ])
        .args(["-addext", &format!("subjectAltName={san}")])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .args(["-addext", "keyUsage=critical,digitalSignature"])
        .args(["-addext", "extendedKeyUsage=serverAuth"]));
}

/// Runs a command to completion; panics with its output when it fails.
/// Runs `command` with `input` on its standard input; panics with its output if it fails.
pub(super) fn run_with_input(command: &mut Command, input: &str) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    child
        .stdin
        .take()
        .expect("its standard input")
        .write_all(input.as_bytes())
        .expect("the input is sent");
    let output = child.wait_with_output().expect("the command ends");
    assert!(
        output.status.success(),
        "{command:?} failed: {}\n{input}",
        String::from_utf8_lossy(&output.stderr)
    );
}

pub(super) fn run(command: &mut Command) {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
