//! `/openapi.json` and `/docs`: the OpenAPI document, and the document in Swagger UI served
//! from the binary with the security headers of the pages. Swagger UI runs from inline scripts,
//! so its policy allows exactly those (by their SHA-256 digests) and nothing from elsewhere; it
//! may fetch only this service, and no page may frame it.
//!
//! Both are made when first asked for, not as the service starts: the page carries Swagger UI's
//! bundle (over a megabyte, put together by copying it several times), which a node that nobody
//! reads the documentation on would otherwise build and hold for nothing.

use super::openapi;
use crate::web::respond::PAGE_HEADERS;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use poem::http::{header, StatusCode};
use poem::web::Data;
use poem::{handler, Endpoint, EndpointExt, Response};
use sha2::{Digest, Sha256};
use std::sync::{Arc, OnceLock};

/// The documentation of the APIs as served at `issuer`, each part made once, when first asked
/// for.
#[derive(Clone)]
pub struct ApiDocs(Arc<Parts>);

struct Parts {
    issuer: String,
    spec: OnceLock<bytes::Bytes>,
    page: OnceLock<Page>,
}

/// The Swagger UI page and its content security policy.
struct Page {
    html: bytes::Bytes,
    policy: String,
}

impl ApiDocs {
    /// The documentation naming `issuer` as the APIs' server.
    pub fn new(issuer: String) -> Self {
        Self(Arc::new(Parts {
            issuer,
            spec: OnceLock::new(),
            page: OnceLock::new(),
        }))
    }

    /// `/openapi.json`.
    pub fn spec_endpoint(&self) -> impl Endpoint {
        spec.data(self.clone())
    }

    /// `/docs`.
    pub fn page_endpoint(&self) -> impl Endpoint {
        page.data(self.clone())
    }

    fn spec(&self) -> bytes::Bytes {
        let parts = &self.0;
        parts
            .spec
            .get_or_init(|| openapi::service(&parts.issuer).spec().into())
            .clone()
    }

    fn page(&self) -> &Page {
        let parts = &self.0;
        parts.page.get_or_init(|| {
            let html = openapi::service(&parts.issuer).swagger_ui_html();
            Page {
                policy: policy(&html),
                html: html.into(),
            }
        })
    }
}

#[handler]
fn spec(Data(docs): Data<&ApiDocs>) -> Response {
    Response::builder()
        .content_type("application/json")
        .body(docs.spec())
}

#[handler]
fn page(Data(docs): Data<&ApiDocs>) -> Response {
    let page = docs.page();
    let mut builder = Response::builder()
        .status(StatusCode::OK)
        .content_type("text/html; charset=utf-8");
    for (name, value) in PAGE_HEADERS {
        if name != "content-security-policy" {
            builder = builder.header(name, value);
        }
    }
    builder
        .header(header::CONTENT_SECURITY_POLICY, page.policy.as_str())
        .body(page.html.clone())
}

/// The policy of a page whose only scripts are its inline ones: each allowed by its digest.
/// Swagger UI sets styles inline as it renders, so inline styles are allowed; they cannot run
/// code or reach anywhere.
fn policy(html: &str) -> String {
    let scripts: Vec<String> = inline_scripts(html)
        .map(|script| format!("'sha256-{}'", STANDARD.encode(Sha256::digest(script))))
        .collect();
    format!(
        "default-src 'none'; script-src {}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
         form-action 'none'",
        scripts.join(" ")
    )
}

/// The text of each `<script>` element of `html`.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script").skip(1).filter_map(|rest| {
        let body = &rest[rest.find('>')? + 1..];
        Some(&body[..body.find("</script>")?])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_inline_script_is_allowed_by_its_digest_and_nothing_else() {
        let html = "<script charset=\"UTF-8\">one()</script><p>x</p><script>two()</script>";
        let scripts: Vec<&str> = inline_scripts(html).collect();
        assert_eq!(scripts, ["one()", "two()"]);
        let policy = policy(html);
        let digest = STANDARD.encode(Sha256::digest("one()"));
        assert!(policy.contains(&format!("'sha256-{digest}'")), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!policy.contains("unsafe-eval"));
    }
}
