//! How large a request body may be, and the middleware that refuses a larger one with 413
//! before it is read whole.
//!
//! A declared `Content-Length` over the limit is refused at once, without reading a byte. A body
//! without one (chunked) is read through a counter that fails the read as soon as the limit is
//! passed; whatever the handler then answered, the client gets the 413. Either way the service
//! holds at most the limit of any body in memory, and the connection is closed after the answer
//! so the rest of the body is never read.

use super::oauth_error::ErrorBody;
use super::respond::html;
use poem::http::{header, StatusCode};
use poem::web::headers::{ContentLength, HeaderMapExt};
use poem::{Body, Endpoint, IntoResponse, Middleware, Request, Response};
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// Largest body of the sign-in flow's pages and of the OAuth endpoints (form-encoded): the
/// largest authorize request, sent by POST.
pub const FORM_MAX: usize = crate::domain::bounds::AUTHORIZE_REQUEST;

/// Largest body of the admin API (JSON) and the admin screen's forms: an app with both of its
/// URI lists full.
pub const ADMIN_MAX: usize = 128 * 1024;

/// How a refusal is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// An OAuth error body, `{"error": "invalid_request", "error_description": ...}`.
    Json,
    /// A short HTML page.
    Page,
}

/// The limit of one request, and how a body over it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Most bytes accepted.
    pub max: usize,
    /// How a larger body is refused.
    pub answer: Answer,
}

/// Middleware refusing bodies larger than the [`Limit`] that `choose` picks for the request.
pub struct BodyLimit<F> {
    choose: Arc<F>,
}

impl<F> BodyLimit<F>
where
    F: Fn(&Request) -> Limit + Send + Sync + 'static,
{
    /// Limits every request by `choose(request)`.
    pub fn new(choose: F) -> Self {
        Self {
            choose: Arc::new(choose),
        }
    }
}

impl<E: Endpoint, F> Middleware<E> for BodyLimit<F>
where
    F: Fn(&Request) -> Limit + Send + Sync + 'static,
{
    type Output = BodyLimitEndpoint<E, F>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimitEndpoint {
            inner,
            choose: Arc::clone(&self.choose),
        }
    }
}

/// An endpoint wrapped by [`BodyLimit`].
pub struct BodyLimitEndpoint<E, F> {
    inner: E,
    choose: Arc<F>,
}

impl<E: Endpoint, F> Endpoint for BodyLimitEndpoint<E, F>
where
    F: Fn(&Request) -> Limit + Send + Sync + 'static,
{
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let limit = (self.choose)(&req);
        let declared = req.headers().typed_get::<ContentLength>().map(|l| l.0);
        if declared.is_some_and(|len| len > limit.max as u64) {
            return Ok(refusal(limit));
        }
        // A declared length is enforced by the HTTP server itself; only an undeclared one
        // needs counting.
        let over = Arc::new(AtomicBool::new(false));
        if declared.is_none() {
            let counted = Counted {
                inner: req.take_body().into_async_read(),
                left: limit.max,
                over: Arc::clone(&over),
            };
            req.set_body(Body::from_async_read(counted));
        }
        let answer = self.inner.call(req).await;
        if over.load(Ordering::Relaxed) {
            return Ok(refusal(limit));
        }
        answer.map(IntoResponse::into_response)
    }
}

/// A body reader that fails once more than `left` bytes have come, and says so in `over`.
struct Counted<R> {
    inner: R,
    left: usize,
    over: Arc<AtomicBool>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Counted<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        let read = buf.filled().len() - before;
        match self.left.checked_sub(read) {
            Some(left) => {
                self.left = left;
                Poll::Ready(Ok(()))
            }
            None => {
                self.over.store(true, Ordering::Relaxed);
                Poll::Ready(Err(io::Error::other("request body too large")))
            }
        }
    }
}

/// The 413 answer. `Connection: close` tells the server not to read the rest of the body to
/// keep the connection, and the client why it stops.
fn refusal(limit: Limit) -> Response {
    let description = format!("the request body is larger than {} bytes", limit.max);
    let mut response = match limit.answer {
        Answer::Json => {
            let body = ErrorBody::new("invalid_request", description);
            Response::builder()
                .status(StatusCode::PAYLOAD_TOO_LARGE)
                .content_type("application/json")
                .header(header::CACHE_CONTROL, "no-store")
                .body(serde_json::to_string(&body).unwrap_or_default())
        }
        Answer::Page => html(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "<!doctype html><title>Request too large</title><p>The form sent is too large: {description}. Go back and try again.</p>"
            ),
        ),
    };
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

#[cfg(test)]
mod tests {
    // A failed expectation in a test should stop that test loudly.
    #![allow(clippy::expect_used)]

    use super::*;
    use poem::{handler, EndpointExt};

    #[handler]
    async fn echo(body: Body) -> poem::Result<String> {
        Ok(body.into_string().await?)
    }

    async fn post(answer: Answer, body: Body, length: Option<usize>) -> Response {
        let endpoint = echo.with(BodyLimit::new(move |_: &Request| Limit { max: 8, answer }));
        let mut req = Request::builder().method(poem::http::Method::POST);
        if let Some(length) = length {
            req = req.header(header::CONTENT_LENGTH, length);
        }
        endpoint
            .call(req.body(body))
            .await
            .expect("the middleware answers")
    }

    /// `text` as a chunked body: no declared length, three bytes at a time.
    fn chunked(text: &'static str) -> Body {
        let chunks = text
            .as_bytes()
            .chunks(3)
            .map(|c| Ok::<_, io::Error>(c.to_vec()));
        Body::from_bytes_stream(futures::stream::iter(chunks))
    }

    async fn text(response: Response) -> String {
        response
            .into_body()
            .into_string()
            .await
            .expect("a text body")
    }

    #[tokio::test]
    async fn a_declared_length_over_the_limit_is_refused_with_an_oauth_error() {
        let response = post(Answer::Json, Body::from_string("123456789".into()), Some(9)).await;
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(response.headers()[header::CONNECTION], "close");
        let body: serde_json::Value =
            serde_json::from_str(&text(response).await).expect("a JSON body");
        assert_eq!(body["error"], "invalid_request");
        assert_eq!(
            body["error_description"],
            "the request body is larger than 8 bytes"
        );
    }

    #[tokio::test]
    async fn a_chunked_body_is_cut_off_at_the_limit_and_answered_with_a_page() {
        let response = post(Answer::Page, chunked("123456789"), None).await;
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(response.headers()["x-frame-options"], "DENY");
        assert!(text(response).await.contains("larger than 8 bytes"));
    }

    #[tokio::test]
    async fn bodies_within_the_limit_pass_whole() {
        let declared = post(Answer::Json, Body::from_string("12345678".into()), Some(8)).await;
        assert_eq!(text(declared).await, "12345678");
        let streamed = post(Answer::Json, chunked("1234567"), None).await;
        assert_eq!(text(streamed).await, "1234567");
    }
}
