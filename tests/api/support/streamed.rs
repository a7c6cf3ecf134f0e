//! Sends a request whose body is streamed from one small buffer, never held whole by the test:
//! what a client sending hundreds of megabytes looks like to the service.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How the body's length is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Content-Length: <total>` up front.
    Declared,
    /// `Transfer-Encoding: chunked`, no length anywhere.
    Chunked,
}

/// The status and body of a streamed request's answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

/// POSTs `total` bytes of `x` to `path` of the service at `addr` (`127.0.0.1:port`), stopping
/// as soon as the service answers.
pub async fn post(
    addr: &str,
    path: &str,
    content_type: &str,
    total: usize,
    framing: Framing,
) -> Answer {
    send(addr, path, content_type, Body::Repeat(total), framing).await
}

/// POSTs `body` to `path`, in 64 KiB pieces.
pub async fn post_body(
    addr: &str,
    path: &str,
    content_type: &str,
    body: &str,
    framing: Framing,
) -> Answer {
    let body = Body::Given(body.as_bytes().to_vec());
    send(addr, path, content_type, body, framing).await
}

/// What is sent.
enum Body {
    /// This many `x`, from one reused buffer.
    Repeat(usize),
    /// These bytes.
    Given(Vec<u8>),
}

impl Body {
    fn len(&self) -> usize {
        match self {
            Body::Repeat(total) => *total,
            Body::Given(bytes) => bytes.len(),
        }
    }
}

async fn send(addr: &str, path: &str, content_type: &str, body: Body, framing: Framing) -> Answer {
    let stream = TcpStream::connect(addr).await.expect("connects");
    let (mut read, mut write) = stream.into_split();
    let total = body.len();
    let length = match framing {
        Framing::Declared => format!("content-length: {total}\r\n"),
        Framing::Chunked => "transfer-encoding: chunked\r\n".to_owned(),
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: {content_type}\r\n{length}\r\n"
    );
    let writer = tokio::spawn(async move {
        write.write_all(head.as_bytes()).await?;
        let filler = vec![b'x'; PIECE];
        let mut sent = 0;
        while sent < total {
            let n = PIECE.min(total - sent);
            let piece = match &body {
                Body::Repeat(_) => &filler[..n],
                Body::Given(bytes) => &bytes[sent..sent + n],
            };
            if framing == Framing::Chunked {
                write.write_all(format!("{n:x}\r\n").as_bytes()).await?;
            }
            write.write_all(piece).await?;
            if framing == Framing::Chunked {
                write.write_all(b"\r\n").await?;
            }
            sent += n;
        }
        if framing == Framing::Chunked {
            write.write_all(b"0\r\n\r\n").await?;
        }
        // Keep the write half open: closing it could end the connection before the answer.
        std::future::pending::<()>().await;
        Ok::<_, std::io::Error>(())
    });
    let answer = read_answer(&mut read).await;
    // The service stopped reading; whatever the writer still had to send is not wanted.
    writer.abort();
    answer
}

/// Bytes written at a time.
const PIECE: usize = 64 * 1024;

/// Reads one HTTP/1.1 response (the service closes the connection after a refusal, or sends
/// a `content-length`).
async fn read_answer(read: &mut tokio::net::tcp::OwnedReadHalf) -> Answer {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = read.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if complete(&raw) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {head:?}"));
    let header = |name: &str| {
        head.lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
            })
            .unwrap_or_default()
    };
    Answer {
        status,
        content_type: header("content-type"),
        body: body.to_owned(),
    }
}

/// Whether `raw` holds a whole response with a `content-length`.
fn complete(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())
                .flatten()
        })
        .is_some_and(|len| body.len() >= len)
}
