//! An upgrade: the real binary started on a Redis that an earlier version wrote brings what it
//! holds to the current format before it serves, and everything in it goes on working.

use crate::store::redis_only::raw;
use crate::support::node::{deployment, Node};
use crate::support::redis::RedisServer;
use redis::aio::MultiplexedConnection;
use redis::AsyncCommands;
use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;

const CB: &str = "https://app.example.com/callback";

/// Rewrites what a node of this version stored under `p` in the formats earlier versions kept:
/// the per-app, per-person and session indexes and the grant indexes (of both tokens) as plain
/// sets, the audit log as one sorted set of event JSON by time. Answers how many audit events it
/// holds.
async fn as_earlier_versions_kept_it(conn: &mut MultiplexedConnection, p: &str) -> usize {
    for (now, then) in [
        ("client-issued:", "issued:"),
        ("user-issued:", "userissued:"),
        ("user-sessions:", "usersess:"),
        ("grant:", "grant:"),
    ] {
        let keys: Vec<String> = conn.keys(format!("{p}{now}*")).await.unwrap();
        for key in keys {
            let mut members: Vec<String> = if now == "grant:" {
                conn.lrange(&key, 0, -1).await.unwrap()
            } else {
                conn.zrange(&key, 0, -1).await.unwrap()
            };
            if now == "grant:" {
                // Earlier versions named each access token in the grant's index itself.
                for refresh in members.clone() {
                    let access: Option<String> = conn.hget(&refresh, "access").await.unwrap();
                    members.extend(access);
                    let _: () = conn.hdel(&refresh, "access").await.unwrap();
                }
            }
            let ttl: i64 = conn.ttl(&key).await.unwrap();
            let earlier = format!("{p}{then}{}", &key[p.len() + now.len()..]);
            let _: () = conn.del(&key).await.unwrap();
            if members.is_empty() {
                continue;
            }
            let _: () = conn.sadd(&earlier, &members).await.unwrap();
            let _: () = conn.expire(&earlier, ttl).await.unwrap();
        }
    }
    let events: Vec<String> = conn.hvals(format!("{p}audit:events")).await.unwrap();
    for json in &events {
        let event: Value = serde_json::from_str(json).unwrap();
        let at = event["at"].as_u64().unwrap();
        let _: () = conn.zadd(format!("{p}audit"), json, at).await.unwrap();
    }
    let mut lists: Vec<String> = conn.keys(format!("{p}audit:*")).await.unwrap();
    lists.push(format!("{p}format"));
    let _: () = conn.del(&lists).await.unwrap();
    events.len()
}

async fn admin_get(node: &Node, token: &str, path: &str) -> Value {
    let r = node
        .api
        .get(node.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.json().await.unwrap()
}

#[tokio::test]
async fn a_node_started_on_a_store_an_earlier_version_wrote_serves_all_it_holds() {
    let redis = RedisServer::shared();
    let settings = deployment();
    let prefix = settings[0].1.clone();
    let mut old = Node::start(&redis, &settings).await;
    let reg = old.register(CB, false).await;
    let tokens = old.tokens_for(&reg, "alan").await;
    old.terminate();
    assert!(old.exited(Duration::from_secs(10)).await.success());
    let mut conn = raw(&redis).await;
    let events = as_earlier_versions_kept_it(&mut conn, &prefix).await;
    assert!(events >= 2, "{events}");

    let new = Node::start(&redis, &settings).await;
    let log = new.log();
    assert!(
        log.contains("brought the store to the current format"),
        "{log}"
    );
    let format: u64 = conn.get(format!("{prefix}format")).await.unwrap();
    assert_eq!(format, sso_bridge::store::redis::FORMAT);

    // The id_token signed before still verifies: its key is published.
    let header = jsonwebtoken::decode_header(tokens["id_token"].as_str().unwrap()).unwrap();
    let jwks = new.jwks().await;
    assert!(
        jwks["keys"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["kid"].as_str() == header.kid.as_deref()),
        "{jwks}"
    );
    // The grant refreshes.
    let refreshed = new
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let refreshed: Value = refreshed.json().await.unwrap();
    // The audit events written before are found.
    let admin = new.superadmin_token().await;
    let before = admin_get(&new, &admin, "/admin/api/audit?actor=alan").await;
    assert!(!before["events"].as_array().unwrap().is_empty(), "{before}");
    // The person's sessions and grants are found and end.
    let out = new
        .api
        .post(new.url("/admin/api/users/alan/revoke"))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    let out: Value = out.json().await.unwrap();
    assert_eq!(out["sessions_ended"], 1, "{out}");
    assert_eq!(out["grants_revoked"], 1, "{out}");
    let after = new
        .refresh(&reg, refreshed["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(after.status(), StatusCode::BAD_REQUEST);
    // The access tokens issued before and after the upgrade end with the grant.
    for tokens in [&tokens, &refreshed] {
        let userinfo = new.userinfo(tokens["access_token"].as_str().unwrap()).await;
        assert_eq!(userinfo.status(), StatusCode::UNAUTHORIZED);
    }
}
