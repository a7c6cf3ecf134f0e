//! A real relying party: Apache httpd with Debian's mod_auth_openidc protects a path with
//! sso-bridge as its OpenID Connect provider, and its session ends when sso-bridge signs the
//! person out (Back-Channel Logout 1.0). A private `apache2` on a free loopback port, with a
//! configuration of this test's own, stopped by its pid.

use crate::helpers::*;
use crate::support::ports::{free_port, wait_for_port};
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const MODULES: &str = "/usr/lib/apache2/modules";

/// A running `apache2 -DFOREGROUND`; stopped when dropped.
struct Apache {
    port: u16,
    child: Child,
    dir: tempfile::TempDir,
}

impl Drop for Apache {
    fn drop(&mut self) {
        // By its pid: SIGTERM, and then SIGKILL for whatever is left.
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Apache {
    /// Starts Apache on a free port as the relying party `client_id` / `secret` of the provider
    /// at `issuer`; `/protected/` needs an OpenID Connect sign-in.
    fn start(port: u16, issuer: &str, client_id: &str, secret: &str) -> Apache {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("htdocs/protected")).unwrap();
        std::fs::create_dir_all(root.join("run")).unwrap();
        std::fs::write(
            root.join("htdocs/protected/index.html"),
            "<!doctype html><title>Protected</title><p>the protected page</p>\n",
        )
        .unwrap();
        // The worker processes run as www-data: they read the documents.
        for path in [root, &root.join("htdocs"), &root.join("htdocs/protected")] {
            set_mode(path, 0o755);
        }
        set_mode(&root.join("htdocs/protected/index.html"), 0o644);
        let config = format!(
            r#"ServerRoot "{root}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile "{root}/run/httpd.pid"
DefaultRuntimeDir "{root}/run"
ErrorLog "{root}/error.log"
LogLevel warn auth_openidc:debug
User www-data
Group www-data
LoadModule mpm_event_module {MODULES}/mod_mpm_event.so
LoadModule authn_core_module {MODULES}/mod_authn_core.so
LoadModule authz_core_module {MODULES}/mod_authz_core.so
LoadModule authz_user_module {MODULES}/mod_authz_user.so
LoadModule dir_module {MODULES}/mod_dir.so
LoadModule auth_openidc_module {MODULES}/mod_auth_openidc.so
DocumentRoot "{root}/htdocs"
DirectoryIndex index.html

OIDCProviderMetadataURL {issuer}/.well-known/openid-configuration
OIDCClientID {client_id}
OIDCClientSecret {secret}
OIDCRedirectURI http://127.0.0.1:{port}/protected/redirect_uri
OIDCCryptoPassphrase test-passphrase-{port}
OIDCScope "openid profile"
OIDCPKCEMethod S256
OIDCProviderTokenEndpointAuth client_secret_basic
OIDCCacheType shm
OIDCSessionType server-cache
OIDCHTTPTimeoutLong 10
OIDCHTTPTimeoutShort 5

<Location /protected>
    AuthType openid-connect
    Require valid-user
</Location>
"#,
            root = root.display(),
        );
        std::fs::write(root.join("httpd.conf"), config).unwrap();
        let log = std::fs::File::create(root.join("console.log")).unwrap();
        let child = Command::new("apache2")
            .args(["-d", &root.display().to_string()])
            .args(["-f", &root.join("httpd.conf").display().to_string()])
            .arg("-DFOREGROUND")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect(
                "apache2 starts (scripts/test installs apache2 and libapache2-mod-auth-openidc)",
            );
        let apache = Apache { port, child, dir };
        wait_for_port(port, Duration::from_secs(15));
        apache
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Apache's error log, mod_auth_openidc's debug lines included.
    fn log(&self) -> String {
        let read =
            |name: &str| std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default();
        format!("{}{}", read("console.log"), read("error.log"))
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Follows redirects by hand (the client follows none): answers the first answer that is not
/// one.
async fn follow(browser: &Client, mut response: Response) -> Response {
    for _ in 0..10 {
        if !response.status().is_redirection() {
            return response;
        }
        let next = location(&response);
        response = browser.get(&next).send().await.unwrap();
    }
    response
}

#[tokio::test]
async fn apache_mod_auth_openidc_ends_its_session_when_sso_bridge_signs_the_person_out() {
    if !Path::new(&format!("{MODULES}/mod_auth_openidc.so")).exists() {
        panic!("mod_auth_openidc is missing: scripts/test installs apache2 and libapache2-mod-auth-openidc");
    }
    let app = spawn_app(Backends::Embedded).await;
    let port = free_port();
    let redirect_uri = format!("http://127.0.0.1:{port}/protected/redirect_uri");
    let reg = app
        .register_with(
            &redirect_uri,
            serde_json::json!({
                "name": "Apache",
                "public": false,
                "require_pkce": true,
                "backchannel_logout_uri": format!("{redirect_uri}?logout=backchannel"),
            }),
        )
        .await;
    let apache = Apache::start(
        port,
        &app.base,
        &reg.client_id,
        reg.client_secret.as_deref().unwrap(),
    );

    // Sign in through Apache's protected path: Apache sends the browser to sso-bridge, which
    // asks for the password and the consent, and back.
    let browser = app.browser();
    let first = browser.get(apache.url("/protected/")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::FOUND, "{}", apache.log());
    let to_provider = location(&first);
    assert!(
        to_provider.starts_with(&app.url("/oauth/authorize")),
        "{to_provider}"
    );
    let page = browser.get(&to_provider).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let pw = app.password("alan");
    let after = app
        .submit(&browser, &page, &[("username", "alan"), ("password", &pw)])
        .await;
    let consent = browser
        .get(location(&after))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let back = app
        .submit(&browser, &consent, &[("decision", "approve")])
        .await;
    assert!(
        location(&back).starts_with(&redirect_uri),
        "{}",
        location(&back)
    );
    let protected = follow(&browser, back).await;
    assert_eq!(protected.status(), StatusCode::OK, "{}", apache.log());
    assert!(protected
        .text()
        .await
        .unwrap()
        .contains("the protected page"));
    let again = browser.get(apache.url("/protected/")).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::OK, "Apache's session holds");

    // The person signs out at sso-bridge (its end-session page, confirmed).
    let confirm = browser
        .get(app.url("/oauth/logout"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let out = app
        .submit(&browser, &confirm, &[("decision", "logout")])
        .await;
    assert_eq!(out.status(), StatusCode::OK);

    // sso-bridge tells Apache; Apache's session ends: its protected path asks for a new sign-in.
    let deadline = Instant::now() + Duration::from_secs(15);
    let delivered = loop {
        let log: Value = app
            .api
            .get(app.url(&format!(
                "/admin/api/audit?action=backchannel_logout&client_id={}",
                reg.client_id
            )))
            .bearer_auth(app.superadmin_token().await)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let events = log["events"].as_array().unwrap().clone();
        if !events.is_empty() || Instant::now() > deadline {
            break events;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(delivered.len(), 1, "{delivered:#?}\n{}", apache.log());
    assert_eq!(
        delivered[0]["success"],
        true,
        "{delivered:#?}\n{}",
        apache.log()
    );
    let after_logout = browser.get(apache.url("/protected/")).send().await.unwrap();
    assert_eq!(after_logout.status(), StatusCode::FOUND, "{}", apache.log());
    let to_provider = location(&after_logout);
    assert!(
        to_provider.starts_with(&app.url("/oauth/authorize")),
        "{to_provider}"
    );
    let page = browser.get(&to_provider).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.text().await.unwrap().contains("name=\"password\""),
        "sso-bridge asks for the password again"
    );
}
