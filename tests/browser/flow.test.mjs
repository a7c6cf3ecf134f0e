// Drives sso-bridge's sign-in and consent pages in a real headless Chromium (Debian's
// /usr/bin/chromium, through playwright-core: no browser is ever downloaded).
//
// Each run of this file starts its own `sso-bridge serve` on a free loopback port (memory store,
// built-in demo directory) and a small HTTP server on another free port that plays the app's
// callback. Every test registers its own app through the admin API, so remembered consents of one
// test never change what another one sees.
//
//   SSO_BRIDGE_BIN  the binary to test (default: ../../target/debug/sso-bridge)
//   CHROMIUM_BIN    the browser (default: /usr/bin/chromium)
//   TEST_LOG=1      copy the service's logs to stderr
//
// Screenshots of the pages go to ../../target/browser-screenshots/.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  SCREENSHOTS,
  TEST_TIMEOUT_MS,
  authorizeRequest as buildAuthorizeRequest,
  callApi,
  createApp,
  launchBrowser,
  openContext,
  signIn,
  startCallbackServer,
  startService,
  stopService,
  withTimeout,
} from './support.mjs';

// Awkward on purpose: a space, URL delimiters and a non-ASCII letter must all come back unchanged.
const AWKWARD_STATE = 'a b&c=d/é';

const ALAN = { username: 'alan', password: 'alan-demo' };
const SCOPE = 'openid profile email role';

let server; // { base, child, logs }
let callback; // { uri, close, waitFor, hits }
let browser;
let adminToken;

// ---------------------------------------------------------------------------------------------
// The service's APIs, called from node as the app's backend would

function api(pathname, options) {
  return callApi(server.base, pathname, options);
}

async function adminSignIn() {
  const res = await api('/admin/api/session', {
    method: 'POST',
    json: { username: 'ada', password: 'ada-demo' },
  });
  assert.equal(res.status, 200, `admin sign-in: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body.token, 'string');
  return res.body.token;
}

/** Registers an app whose callback is our callback server; returns { name, client_id, client_secret }. */
async function registerApp(name) {
  const res = await createApp(server.base, adminToken, name, callback.uri);
  assert.ok(
    res.status === 200 || res.status === 201,
    `register ${name}: ${res.status} ${JSON.stringify(res.body)}`,
  );
  assert.equal(typeof res.body.client_id, 'string');
  assert.equal(typeof res.body.client_secret, 'string');
  return { name, client_id: res.body.client_id, client_secret: res.body.client_secret };
}

/** A fresh authorization request with PKCE S256. */
function authorizeRequest(
  app,
  { state = `${AWKWARD_STATE} ${randomBytes(6).toString('hex')}`, scope = SCOPE } = {},
) {
  return buildAuthorizeRequest(server.base, {
    clientId: app.client_id,
    redirectUri: callback.uri,
    scope,
    state,
  });
}

async function exchangeCode(app, code, verifier) {
  const res = await api('/oauth/token', {
    method: 'POST',
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback.uri,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: verifier,
    },
  });
  assert.equal(res.status, 200, `token exchange: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.token_type.toLowerCase(), 'bearer');
  assert.equal(typeof res.body.access_token, 'string');
  return res.body;
}

