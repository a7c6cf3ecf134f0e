// Interoperability with a non-Rust client library: the unmodified `openid-client` (npm, by the
// author of the OpenID Foundation-certified node-oidc-provider) drives sso-bridge end to end:
// discovery, PKCE, the RFC 9207 `iss` check, id_token validation with nonce (RS256, and ES256 for
// an app registered for it), userinfo, refresh, introspection, revocation and RP-initiated logout. The browser part (sign-in and consent
// forms) is scripted with fetch, posting back each form's hidden inputs.
//
// This file starts its own `sso-bridge serve` on a free loopback port (memory store, built-in
// demo directory, a signing key generated at first use).
//
//   SSO_BRIDGE_BIN  the binary to test (default: ../../target/debug/sso-bridge)
//   TEST_LOG=1      copy the service's logs to stderr

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.SSO_BRIDGE_BIN
  ? path.resolve(process.env.SSO_BRIDGE_BIN)
  : path.resolve(here, '../../target/debug/sso-bridge');
const STARTUP_DEADLINE_MS = 20_000;
const FETCH_TIMEOUT_MS = 10_000;
const CALLBACK = 'http://127.0.0.1:9/callback';
const SIGNED_OUT = 'http://127.0.0.1:9/signed-out';

let service; // { base, child }

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startService() {
  assert.ok(existsSync(BIN), `sso-bridge binary not found at ${BIN}: run cargo build or set SSO_BRIDGE_BIN`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(BIN, ['serve'], {
    env: {
      ...process.env,
      SSO_BRIDGE__SERVER__LISTEN: `127.0.0.1:${port}`,
      SSO_BRIDGE__SERVER__BASE_URL: base,
      // ada registers the apps with her password alone: this suite is not about the second
      // factor, which the admin API would otherwise ask her to set up first.
      SSO_BRIDGE__MFA__REQUIRED_ROLES: '',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  const keep = (chunk) => {
    logs = (logs + chunk.toString()).slice(-20_000);
    if (process.env.TEST_LOG) process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sso-bridge exited during start-up:\n${logs}`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) return { base, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`sso-bridge did not answer /healthz in time:\n${logs}`);
    }
    await sleep(100);
  }
}

/** A scripted browser: a cookie jar and fetch without following redirects. */
function browser() {
  const jar = new Map();
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return res;
  };
}

const unescapeHtml = (s) =>
  s.replaceAll('&#x3D;', '=').replaceAll('&quot;', '"').replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** Posts the page's form back with its hidden inputs and `fields`. */
async function submit(go, html, fields) {
  const action = unescapeHtml(/<form[^>]*action="([^"]*)"/.exec(html)[1]);
  const body = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    body.append(name, unescapeHtml(value));
  }
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return go(action, { method: 'POST', body });
}

/** Sign-in and consent as alan: answers the callback URL the browser was sent to. */
async function signInAndApprove(go, authorizeUrl) {
  const signin = await go(authorizeUrl);
  assert.equal(signin.status, 200);
  const afterSignIn = await submit(go, await signin.text(), { username: 'alan', password: 'alan-demo' });
  assert.equal(afterSignIn.status, 303);
  const consent = await go(afterSignIn.headers.get('location'));
  const done = await submit(go, await consent.text(), { decision: 'approve' });
  assert.equal(done.status, 303);
  return done.headers.get('location');
}

async function registerApp(base, extra = {}) {
  const session = await fetch(`${base}/admin/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', password: 'ada-demo' }),
  });
  const { token } = await session.json();
  const created = await fetch(`${base}/admin/api/apps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name: 'openid-client app',
      redirect_uris: [CALLBACK],
      post_logout_redirect_uris: [SIGNED_OUT],
      ...extra,
    }),
  });
  assert.equal(created.status, 201);
  return created.json();
}

before(async () => {
  service = await startService();
});

after(async () => {
  service?.child.kill('SIGTERM');
});

test('openid-client signs in with PKCE, validates the id_token, refreshes, revokes and logs out', async () => {
  const app = await registerApp(service.base);
  const config = await client.discovery(
    new URL(service.base),
    app.client_id,
    undefined,
    client.ClientSecretBasic(app.client_secret),
    { execute: [client.allowInsecureRequests] }, // the test server speaks plain http
  );

  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  const go = browser();
  const callbackUrl = await signInAndApprove(go, url.href);

  // Checks state, iss (RFC 9207), the id_token signature, issuer, audience, nonce and expiry.
  const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  assert.equal(claims.sub, 'alan');
  assert.equal(claims.nonce, nonce);
  assert.deepEqual(claims.amr, ['pwd']);

  const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  assert.equal(info.sub, 'alan');
  assert.ok(info.email);

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
  assert.equal(refreshed.claims().sub, 'alan');
  assert.notEqual(refreshed.access_token, tokens.access_token);

  const active = await client.tokenIntrospection(config, refreshed.access_token);
  assert.equal(active.active, true);
  assert.equal(active.sub, 'alan');
  await client.tokenRevocation(config, refreshed.refresh_token);
  const revoked = await client.tokenIntrospection(config, refreshed.access_token);
  assert.equal(revoked.active, false);

  const logout = client.buildEndSessionUrl(config, {
    id_token_hint: refreshed.id_token,
    post_logout_redirect_uri: SIGNED_OUT,
    state: 'bye',
  });
  const res = await go(logout.href);
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `${SIGNED_OUT}?state=bye`);

  // Signed out: a silent authorize (with PKCE, as the app must) now needs a sign-in.
  const silent = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid',
    prompt: 'none',
    state: 's3',
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const answer = new URL((await go(silent.href)).headers.get('location'));
  assert.equal(answer.searchParams.get('error'), 'login_required');
});

test('openid-client as a public app authenticates with none and must use PKCE', async () => {
  const app = await registerApp(service.base, { public: true });
  assert.equal(app.client_secret, undefined);
  const config = await client.discovery(new URL(service.base), app.client_id, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callbackUrl = await signInAndApprove(browser(), url.href);
  const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    idTokenExpected: true,
  });
  assert.equal(tokens.claims().sub, 'alan');
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
  assert.equal(refreshed.claims().aud, app.client_id);

  // Without PKCE a public app is turned away at the authorize step.
  const bare = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's4' });
  const refused = new URL((await browser()(bare.href)).headers.get('location'));
  assert.equal(refused.searchParams.get('error'), 'invalid_request');
});

test('openid-client validates the ES256 id_tokens of an app registered for them', async () => {
  const app = await registerApp(service.base, { id_token_signed_response_alg: 'ES256' });
  assert.equal(app.id_token_signed_response_alg, 'ES256');
  // The client's own metadata says ES256: the library then refuses an id_token signed otherwise.
  const config = await client.discovery(
    new URL(service.base),
    app.client_id,
    { id_token_signed_response_alg: 'ES256' },
    client.ClientSecretBasic(app.client_secret),
    { execute: [client.allowInsecureRequests] },
  );
  assert.deepEqual(config.serverMetadata().id_token_signing_alg_values_supported, ['RS256', 'ES256']);
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  const callbackUrl = await signInAndApprove(browser(), url.href);
  const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
    idTokenExpected: true,
  });
  const header = JSON.parse(Buffer.from(tokens.id_token.split('.')[0], 'base64url').toString());
  assert.equal(header.alg, 'ES256');
  assert.equal(tokens.claims().sub, 'alan');
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
  assert.equal(refreshed.claims().aud, app.client_id);
});
