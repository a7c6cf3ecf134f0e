//! The compose stack: `docker compose config` accepts it (when docker compose is installed), it
//! seeds its directory with the demo directory and keeps Redis in an append-only file, its
//! directory, seeded by its own script into Debian's slapd (the package its image runs), signs
//! in everyone in the README's table through sso-bridge with the stack's own settings, and the
//! image's build stage has every file cargo needs.

use crate::support::ports::free_port;
use crate::support::prerequisites::skip_optional;
use crate::support::redis::RedisServer;
use base64::Engine;
use secrecy::SecretString;
use sso_bridge::config::Settings;
use sso_bridge::startup::Application;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yaml_rust2::{Yaml, YamlLoader};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn compose() -> Yaml {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docker-compose.yml")).unwrap();
    YamlLoader::load_from_str(&text)
        .unwrap()
        .into_iter()
        .next()
        .unwrap()
}

fn strings(list: &Yaml) -> Vec<&str> {
    list.as_vec()
        .unwrap_or_else(|| panic!("not a list: {list:?}"))
        .iter()
        .map(|item| item.as_str().unwrap())
        .collect()
}

/// The environment of the sso-bridge service.
fn environment(compose: &Yaml) -> Vec<(String, String)> {
    let env = compose["services"]["sso-bridge"]["environment"]
        .as_hash()
        .unwrap();
    env.iter()
        .map(|(k, v)| {
            (
                k.as_str().unwrap().to_owned(),
                v.as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn docker_compose_accepts_the_file() {
    let version = Command::new("docker").args(["compose", "version"]).output();
    match version {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            let why = String::from_utf8_lossy(&out.stderr);
            skip_optional(&format!(
                "`docker compose` is not available: {}",
                why.trim()
            ));
            return;
        }
        Err(e) => {
            skip_optional(&format!("docker is not installed ({e})"));
            return;
        }
    }
    let out = Command::new("docker")
        .args([
            "compose",
            "--file",
            "docker-compose.yml",
            "config",
            "--quiet",
        ])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_stack_seeds_the_demo_directory_and_keeps_redis_in_an_append_only_file() {
    let compose = compose();
    let services = &compose["services"];

    let redis = strings(&services["redis"]["command"]);
    assert!(
        redis.windows(2).any(|w| w == ["--appendonly", "yes"]),
        "{redis:?}"
    );

    let seed = strings(&services["openldap"]["volumes"])
        .into_iter()
        .find_map(|volume| {
            let mut parts = volume.split(':');
            let (source, target) = (parts.next()?, parts.next()?);
            (target == "/seed/demo-directory.ldif").then_some(source)
        })
        .expect("the directory mounts its seed at /seed/demo-directory.ldif");
    let mounted = std::fs::read_to_string(Path::new(ROOT).join(seed)).unwrap();
    assert_eq!(mounted, sso_bridge::directory::ldif::DEMO_LDIF);
}

/// slapd on a loopback port with the stack's configuration and data; killed when dropped.
struct StackDirectory {
    slapd: Child,
    port: u16,
}

impl Drop for StackDirectory {
    fn drop(&mut self) {
        let _ = self.slapd.kill();
        let _ = self.slapd.wait();
    }
}

/// Seeds a database in `dir` with the stack's script and files, and serves it.
fn stack_directory(dir: &Path, password_file: &Path) -> StackDirectory {
    let deploy = Path::new(ROOT).join("deploy/openldap");
    let data = dir.join("ldap");
    let conf = std::fs::read_to_string(deploy.join("slapd.conf")).unwrap();
    let moved = conf.replace(
        "directory /var/lib/ldap",
        &format!("directory {}", data.display()),
    );
    assert_ne!(moved, conf, "slapd.conf keeps its data in /var/lib/ldap");
    std::fs::write(dir.join("slapd.conf"), moved).unwrap();
    let seeded = Command::new("sh")
        .arg(deploy.join("seed.sh"))
        .env("SLAPD_CONF", dir.join("slapd.conf"))
        .env("LDAP_DATA", &data)
        .env("LDAP_BASE_LDIF", deploy.join("base.ldif"))
        .env(
            "LDAP_SEED",
            Path::new(ROOT).join("config/demo-directory.ldif"),
        )
        .env("LDAP_BIND_PASSWORD_FILE", password_file)
        .output()
        .unwrap();
    assert!(
        seeded.status.success(),
        "{}",
        String::from_utf8_lossy(&seeded.stderr)
    );
    // A free port can be taken by another test's server before slapd binds it: slapd then
    // exits, and the next port is tried. Ready means a service bind succeeds, not merely that
    // something accepts connections on the port.
    let bind_password = std::fs::read_to_string(password_file).unwrap();
    for _ in 0..5 {
        let port = free_port();
        let mut slapd = Command::new("slapd")
            .arg("-d")
            .arg("0")
            .arg("-f")
            .arg(dir.join("slapd.conf"))
            .arg("-h")
            .arg(format!("ldap://127.0.0.1:{port}/"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while slapd.try_wait().unwrap().is_none() && Instant::now() < deadline {
            let bound = Command::new("ldapwhoami")
                .args(["-x", "-o", "nettimeout=1"])
                .arg("-H")
                .arg(format!("ldap://127.0.0.1:{port}/"))
                .args(["-D", "cn=sso-bridge,ou=services,dc=example,dc=com", "-w"])
                .arg(&bind_password)
                .env("LDAPNOINIT", "1")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            if bound.success() {
                return StackDirectory { slapd, port };
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = slapd.kill();
        let _ = slapd.wait();
    }
    panic!("the stack's slapd did not accept its service bind on any of five ports");
}

/// A secret as the stack's `init` service makes one: base64 of 32 random bytes, no newline.
fn generated_secret(path: &Path) -> PathBuf {
    let key: [u8; 32] = rand::random();
    let text = base64::engine::general_purpose::STANDARD.encode(key);
    std::fs::write(path, text).unwrap();
    path.to_owned()
}

/// The `| `name` | `password` |` rows of the README's demo directory table.
fn readme_users() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let table = readme
        .split("### Demo directory")
        .nth(1)
        .expect("the README's demo directory section");
    table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let (user, password) = (cells.get(1)?, cells.get(2)?);
            let unquote = |s: &str| s.strip_prefix('`')?.strip_suffix('`').map(str::to_owned);
            Some((unquote(user)?, unquote(password)?))
        })
        .collect()
}

#[tokio::test]
async fn the_stack_directory_signs_in_everyone_in_the_readme_with_the_stack_settings() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets");
    std::fs::create_dir(&secrets).unwrap();
    let ldap_password = generated_secret(&secrets.join("ldap-bind-password"));
    generated_secret(&secrets.join("mfa-key"));
    generated_secret(&secrets.join("key-secret"));
    let ldap = stack_directory(dir.path(), &ldap_password);
    let redis = RedisServer::shared();

    // The stack's settings for sso-bridge, with its host names and secret paths made local.
    let env: Vec<(String, String)> = environment(&compose())
        .into_iter()
        .map(|(key, value)| {
            let value = match key.as_str() {
                "SSO_BRIDGE__STORE__REDIS_URL" => redis.url(),
                "SSO_BRIDGE__DIRECTORY__URL" => format!("ldap://127.0.0.1:{}", ldap.port),
                _ => value.replace("/run/secrets", &secrets.display().to_string()),
            };
            (key, value)
        })
        .chain([
            ("SSO_BRIDGE__SERVER__LISTEN".into(), "127.0.0.1:0".into()),
            (
                "SSO_BRIDGE__STORE__KEY_PREFIX".into(),
                "compose-test:".into(),
            ),
        ])
        .collect();
    let settings = Settings::load_from(None, env).expect("the stack's settings load");
    assert!(settings.mfa.encryption_key.is_some());
    // On Redis, start-up is refused without the generated secrets.
    let app = Application::build(settings)
        .await
        .expect("the stack starts");
    let directory = &app.state().directory;
    directory.check().await.expect("the directory is ready");

    let users = readme_users();
    assert_eq!(users.len(), 9, "{users:?}");
    for (user, password) in &users {
        let found = directory
            .authenticate(user, &SecretString::from(password.clone()))
            .await
            .unwrap_or_else(|e| panic!("{user} / {password}: {e}"));
        assert_eq!(found.dn, format!("uid={user},ou=people,dc=example,dc=com"));
    }
    let wrong = directory
        .authenticate("ada", &SecretString::from("not-ada-demo"))
        .await;
    assert!(wrong.is_err());
}

#[test]
fn the_image_build_copies_every_target_cargo_toml_names_and_the_build_flags() {
    // cargo refuses to build anything, the binary included, when a target it names is missing.
    let dockerfile = std::fs::read_to_string(Path::new(ROOT).join("Dockerfile")).unwrap();
    let build_stage = dockerfile.split("\nFROM ").nth(1).expect("the build stage");
    let copied: Vec<&str> = build_stage
        .lines()
        .filter_map(|l| l.strip_prefix("COPY "))
        .flat_map(|copy| {
            let words: Vec<&str> = copy.split_whitespace().collect();
            words[..words.len() - 1].to_vec()
        })
        .collect();
    // The build flags too: without them the image's server keeps tokio's LIFO slot.
    assert!(copied.contains(&".cargo"), "{copied:?}");
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let targets = manifest_targets(&manifest);
    assert!(targets.contains(&"src/main.rs".to_owned()), "{targets:?}");
    assert!(
        targets.contains(&"benches/hot_paths.rs".to_owned()),
        "{targets:?}"
    );
    for target in &targets {
        assert!(
            copied
                .iter()
                .any(|c| target == *c || target.starts_with(&format!("{c}/"))),
            "the Dockerfile does not copy {target} (it copies {copied:?})"
        );
    }
}

/// The source files of the targets a manifest declares: each `path`, or where cargo looks by
/// default for a test or bench that names none.
fn manifest_targets(manifest: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let value = |line: &str, key: &str| {
        let rest = line.trim().strip_prefix(key)?.trim_start();
        let quoted = rest.strip_prefix('=')?.trim();
        Some(quoted.trim_matches('"').to_owned())
    };
    for table in manifest.split("\n[").skip(1) {
        let (header, body) = table.split_once('\n').unwrap_or((table, ""));
        let default_dir = match header.trim() {
            "[bench]]" => Some("benches"),
            "[test]]" => Some("tests"),
            "lib]" | "[bin]]" => None,
            _ => continue,
        };
        let path = body.lines().find_map(|l| value(l, "path"));
        let name = body.lines().find_map(|l| value(l, "name"));
        match (path, default_dir, name) {
            (Some(path), _, _) => targets.push(path),
            (None, Some(dir), Some(name)) => targets.push(format!("{dir}/{name}.rs")),
            _ => {}
        }
    }
    targets
}