async function userinfo(accessToken) {
  const res = await api('/oauth/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(res.status, 200, `userinfo: ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// The browser side

function newContext(t, options) {
  return openContext(browser, t, options);
}

/**
 * Records what goes wrong on a page: console errors (CSP violations among them), failed requests.
 * The browser's own favicon probe is not the pages' doing (neither side serves one).
 */
function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => {
    const where = m.location().url ?? '';
    if (m.type() === 'error' && !where.endsWith('/favicon.ico'))
      problems.push(`console: ${m.text()} (${where})`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) =>
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`),
  );
  return problems;
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

function onService(page) {
  return new URL(page.url()).origin === server.base;
}

/** Waits for the consent page and returns what it says. */
async function readConsent(page) {
  await page.locator('button[name=decision][value=approve]').waitFor();
  assert.ok(onService(page), `consent page expected on sso-bridge, at ${page.url()}`);
  return {
    heading: (await page.locator('h1').innerText()).trim(),
    appName: (await page.locator('.app-name').innerText()).trim(),
    scopes: (await page.locator('.scopes .scope-name').allInnerTexts()).map((s) => s.trim()),
  };
}

async function decide(page, decision) {
  const label = decision === 'approve' ? 'Allow' : 'Deny';
  const button = page.getByRole('button', { name: label, exact: true });
  assert.equal(await button.getAttribute('name'), 'decision');
  assert.equal(await button.getAttribute('value'), decision);
  await button.click();
}

/** Sign-in (when asked), approve, and the callback's query. */
async function signInAndApprove(page, app, request, user = ALAN) {
  await page.goto(request.url);
  await signIn(page, user);
  const consent = await readConsent(page);
  assert.equal(consent.appName, app.name);
  await decide(page, 'approve');
  const query = await callback.waitFor(request.state);
  await page.waitForURL((u) => u.origin === callback.origin);
  return query;
}

// ---------------------------------------------------------------------------------------------

describe('sso-bridge in a real browser', () => {
  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      // This file walks the flow without a second factor; mfa.test.mjs walks it with one.
      server = await startService({ SSO_BRIDGE__MFA__REQUIRED_ROLES: '' });
      adminToken = await adminSignIn();
      browser = await launchBrowser();
    },
    { timeout: 2 * TEST_TIMEOUT_MS },
  );

  after(
    async () => {
      // Each step runs even when an earlier one failed or never started.
      const steps = [
        () => browser?.close(),
        () => server && stopService(server),
        () => callback?.close(),
      ];
      for (const step of steps) {
        try {
          await withTimeout(Promise.resolve(step()), 10_000, 'clean-up');
        } catch (e) {
          console.error(e);
        }
      }
    },
    { timeout: TEST_TIMEOUT_MS },
  );

  test(
    "a user signs in, approves, and the app gets a code it can exchange for the user's claims",
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const app = await registerApp('Expenses');
      const page = await (await newContext(t)).newPage();
      const problems = watchProblems(page);
      const request = authorizeRequest(app, { state: AWKWARD_STATE });

      const first = await page.goto(request.url);
      assert.equal(first.status(), 200);
      assert.equal((await page.locator('h1').innerText()).trim(), 'Sign in');
      assert.match(await page.locator('.lede').innerText(), /Expenses/);
      await screenshot(page, 'signin');

      await signIn(page, ALAN);
      const consent = await readConsent(page);
      assert.equal(consent.appName, 'Expenses');
      assert.equal(consent.heading, 'Expenses wants to access your account');
      for (const scope of ['profile', 'email', 'role']) {
        assert.ok(consent.scopes.includes(scope), `consent page lists ${scope}: ${consent.scopes}`);
      }
      await screenshot(page, 'consent');
      await decide(page, 'approve');

      const query = await callback.waitFor(AWKWARD_STATE);
      assert.equal(query.state, AWKWARD_STATE);
      assert.equal(query.error, undefined);
      assert.ok(query.code, 'the callback carries a code');
      await page.waitForURL((u) => u.origin === callback.origin);
      assert.match(await page.locator('h1').innerText(), /Back at the app/);

      const tokens = await exchangeCode(app, query.code, request.verifier);
      assert.ok(tokens.refresh_token, 'a refresh token is issued');
      const claims = await userinfo(tokens.access_token);
      assert.equal(claims.sub, 'alan');
      assert.equal(claims.role, 'employee');
      assert.equal(typeof claims.name, 'string');
      assert.equal(typeof claims.email, 'string');

      assert.deepEqual(problems, [], 'no console errors or failed requests on the pages');
    },
  );

  test(
    'a wrong password shows the form again with a message, keeping the username',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const app = await registerApp('Timesheets');
      const page = await (await newContext(t)).newPage();
      const request = authorizeRequest(app);

      await page.goto(request.url);
      await signIn(page, { username: 'alan', password: 'not-alans-password' });

      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.ok(onService(page), `still on sso-bridge, at ${page.url()}`);
      assert.ok((await alert.innerText()).trim().length > 0, 'the message says something');
      assert.equal(await page.getByLabel('Username').inputValue(), 'alan');
      assert.equal(
        await page.getByLabel('Password').inputValue(),
        '',
        'the password is not echoed back',
      );
      assert.equal(
        await page.getByLabel('Password').getAttribute('aria-describedby'),
        'signin-error',
      );
      await screenshot(page, 'signin-error');
      assert.equal(callback.hits.filter((h) => h.query.state === request.state).length, 0);

      // The form shown again is a working one: the right password now gets through.
      await page.getByLabel('Password').fill(ALAN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const consent = await readConsent(page);
      assert.equal(consent.appName, 'Timesheets');
    },
  );

  test(
    'denying sends access_denied back to the app with the state',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const app = await registerApp('Payroll');
      const page = await (await newContext(t)).newPage();
      const request = authorizeRequest(app);

      await page.goto(request.url);
      await signIn(page, ALAN);
      const consent = await readConsent(page);
      assert.equal(consent.appName, 'Payroll');
      await decide(page, 'deny');

      const query = await callback.waitFor(request.state);
      assert.equal(query.error, 'access_denied');
      assert.equal(query.state, request.state);
      assert.equal(query.code, undefined, 'no code after a denial');
    },
  );

  test(
    'a second app sign-in in the same browser skips the password',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const wiki = await registerApp('Wiki');
      const travel = await registerApp('Travel');
      const page = await (await newContext(t)).newPage();

      const firstRequest = authorizeRequest(wiki);
      const firstQuery = await signInAndApprove(page, wiki, firstRequest);
      assert.ok(firstQuery.code);

      const second = authorizeRequest(travel);
      const res = await page.goto(second.url);
      assert.equal(res.status(), 200);
      const consent = await readConsent(page);
      assert.equal(consent.appName, 'Travel');
      assert.equal(await page.locator('input[name=password]').count(), 0, 'no password field');
      assert.match(await page.locator('.account').innerText(), /\(alan\)/);
      await decide(page, 'approve');

      const query = await callback.waitFor(second.state);
      assert.equal(query.state, second.state);
      assert.ok(query.code);
      const tokens = await exchangeCode(travel, query.code, second.verifier);
      assert.equal((await userinfo(tokens.access_token)).sub, 'alan');
    },
  );

  test(
    'an unknown client gets an error page and the browser stays on sso-bridge',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const context = await newContext(t);
      const page = await context.newPage();
      const toCallback = [];
      page.on('request', (r) => {
        if (r.url().startsWith(callback.origin)) toCallback.push(r.url());
      });
      const unknown = { client_id: randomBytes(16).toString('hex') };
      const request = authorizeRequest(unknown);

      const res = await page.goto(request.url);
      assert.ok(res.status() >= 400 && res.status() < 500, `status ${res.status()}`);
      // No redirect at all: the response to the authorize request itself is the error page.
      assert.equal(res.request().redirectedFrom(), null);
      assert.ok(onService(page), `still on sso-bridge, at ${page.url()}`);
      assert.ok(page.url().startsWith(`${server.base}/oauth/authorize?`));
      const heading = (await page.locator('h1').innerText()).trim();
      assert.ok(heading.length > 0, 'the error page has a title');
      assert.equal(await page.locator('form').count(), 0, 'no form to go on with');
      await screenshot(page, 'error');

      // The page is final (no script, no refresh): wait for the network to settle, then check.
      await page.waitForLoadState('networkidle');
      assert.deepEqual(toCallback, [], 'the browser never went to the callback');
      assert.equal(callback.hits.filter((h) => h.query.state === request.state).length, 0);
    },
  );

  test('the pages work without JavaScript', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const app = await registerApp('Intranet');
    const page = await (await newContext(t, { javaScriptEnabled: false })).newPage();
    const request = authorizeRequest(app);

    await page.goto(request.url);
    assert.equal(await page.locator('script').count(), 0, 'the sign-in page has no script');
    await signIn(page, ALAN);
    const consent = await readConsent(page);
    assert.equal(consent.appName, 'Intranet');
    assert.equal(await page.locator('script').count(), 0, 'the consent page has no script');
    await decide(page, 'approve');

    const query = await callback.waitFor(request.state);
    assert.equal(query.state, request.state);
    assert.ok(query.code);
    const tokens = await exchangeCode(app, query.code, request.verifier);
    assert.equal((await userinfo(tokens.access_token)).sub, 'alan');
  });
});
