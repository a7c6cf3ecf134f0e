//! A private Samba Active Directory domain controller, provisioned once per test run from
//! Debian's packages, serving LDAPS on a loopback address of its own.
//!
//! `samba-tool domain provision` writes the domain into a temporary directory (a few seconds);
//! `samba` then serves only LDAP, in one process, with a certificate from a test CA that names
//! its address (the one Samba generates names only its host, which rustls refuses for an IP).
//! AD has no setting for its LDAP ports, so each run takes an address 127.x.y.z whose 389 and
//! 636 are free; binding them needs root, as on CI. Like slapd, it runs under a wrapper that
//! kills it when the test process exits, so the shared instance leaves nothing behind. Where it
//! cannot run (no root, Samba not installed), the tests that need it skip, saying so
//! (`super::prerequisites`).
//!
//! Tests add the people and groups they need over LDAPS as Administrator, each under names of
//! its own (see [`Samba::unique`]), so they stay independent while sharing one domain.

use super::prerequisites::{installed, root, skip};
use super::slapd::{make_certificates, run, run_with_input, WRAPPER};
use base64::Engine;
use secrecy::SecretString;
use sso_bridge::config::{DirectoryBackend, DirectoryFlavor, DirectorySettings, ServiceAccount};
use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The DNS name of the test domain, which is also the UPN suffix of its people.
pub const REALM: &str = "corp.example";
/// Its NetBIOS name, as in `CORP\jdoe`.
pub const NETBIOS: &str = "CORP";
/// The domain's naming context.
pub const BASE: &str = "DC=corp,DC=example";
/// Where the tests' people are.
pub const STAFF: &str = "OU=Staff,DC=corp,DC=example";
/// Where the tests' groups are.
pub const GROUPS: &str = "OU=Groups,DC=corp,DC=example";
/// The service account: an ordinary domain user, so it reads what any user reads and no more.
pub const SERVICE_DN: &str = "CN=sso-bridge,OU=Services,DC=corp,DC=example";
/// Its password (AD's complexity rules apply to every password here).
pub const SERVICE_PASSWORD: &str = "Service-Passw0rd!";
/// The password of every person the tests add (AD refuses one containing the account name).
pub const USER_PASSWORD: &str = "Corp-Passw0rd-9";
/// The domain administrator's password.
const ADMIN_PASSWORD: &str = "Admin-Passw0rd!";
/// The domain's lockout threshold: wrong passwords before AD locks an account.
pub const LOCKOUT_THRESHOLD: u32 = 5;

/// How long start-up may take (the provisioning alone takes a few seconds).
const READY_LIMIT: Duration = Duration::from_secs(60);

/// A running domain controller; killed when the test process ends.
pub struct Samba {
    dir: TempDir,
    address: Ipv4Addr,
    _process: Child,
}

/// A person added to the domain.
#[derive(Debug, Clone)]
pub struct AdUser {
    /// Their DN.
    pub dn: String,
    /// Their sAMAccountName, the name they sign in with.
    pub sam: String,
    /// Their password.
    pub password: String,
}

