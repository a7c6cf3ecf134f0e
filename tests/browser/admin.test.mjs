// The admin screen (Identity & SSO › Connected Apps) in Debian's headless Chromium: a superadmin
// signs in, registers an app, copies its secret, and a full authorization flow then works with
// it; rotating and disabling take effect; a non-superadmin is refused; a hostile app name stays
// text. Starts its own sso-bridge (memory store, demo directory) and a stand-in app callback.
//
// Screenshots of the admin pages go to ../../target/browser-screenshots/admin-*.png.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  SCREENSHOTS,
  TEST_TIMEOUT_MS,
  authorizeRequest,
  callApi,
  launchBrowser,
  openContext,
  signIn as submitSignIn,
  startCallbackServer,
  startService,
  stopService,
} from './support.mjs';

const XSS_NAME = '<script>alert(1)</script>';

let server;
let callback;
let browser;

function api(pathname, options) {
  return callApi(server.base, pathname, options);
}

async function newPage(t) {
  const context = await openContext(browser, t, { viewport: { width: 1100, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    const where = m.location().url ?? '';
    if (m.type() === 'error' && !where.endsWith('/favicon.ico')) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog opened: ${d.message()}`);
    d.dismiss();
  });
  return { page, problems };
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `admin-${name}.png`), fullPage: true });
}

function signIn(page, username, password) {
  return submitSignIn(page, { username, password });
}

/** Opens the admin screen and signs in as the superadmin. */
async function adminSession(t) {
  const { page, problems } = await newPage(t);
  await page.goto(`${server.base}/admin`);
  await page.waitForURL(/\/admin\/login$/);
  await signIn(page, 'ada', 'ada-demo');
  await page.waitForURL(/\/admin\/apps$/);
  return { page, problems };
}

/** Registers an app from the screen; answers { name, client_id, client_secret } read off the page. */
async function registerFromScreen(page, name) {
  await page.getByRole('link', { name: 'Register an app' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Redirect URIs', { exact: true }).fill(callback.uri);
  assert.ok(await page.getByLabel(/Confidential/).isChecked());
  assert.ok(await page.getByLabel('Require PKCE').isChecked());
  await page.getByRole('button', { name: 'Register' }).click();
  await page.locator('#client_secret').waitFor();
  // Copy it as a person would: the Copy button puts it on the clipboard.
  const copy = page.getByRole('button', { name: 'Copy' });
  await copy.click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  return {
    name,
    client_id: await page.locator('#client_id').inputValue(),
    client_secret: await page.evaluate(() => navigator.clipboard.readText()),
  };
}

/** Signs alan in to `app` in a fresh browser, approves, and exchanges the code. */
async function authorizationFlow(t, app) {
  const { page } = await newPage(t);
  const { url, state, verifier } = authorizeRequest(server.base, {
    clientId: app.client_id,
    redirectUri: callback.uri,
    scope: 'openid profile',
    state: randomBytes(8).toString('hex'),
  });
  await page.goto(url);
  await signIn(page, 'alan', 'alan-demo');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  const query = await callback.waitFor(state);
  const res = await api('/oauth/token', {
    method: 'POST',
    form: {
      grant_type: 'authorization_code',
      code: query.code,
      redirect_uri: callback.uri,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: verifier,
    },
  });
  assert.equal(res.status, 200, `token exchange: ${JSON.stringify(res.body)}`);
  return res.body;
}

const userinfo = (token) => api('/oauth/userinfo', { headers: { authorization: `Bearer ${token}` } });

describe('the admin screen in a real browser', () => {
  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      // The screen's own pages are under test here; the admin second factor is covered by the
      // API tests and mfa.test.mjs walks the second factor in the browser.
      server = await startService({ SSO_BRIDGE__MFA__REQUIRED_ROLES: '' });
      browser = await launchBrowser();
    },
    { timeout: 2 * TEST_TIMEOUT_MS },
  );

  after(async () => {
    await browser?.close().catch(() => {});
    if (server) await stopService(server);
    await callback?.close();
  });

  test('a superadmin registers an app, copies the secret, and the app signs a user in', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page, problems } = await adminSession(t);
    await shot(page, 'apps-empty');
    assert.match(await page.locator('.empty').innerText(), /No apps are registered yet/);

    const app = await registerFromScreen(page, 'Expenses');
    await shot(page, 'secret-once');
    assert.match(app.client_secret, /^[A-Za-z0-9_-]{43}$/);

    const tokens = await authorizationFlow(t, app);
    const me = await userinfo(tokens.access_token);
    assert.equal(me.status, 200);
    assert.equal(me.body.sub, 'alan');

    // The secret is never shown again; the list shows the app as enabled and used.
    await page.goto(`${server.base}/admin/apps`);
    const row = page.locator('tr', { hasText: app.client_id });
    assert.match(await row.innerText(), /Expenses[\s\S]*confidential[\s\S]*enabled/);
    assert.doesNotMatch(await row.innerText(), /never/);
    await shot(page, 'apps-list');
    await row.getByRole('link', { name: 'Expenses' }).click();
    assert.ok(!(await page.content()).includes(app.client_secret));
    await shot(page, 'app');
    await page.locator('.admin-nav').getByRole('link', { name: 'Audit log' }).click();
    await page.locator('table.audit').waitFor();
    assert.match(await page.locator('table.audit').innerText(), /token issued[\s\S]*app created/);
    await shot(page, 'audit');

    // Readable on a phone: nothing wider than the screen but the tables, which scroll.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${server.base}/admin/apps/${app.client_id}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the app page is ${overflow}px wider than a phone`);
    await shot(page, 'app-phone');
    assert.deepEqual(problems, []);
  });

  test('rotating and disabling take effect at once', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page, problems } = await adminSession(t);
    const app = await registerFromScreen(page, 'Payroll');
    const tokens = await authorizationFlow(t, app);
    await page.getByRole('link', { name: /go to the app/ }).click();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.locator('#client_secret').inputValue();
    assert.notEqual(rotated, app.client_secret);
    const refresh = (secret) =>
      api('/oauth/token', {
        method: 'POST',
        form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id, client_secret: secret },
      });
    assert.equal((await refresh(app.client_secret)).status, 401, 'the old secret still works');

    await page.getByRole('link', { name: /go to the app/ }).click();
    await page.getByRole('button', { name: 'Disable' }).click();
    assert.match(await page.locator('.notice').innerText(), /App disabled/);
    await shot(page, 'app-disabled');
    assert.equal((await userinfo(tokens.access_token)).status, 401, 'a token outlived the disable');
    const refused = await refresh(rotated);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_client');

    await page.getByRole('link', { name: 'Delete…' }).click();
    await shot(page, 'delete-confirm');
    await page.getByRole('button', { name: 'Delete the app' }).click();
    assert.match(await page.locator('.notice').innerText(), /App deleted/);
    assert.deepEqual(problems, []);
  });

  test('a user who is not a superadmin is refused', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page } = await newPage(t);
    await page.goto(`${server.base}/admin/login`);
    await signIn(page, 'grace', 'grace-demo');
    await page.locator('h1', { hasText: 'Superadmins only' }).waitFor();
    await shot(page, 'forbidden');
    const response = await page.goto(`${server.base}/admin/apps`);
    assert.match(page.url(), /\/admin\/login$/, `reached ${page.url()} (${response.status()})`);
  });

  test('an app named like a script shows as text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page, problems } = await adminSession(t);
    const app = await registerFromScreen(page, XSS_NAME);
    assert.equal(await page.locator('h1').innerText(), `${XSS_NAME} is registered`);
    await page.goto(`${server.base}/admin/apps?q=${encodeURIComponent(app.client_id)}`);
    assert.equal(await page.locator('table.apps tbody td a').first().innerText(), XSS_NAME);
    assert.deepEqual(problems, []);
  });
});
