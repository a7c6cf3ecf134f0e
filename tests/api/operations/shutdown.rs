//! The binary as an operator runs it: logs a log shipper can read, and a SIGTERM that lets
//! the requests in flight finish before the process exits 0.

use crate::support::node::Node;
use crate::support::ports::free_port;
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The JSON objects of `log`, one a line; panics at a line that is not one.
fn json_lines(log: &str) -> Vec<Value> {
    log.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
            assert!(value.is_object(), "not a JSON object: {line}");
            value
        })
        .collect()
}

#[tokio::test]
async fn json_logs_are_one_object_a_line_the_audit_log_included() {
    let mut node = Node::embedded(&[("SSO_BRIDGE__LOG__FORMAT", "json".into())]).await;
    let refused = node
        .api
        .post(node.url("/admin/api/session"))
        .json(&json!({"username": "ada", "password": "not-her-password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), reqwest::StatusCode::UNAUTHORIZED);
    node.terminate();
    assert!(node.exited(Duration::from_secs(20)).await.success());

    let events = json_lines(&node.log());
    let audit = events
        .iter()
        .find(|e| e["target"] == "audit" && e["fields"]["action"] == "admin_sign_in")
        .unwrap_or_else(|| panic!("no audit event in {events:#?}"));
    assert_eq!(audit["fields"]["success"], false);
    assert_eq!(audit["level"], "INFO");
    let request = events
        .iter()
        .find(|e| e["fields"]["status"] == 401)
        .unwrap_or_else(|| panic!("no request line in {events:#?}"));
    assert_eq!(request["span"]["path"], "/admin/api/session");
    let text = serde_json::to_string(&events).unwrap();
    assert!(!text.contains("not-her-password"));
}

#[tokio::test]
async fn logs_stay_lines_for_people_by_default() {
    let mut node = Node::embedded(&[]).await;
    node.terminate();
    assert!(node.exited(Duration::from_secs(20)).await.success());
    let log = node.log();
    let lines: Vec<&str> = log.lines().collect();
    let listening = lines
        .iter()
        .find(|l| l.contains("sso-bridge listening"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(
        serde_json::from_str::<Value>(listening).is_err(),
        "{listening}"
    );
    assert!(listening.contains("INFO"), "{listening}");
    // Not a terminal: no colour codes for whatever keeps the log.
    assert!(lines.iter().all(|l| !l.contains('\u{1b}')), "{lines:#?}");
}

/// A token request that reads its body from `stream`: the head (with `Expect:
/// 100-continue`), then, once the service says it wants the body, nothing yet. Returns the
/// body still to send.
fn start_a_token_request(stream: &mut TcpStream, addr: &str) -> &'static str {
    const BODY: &str = "grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&client_id=no-such-app&client_secret=x";
    let head = format!(
        "POST /oauth/token HTTP/1.1\r\nhost: {addr}\r\naccept: application/json\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\nexpect: 100-continue\r\n\r\n",
        BODY.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The interim answer comes when the handler starts reading the body: from then on the
    // request is in flight inside the service.
    let interim = read_until(stream, b"\r\n\r\n");
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");
    BODY
}

/// Reads from `stream` until `end` has come (or the peer closes); answers what came.
fn read_until(stream: &mut TcpStream, end: &[u8]) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(end) {
        match stream.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => seen.push(byte[0]),
            Err(e) => panic!("reading the answer: {e}"),
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// Whether connecting to `addr` is refused (nothing listens there any more).
fn refused(addr: &str) -> bool {
    let addr: SocketAddr = addr.parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        match TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => return true,
            _ => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

#[tokio::test]
async fn sigterm_finishes_the_request_in_flight_refuses_new_connections_and_exits_0() {
    // Another loopback address: the node picks its own free port, which may be this one.
    let metrics = format!("127.0.0.2:{}", free_port());
    let mut node = Node::embedded(&[
        ("SSO_BRIDGE__SERVER__SHUTDOWN_GRACE_SECS", "20".into()),
        ("SSO_BRIDGE__SERVER__METRICS_LISTEN", metrics.clone()),
    ])
    .await;
    let addr = node.addr().to_owned();
    let mut in_flight = TcpStream::connect(&addr).unwrap();
    let rest = start_a_token_request(&mut in_flight, &addr);

    node.terminate();
    assert!(
        refused(&addr),
        "the public address still accepts connections"
    );
    assert!(
        refused(&metrics),
        "the metrics address still accepts connections"
    );
    assert!(node.running(), "the node stopped with a request in flight");

    in_flight.write_all(rest.as_bytes()).unwrap();
    let answer = read_until(&mut in_flight, b"}");
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    assert!(answer.contains(r#""error":"invalid_client""#), "{answer}");
    let status = node.exited(Duration::from_secs(10)).await;
    assert_eq!(status.code(), Some(0), "{}", node.log());
}

#[tokio::test]
async fn a_request_held_past_the_grace_period_does_not_keep_the_node_from_stopping() {
    let mut node = Node::embedded(&[("SSO_BRIDGE__SERVER__SHUTDOWN_GRACE_SECS", "1".into())]).await;
    let addr = node.addr().to_owned();
    let mut held = TcpStream::connect(&addr).unwrap();
    let _never_sent = start_a_token_request(&mut held, &addr);

    let stopping = Instant::now();
    node.terminate();
    let status = node.exited(Duration::from_secs(10)).await;
    assert_eq!(status.code(), Some(0));
    let took = stopping.elapsed();
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(5),
        "{took:?}"
    );
}