impl Samba {
    /// The domain controller of this test run, provisioned and started on first use; `None`
    /// where this machine cannot run one ([`missing`]), once the test has said that it is
    /// skipped (under `SSO_BRIDGE_TEST_EVERYTHING=1`, it fails instead).
    pub fn shared() -> Option<&'static Samba> {
        static SHARED: OnceLock<Result<Samba, String>> = OnceLock::new();
        let samba = SHARED.get_or_init(|| match missing() {
            Some(why) => Err(why),
            None => Ok(Self::launch()),
        });
        match samba {
            Ok(samba) => Some(samba),
            Err(why) => {
                skip(why);
                None
            }
        }
    }

    fn launch() -> Samba {
        let dir = tempfile::Builder::new()
            .prefix("sso-bridge-samba-")
            .tempdir()
            .expect("a temporary directory for samba");
        let address = free_address();
        provision(dir.path());
        make_certificates(dir.path(), &format!("IP:{address}"));
        std::fs::write(dir.path().join("smb.conf"), smb_conf(dir.path(), address))
            .expect("smb.conf written");
        for sub in ["cache", "lock", "pid", "ncalrpc"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("a samba directory");
        }
        let mut process = Command::new("sh")
            .process_group(0)
            .arg("-c")
            .arg(WRAPPER)
            .arg("samba-wrapper")
            .args(["samba", "-F", "-M", "single", "--no-process-group", "-s"])
            .arg(dir.path().join("smb.conf"))
            .env("SLAPD_LOG", dir.path().join("samba.log"))
            .env("SLAPD_CLEANUP", dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh runs samba");
        let mut pid = String::new();
        BufReader::new(process.stdout.take().expect("wrapper stdout"))
            .read_line(&mut pid)
            .expect("the wrapper prints samba's pid");
        let samba = Samba {
            dir,
            address,
            _process: process,
        };
        samba.wait_until_ready();
        samba.prepare();
        samba
    }

    /// `ldaps://<address>/`.
    pub fn url(&self) -> String {
        format!("ldaps://{}/", self.address)
    }

    /// The directory the domain lives in (its databases under `private/`).
    pub(super) fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// PEM of the CA that signed the controller's certificate.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// Settings of an LDAP directory on this controller: LDAPS with the test CA, the service
    /// account, people under [`STAFF`], short timeouts, and the generic filters (a test sets
    /// the flavor it is about).
    pub fn settings(&self) -> DirectorySettings {
        DirectorySettings {
            backend: DirectoryBackend::Ldap,
            flavor: DirectoryFlavor::Generic,
            ldif_path: None,
            url: vec![self.url().parse().expect("an ldaps:// URL")],
            service_account: Some(ServiceAccount {
                dn: SERVICE_DN.into(),
                password: SecretString::from(SERVICE_PASSWORD),
            }),
            user_base: STAFF.into(),
            user_filter: "(&(objectClass=user)(sAMAccountName={username}))".into(),
            lookup_filter: "(&(objectClass=user)(sAMAccountName={sub}))".into(),
            starttls: false,
            ca_file: Some(self.ca_file()),
            connect_timeout: Duration::from_millis(2000),
            operation_timeout: Duration::from_millis(3000),
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

    /// The settings an operator would give for this controller, as environment variables.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SSO_BRIDGE__DIRECTORY__BACKEND", "ldap".into()),
            ("SSO_BRIDGE__DIRECTORY__URL", self.url()),
            (
                "SSO_BRIDGE__DIRECTORY__CA_FILE",
                self.ca_file().display().to_string(),
            ),
            ("SSO_BRIDGE__DIRECTORY__BIND_DN", SERVICE_DN.into()),
            (
                "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD",
                SERVICE_PASSWORD.into(),
            ),
            ("SSO_BRIDGE__DIRECTORY__USER_BASE", STAFF.into()),
            ("SSO_BRIDGE__DIRECTORY__CONNECT_TIMEOUT_MS", "2000".into()),
            ("SSO_BRIDGE__DIRECTORY__OPERATION_TIMEOUT_MS", "3000".into()),
        ]
    }

    /// `prefix` followed by a number no other call of this run gets: a name no other test
    /// uses. Keep `prefix` short: a sAMAccountName has at most 20 characters.
    pub fn unique(prefix: &str) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        format!("{prefix}{}", NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Adds an enabled person named `sam` (UPN `sam@corp.example`) under [`STAFF`], with
    /// `attributes` besides.
    pub fn add_user(&self, sam: &str, attributes: &[(&str, &str)]) -> AdUser {
        let dn = format!("CN={sam},{STAFF}");
        let password = USER_PASSWORD.to_owned();
        let mut ldif = format!(
            "dn: {dn}\nchangetype: add\nobjectClass: user\nsAMAccountName: {sam}\n\
             userPrincipalName: {sam}@{REALM}\nunicodePwd:: {}\nuserAccountControl: 512\n",
            unicode_pwd(&password)
        );
        for (name, value) in attributes {
            ldif.push_str(&format!("{name}: {value}\n"));
        }
        self.modify(&ldif);
        AdUser {
            dn,
            sam: sam.to_owned(),
            password,
        }
    }

    /// Adds a security group named `name` under [`GROUPS`] with `members` (DNs of people or
    /// groups); answers its DN.
    pub fn add_group(&self, name: &str, members: &[&str]) -> String {
        let dn = format!("CN={name},{GROUPS}");
        let mut ldif =
            format!("dn: {dn}\nchangetype: add\nobjectClass: group\nsAMAccountName: {name}\n");
        for member in members {
            ldif.push_str(&format!("member: {member}\n"));
        }
        self.modify(&ldif);
        dn
    }

    /// Adds `members` (DNs) to the group `group`.
    pub fn add_members(&self, group: &str, members: &[&str]) {
        let mut ldif = format!("dn: {group}\nchangetype: modify\nadd: member\n");
        for member in members {
            ldif.push_str(&format!("member: {member}\n"));
        }
        ldif.push_str("-\n");
        self.modify(&ldif);
    }

    /// Renames a person: new CN, sAMAccountName and UPN (someone whose name changed).
    pub fn rename(&self, user: &AdUser, new_sam: &str) -> AdUser {
        let dn = format!("CN={new_sam},{STAFF}");
        self.modify(&format!(
            "dn: {}\nchangetype: modrdn\nnewrdn: CN={new_sam}\ndeleteoldrdn: 1\n\n\
             dn: {dn}\nchangetype: modify\nreplace: sAMAccountName\nsAMAccountName: {new_sam}\n-\n\
             replace: userPrincipalName\nuserPrincipalName: {new_sam}@{REALM}\n-\n",
            user.dn
        ));
        AdUser {
            dn,
            sam: new_sam.to_owned(),
            password: user.password.clone(),
        }
    }

    /// The objectGUID of the entry `dn` as Samba's own tools write it, read from the domain's
    /// database with `ldbsearch` rather than over LDAP.
    pub fn object_guid(&self, dn: &str) -> String {
        let output = Command::new("ldbsearch")
            .arg("-H")
            .arg(self.dir.path().join("private/sam.ldb"))
            .args(["-s", "base", "-b", dn, "objectGUID"])
            .output()
            .expect("ldbsearch runs");
        assert!(output.status.success(), "ldbsearch of {dn} failed");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .find_map(|line| line.strip_prefix("objectGUID: "))
            .expect("the entry has an objectGUID")
            .to_owned()
    }

    /// Applies LDIF changes as the domain administrator.
    pub fn modify(&self, ldif: &str) {
        run_with_input(&mut self.ldap("ldapmodify"), ldif);
    }

    /// An OpenLDAP client command bound as the domain administrator over LDAPS.
    pub(super) fn ldap(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .args(["-x", "-o", "nettimeout=5", "-H", &self.url()])
            .args([
                "-D",
                &format!("Administrator@{REALM}"),
                "-w",
                ADMIN_PASSWORD,
            ])
            // Not LDAPNOINIT, which would make the clients ignore these two as well.
            .env("LDAPTLS_CACERT", self.ca_file())
            .env("LDAPTLS_REQCERT", "demand");
        command
    }

    /// The containers the tests use, the service account, and the lockout policy.
    fn prepare(&self) {
        let mut ldif = String::new();
        for ou in ["Staff", "Groups", "Services"] {
            ldif.push_str(&format!(
                "dn: OU={ou},{BASE}\nchangetype: add\nobjectClass: organizationalUnit\n\n"
            ));
        }
        ldif.push_str(&format!(
            "dn: {SERVICE_DN}\nchangetype: add\nobjectClass: user\nsAMAccountName: sso-bridge\n\
             unicodePwd:: {}\nuserAccountControl: 66048\n\n",
            unicode_pwd(SERVICE_PASSWORD)
        ));
        // Threshold 5, counted over 30 minutes: the common setting the lockout guard is for.
        ldif.push_str(&format!(
            "dn: {BASE}\nchangetype: modify\nreplace: lockoutThreshold\nlockoutThreshold: \
             {LOCKOUT_THRESHOLD}\n-\nreplace: lockOutObservationWindow\n\
             lockOutObservationWindow: -18000000000\n-\nreplace: lockoutDuration\n\
             lockoutDuration: -18000000000\n-\n"
        ));
        self.modify(&ldif);
    }

    /// Waits for LDAPS, then for a bind as Administrator (the database opens after the port).
    fn wait_until_ready(&self) {
        let deadline = Instant::now() + READY_LIMIT;
        let addr = SocketAddr::from((self.address, 636));
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            self.give_up_after(deadline);
            std::thread::sleep(Duration::from_millis(25));
        }
        loop {
            // Samba has no "Who am I?" operation: a search of the root entry proves the bind.
            let bound = self
                .ldap("ldapsearch")
                .args(["-s", "base", "-b", "", "(objectClass=*)", "1.1"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("ldapwhoami runs");
            if bound.success() {
                return;
            }
            self.give_up_after(deadline);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn give_up_after(&self, deadline: Instant) {
        if Instant::now() > deadline {
            let log =
                std::fs::read_to_string(self.dir.path().join("samba.log")).unwrap_or_default();
            panic!(
                "samba did not answer on {} within {READY_LIMIT:?}:\n{log}",
                self.url()
            );
        }
    }
}

/// Why this machine cannot run the domain controller, if it cannot: binding the LDAP ports of
/// its address needs root, and the programs of Samba's packages must be there (`scripts/test`
/// installs them).
fn missing() -> Option<String> {
    if !root() {
        return Some(
            "the Samba domain controller needs root, to serve LDAP on ports 389 and 636 of its \
             address; scripts/test runs it as root"
                .into(),
        );
    }
    let absent: Vec<&str> = ["samba", "samba-tool", "ldbsearch", "ldapmodify"]
        .into_iter()
        .filter(|program| !installed(program))
        .collect();
    if absent.is_empty() {
        return None;
    }
    Some(format!(
        "the Samba domain controller needs {}, not installed here; scripts/test installs it",
        absent.join(", ")
    ))
}

/// An address 127.x.y.z whose LDAP ports are free, picked at random so that test runs of
/// several checkouts on one machine do not meet.
fn free_address() -> Ipv4Addr {
    for _ in 0..64 {
        let [x, y, z, _] = rand::random::<[u8; 4]>();
        let address = Ipv4Addr::new(127, x.max(1), y, z.max(1));
        let free = [389, 636, 3268, 3269]
            .iter()
            .all(|port| TcpListener::bind((address, *port)).is_ok());
        if free {
            return address;
        }
    }
    panic!("no loopback address with ports 389 and 636 free (binding them needs root)");
}

/// Provisions the domain CORP (corp.example) into `dir`, without DNS.
fn provision(dir: &Path) {
    run(Command::new("samba-tool")
        .args(["domain", "provision", "--quiet", "--server-role=dc"])
        .args(["--dns-backend=NONE", "--host-name=dc1", "--domain", NETBIOS])
        .arg(format!("--realm={}", REALM.to_ascii_uppercase()))
        .arg(format!("--adminpass={ADMIN_PASSWORD}"))
        .arg(format!("--targetdir={}", dir.display())));
}

/// smb.conf of a controller serving only LDAP on `address`, with every directory Samba
/// writes inside `dir`.
fn smb_conf(dir: &Path, address: Ipv4Addr) -> String {
    let dir = dir.display();
    format!(
        "[global]
netbios name = DC1
realm = {realm}
workgroup = {NETBIOS}
server role = active directory domain controller
server services = ldap
interfaces = {address}/8
bind interfaces only = yes
private dir = {dir}/private
state directory = {dir}/state
cache directory = {dir}/cache
lock directory = {dir}/lock
pid directory = {dir}/pid
ncalrpc dir = {dir}/ncalrpc
binddns dir = {dir}/bind-dns
log file = {dir}/samba.log
tls enabled = yes
tls keyfile = {dir}/server.key
tls certfile = {dir}/server.pem
tls cafile = {dir}/ca.pem
",
        realm = REALM.to_ascii_uppercase()
    )
}

/// The value of `unicodePwd` for `password`: the quoted password in UTF-16LE, base64.
fn unicode_pwd(password: &str) -> String {
    let quoted: Vec<u8> = format!("\"{password}\"")
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    base64::engine::general_purpose::STANDARD.encode(quoted)
}
