//! An app's back-channel logout endpoint, as a test plays it: a plain HTTP/1.1 server on a free
//! loopback port that answers each POST as scripted and keeps what it was sent.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// How the receiver answers one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// This status, at once.
    Status(u16),
    /// This status, after a while.
    Slowly(u16, Duration),
    /// Never: the connection is held open without a word.
    Hang,
}

/// A request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    /// The `logout_token` form field.
    pub logout_token: String,
    /// The `Content-Type` header.
    pub content_type: String,
    /// The request line's target (path and query).
    pub target: String,
    /// When it arrived.
    pub at: Instant,
}

/// A running receiver; stops when dropped.
pub struct Receiver {
    pub port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    arrived: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Answers the requests with `answers` in turn, the last one again once they run out.
    pub async fn start(answers: &[Answer]) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        Self::serve(listener, answers)
    }

    /// [`Receiver::start`] on a given port (one found free before).
    pub async fn start_on(port: u16, answers: &[Answer]) -> Receiver {
        let listener = TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        Self::serve(listener, answers)
    }

    fn serve(listener: TcpListener, answers: &[Answer]) -> Receiver {
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let arrived = Arc::new(Notify::new());
        let answers = answers.to_vec();
        let (kept, told) = (Arc::clone(&received), Arc::clone(&arrived));
        let task = tokio::spawn(async move {
            let mut served = 0usize;
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let answer = answers[served.min(answers.len() - 1)];
                served += 1;
                let (kept, told) = (Arc::clone(&kept), Arc::clone(&told));
                tokio::spawn(async move { handle(stream, answer, kept, told).await });
            }
        });
        Receiver {
            port,
            received,
            arrived,
            task,
        }
    }

    /// The URL of its endpoint, `path` on it.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// What it got so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits until it got `n` requests, for `limit` at most; answers what it got.
    pub async fn wait_for(&self, n: usize, limit: Duration) -> Vec<Received> {
        let deadline = Instant::now() + limit;
        loop {
            let notified = self.arrived.notified();
            let got = self.received();
            if got.len() >= n || Instant::now() >= deadline {
                return got;
            }
            let _ = tokio::time::timeout_at(deadline.into(), notified).await;
        }
    }
}

async fn handle(
    mut stream: TcpStream,
    answer: Answer,
    kept: Arc<Mutex<Vec<Received>>>,
    told: Arc<Notify>,
) {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let (head, body_start) = loop {
        let Ok(n) = stream.read(&mut buf).await else {
            return;
        };
        if n == 0 {
            return;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break (String::from_utf8_lossy(&data[..i]).into_owned(), i + 4);
        }
    };
    let header = |name: &str| {
        head.lines()
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_owned())
    };
    let length: usize = header("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    while data.len() < body_start + length {
        let Ok(n) = stream.read(&mut buf).await else {
            return;
        };
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let body = &data[body_start..(body_start + length).min(data.len())];
    let logout_token = url::form_urlencoded::parse(body)
        .find(|(k, _)| k == "logout_token")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let target = head
        .lines()
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or("")
        .to_owned();
    kept.lock().unwrap().push(Received {
        logout_token,
        content_type: header("content-type").unwrap_or_default(),
        target,
        at: Instant::now(),
    });
    told.notify_waiters();
    let status = match answer {
        Answer::Status(status) => status,
        Answer::Slowly(status, after) => {
            tokio::time::sleep(after).await;
            status
        }
        Answer::Hang => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return;
        }
    };
    let body = if status >= 400 {
        "{\"error\":\"invalid_request\"}"
    } else {
        ""
    };
    let response = format!(
        "HTTP/1.1 {status} Answer\r\nContent-Type: application/json\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}
