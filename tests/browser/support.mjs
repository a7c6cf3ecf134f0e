// Shared by the browser tests: starting sso-bridge and a stand-in app callback on free loopback
// ports, stopping them, launching Debian's Chromium through playwright-core, and the steps the
// tests have in common: calling the service's APIs from node, registering an app, building an
// authorization request (with PKCE), opening a browser context and filling the sign-in form.
//
//   SSO_BRIDGE_BIN  the binary to test (default: ../../target/debug/sso-bridge)
//   CHROMIUM_BIN    the browser (default: /usr/bin/chromium)
//   TEST_LOG=1      copy the service's logs to stderr

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BIN = process.env.SSO_BRIDGE_BIN
  ? path.resolve(process.env.SSO_BRIDGE_BIN)
  : path.resolve(here, '../../target/debug/sso-bridge');
export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(here, '../../target/browser-screenshots');

export const STARTUP_DEADLINE_MS = 20_000;
export const STEP_TIMEOUT_MS = 15_000; // any single browser action, navigation or wait
export const FETCH_TIMEOUT_MS = 10_000;
export const TEST_TIMEOUT_MS = 60_000; // a whole test, as a last resort

/** A loopback port nobody listens on right now. */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Starts the service on a free port, with `env` (SSO_BRIDGE__… settings) on top of the embedded
 * defaults. The port is free when picked but another process on the machine may take it before
 * the service binds it: then pick again, a few times at most.
 *
 * `host` names the service in its base address (`server.base_url`): WebAuthn needs a domain
 * name, so the passkey tests use `localhost`; it listens on 127.0.0.1 either way.
 */
export async function startService(env = {}, { host = '127.0.0.1' } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(env, host);
    } catch (e) {
      if (attempt >= 3 || !/address already in use/i.test(e.message)) throw e;
    }
  }
}

async function startServiceOnce(env, host) {
  assert.ok(
    existsSync(BIN),
    `sso-bridge binary not found at ${BIN}: build it (cargo build) or set SSO_BRIDGE_BIN`,
  );
  const port = await freePort();
  const base = `http://${host}:${port}`;
  const child = spawn(BIN, ['serve'], {
    env: {
      ...process.env,
      SSO_BRIDGE__SERVER__LISTEN: `127.0.0.1:${port}`,
      SSO_BRIDGE__SERVER__BASE_URL: base,
      RUST_LOG: process.env.RUST_LOG ?? 'info',
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep the last part of the logs to explain a failure; echo them when TEST_LOG is set.
  let logs = '';
  const keep = (chunk) => {
    logs = (logs + chunk.toString()).slice(-20_000);
    if (process.env.TEST_LOG) process.stderr.write(chunk);
  };
  // Should this test process end without running after() (a crash, a runner time-out), the
  // service must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.exited = exited;
  let exit = null;
  exited.then((e) => {
    exit = e;
  });
  child.once('error', (e) => {
    exit = { error: e.message };
  });

  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    if (exit) {
      throw new Error(`sso-bridge exited during start-up (${JSON.stringify(exit)}):\n${logs}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopService({ child });
      throw new Error(
        `sso-bridge did not answer GET /healthz within ${STARTUP_DEADLINE_MS} ms:\n${logs}`,
      );
    }
    await sleep(100);
  }
  // `loopback`: the same service by address, for node's calls (which may try ::1 for localhost).
  return { base, loopback: `http://127.0.0.1:${port}`, child, logs: () => logs };
}

export async function stopService({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  try {
    await withTimeout(child.exited, 5_000, 'sso-bridge to stop');
  } catch {
    child.kill('SIGKILL');
    await withTimeout(child.exited, 5_000, 'sso-bridge to die');
  }
}

/** The app's side: records every /callback query and answers a tiny page. */
export async function startCallbackServer() {
  const hits = [];
  const waiters = new Set();
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://callback.invalid');
    if (req.method === 'GET' && url.pathname === '/callback') {
      const query = Object.fromEntries(url.searchParams);
      hits.push({ query, raw: req.url });
      for (const w of waiters) w();
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end('<!doctype html><title>Callback</title><h1>Back at the app</h1>');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  // Keep-alive sockets from the browser must not hold close() up.
  srv.keepAliveTimeout = 1_000;
  await new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    uri: `http://127.0.0.1:${port}/callback`,
    hits,
    /** The query of the first callback carrying this state, waiting for it if need be. */
    waitFor(state, ms = STEP_TIMEOUT_MS) {
      const find = () => hits.find((h) => h.query.state === state);
      const found = find();
      if (found) return Promise.resolve(found.query);
      let waiter;
      const arrived = new Promise((resolve) => {
        waiter = () => {
          const hit = find();
          if (hit) resolve(hit.query);
        };
        waiters.add(waiter);
      });
      return withTimeout(
        arrived,
        ms,
        `the app's callback with state ${JSON.stringify(state)}`,
      ).finally(() => waiters.delete(waiter));
    },
    close: () =>
      new Promise((resolve) => {
        srv.close(resolve);
        srv.closeAllConnections();
      }),
  };
}

/** Debian's Chromium, headless, through playwright-core. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// The service's APIs, called from node as an app's backend or an admin tool would

/**
 * Calls `base` + `pathname`; `json` goes as an application/json body, `form` as
 * application/x-www-form-urlencoded. Answers { status, headers, body }: the body parsed as JSON,
 * or as text when it is not JSON.
 */
export async function callApi(base, pathname, { method = 'GET', headers = {}, json, form } = {}) {
  const init = {
    method,
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  };
  if (json !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (form !== undefined) {
    init.body = new URLSearchParams(form); // sent as application/x-www-form-urlencoded
  }
  const res = await fetch(`${base}${pathname}`, init);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/**
 * Registers an app called `name`, with `redirectUri` its one redirect URI, through the admin API;
 * answers the response.
 */
export function createApp(base, adminToken, name, redirectUri) {
  return callApi(base, '/admin/api/apps', {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    json: { name, redirect_uris: [redirectUri] },
  });
}

/**
 * An authorization code request to the service at `base`, with PKCE S256 unless `pkce` is false.
 * Answers { url, state, verifier } (no verifier without PKCE).
 */
export function authorizeRequest(base, { clientId, redirectUri, scope, state, pkce = true }) {
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
  };
  let verifier;
  if (pkce) {
    verifier = randomBytes(32).toString('base64url');
    params.code_challenge = createHash('sha256').update(verifier).digest('base64url');
    params.code_challenge_method = 'S256';
  }
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams(params).toString();
  return { url: url.toString(), state, verifier };
}

// ---------------------------------------------------------------------------------------------
// The browser side

/**
 * A fresh browser context (British English, 800×720 unless `options` say otherwise) whose
 * actions and navigations time out after STEP_TIMEOUT_MS; closed when test `t` ends.
 */
export async function openContext(browser, t, options = {}) {
  const context = await browser.newContext({
    locale: 'en-GB',
    viewport: { width: 800, height: 720 },
    ...options,
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
  t.after(() => context.close());
  return context;
}

/** Fills the sign-in form on `page` and submits it. */
export async function signIn(page, { username, password }) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
