// Passkeys in a real headless Chromium (Debian's /usr/bin/chromium through playwright-core),
// with Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain) standing in for
// a platform authenticator that checks a PIN or a fingerprint: an admin under the second-factor
// policy adds a passkey at her first sign-in, signs out, signs in with password and passkey,
// then with the passkey alone (mfa.passwordless). The id_tokens' `amr` say which. On the account
// page a person adds a passkey, then a second one from another device, renames it and removes it.
//
// WebAuthn needs a domain name, so the service's base address is http://localhost:<port> and
// every page is opened there. The pages' Content-Security-Policy allows the ceremony's script
// only on the pages that run it, and a browser without scripts still signs in with a password.
//
//   SSO_BRIDGE_BIN  the binary to test (default: ../../target/debug/sso-bridge)
//   CHROMIUM_BIN    the browser (default: /usr/bin/chromium)
//   TEST_LOG=1      copy the service's logs to stderr

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  SCREENSHOTS,
  TEST_TIMEOUT_MS,
  authorizeRequest,
  callApi,
  createApp,
  launchBrowser,
  openContext,
  signIn,
  startCallbackServer,
  startService,
  stopService,
} from './support.mjs';

const GRACE = { username: 'grace', password: 'grace-demo' }; // admin: a second factor is due
const ALAN = { username: 'alan', password: 'alan-demo' }; // employee: the password is enough

let service; // { base, loopback, child, logs }
let callback; // { uri, hits, close, waitFor }
let browser;
let app; // { client_id, client_secret }

// ---------------------------------------------------------------------------------------------
// The app's side, from node

function api(pathname, options) {
  return callApi(service.loopback, pathname, options);
}

async function adminToken() {
  // Only admins owe a second factor here: ada (superadmin) gets a token with her password.
  const res = await api('/admin/api/session', {
    method: 'POST',
    json: { username: 'ada', password: 'ada-demo' },
  });
  assert.equal(res.status, 200, `admin sign-in: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** The claims of the id_token that `code` (from `request`) gets. */
async function idTokenClaims(request, code) {
  const res = await api('/oauth/token', {
    method: 'POST',
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback.uri,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: request.verifier,
    },
  });
  assert.equal(res.status, 200, `token exchange: ${JSON.stringify(res.body)}`);
  const payload = res.body.id_token.split('.')[1];
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

function request(state) {
  return authorizeRequest(service.base, {
    clientId: app.client_id,
    redirectUri: callback.uri,
    scope: 'openid profile',
    state,
  });
}

// ---------------------------------------------------------------------------------------------
// The browser

/**
 * A page with a virtual platform authenticator of its own (CTAP2, resident keys, a PIN or
 * biometric it always finds right), and a list of the page's CSP violations and script errors.
 */
async function pageWithAuthenticator(t) {
  const context = await openContext(browser, t, { viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const remove = () => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  // What the authenticator answers wrongly from now on (isBogusSignature, isBadUV, isBadUP).
  const override = (bits) =>
    cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId, ...bits });
  return { page, problems, credentials, override, remove, cdp };
}

/** A second device: another virtual authenticator, as the first one's. */
async function anotherAuthenticator(cdp) {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

/** Adds a passkey named `name` from the account page. */
async function addFromAccount(page, name) {
  await page.goto(`${service.base}/account`);
  await page.getByRole('link', { name: 'Add a passkey' }).click();
  await page.getByRole('heading', { name: 'Add a passkey' }).waitFor();
  await page.getByLabel('Name of the passkey').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').filter({ hasText: 'Your new passkey was added.' }).waitFor();
}

/** Collects what the console says about refused scripts (CSP), and uncaught script errors. A
 * page answered with an error status (a favicon nobody serves, an error page asked for) is no
 * problem here. */
function watchProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !text.startsWith('Failed to load resource')) {
      problems.push(`${text} ${message.location().url}`);
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `passkeys-${name}.png`), fullPage: true });
}

/** The `content-security-policy` of the page `page.goto(url)` lands on. */
async function policyOf(page, url) {
  const response = await page.goto(url);
  return response.headers()['content-security-policy'];
}

/** Waits for the app's callback of `state` (on the consent page first when it shows) and
 * answers its code. */
async function codeFor(page, state) {
  await page.waitForURL(
    (u) => u.href.startsWith(callback.uri) || u.pathname === '/oauth/consent',
  );
  if (!page.url().startsWith(callback.uri)) {
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
  }
  const query = await callback.waitFor(state);
  assert.equal(typeof query.code, 'string', JSON.stringify(query));
  return query.code;
}

async function signOut(page) {
  await page.goto(`${service.base}/oauth/logout`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
}

describe('passkeys in a real browser', () => {
  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      service = await startService(
        { SSO_BRIDGE__MFA__REQUIRED_ROLES: 'admin', SSO_BRIDGE__MFA__PASSWORDLESS: 'true' },
        { host: 'localhost' },
      );
      const created = await createApp(service.loopback, await adminToken(), 'Wiki', callback.uri);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      app = created.body;
      browser = await launchBrowser();
    },
    { timeout: 2 * TEST_TIMEOUT_MS },
  );

  after(
    async () => {
      for (const step of [() => browser?.close(), () => callback?.close()]) {
        try {
          await step();
        } catch (e) {
          console.error(e);
        }
      }
      if (service) await stopService(service);
    },
    { timeout: TEST_TIMEOUT_MS },
  );

  test(
    'an admin adds a passkey, signs out, and signs in with password and passkey, then with the passkey alone',
    { timeout: 2 * TEST_TIMEOUT_MS },
    async (t) => {
      const { page, problems, credentials, override } = await pageWithAuthenticator(t);

      // First sign-in: the second factor is due and none is set up.
      const first = request('enrol');
      await page.goto(first.url);
      await signIn(page, GRACE);
      await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
      await page.getByLabel('Name of the passkey').fill('Work laptop');
      await screenshot(page, 'enrol');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      const enrolled = await idTokenClaims(first, await codeFor(page, 'enrol'));
      assert.deepEqual([...enrolled.amr].sort(), ['hwk', 'pwd', 'user']);
      const stored = await credentials();
      assert.equal(stored.length, 1, 'the authenticator holds one passkey');
      assert.equal(stored[0].isResidentCredential, true, 'the passkey is discoverable');

      // Password, then the passkey as the second factor.
      await signOut(page);
      const second = request('second-factor');
      await page.goto(second.url);
      await signIn(page, GRACE);
      await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
      // Grace has no authenticator app: no code form to fall back to.
      assert.equal(await page.locator('input[name="otp"]').count(), 0);
      await screenshot(page, 'second-factor');
      await page.getByRole('button', { name: 'Use your passkey' }).click();
      const claims = await idTokenClaims(second, await codeFor(page, 'second-factor'));
      assert.equal(claims.sub, 'grace');
      assert.ok(claims.amr.includes('pwd'), JSON.stringify(claims.amr));
      assert.ok(claims.amr.includes('hwk'), JSON.stringify(claims.amr));

      // The passkey alone: it names the person, and its PIN stands for the password.
      await signOut(page);
      const third = request('passwordless');
      await page.goto(third.url);
      await screenshot(page, 'signin');
      // A signature that does not verify is refused, and the page offers the passkey again.
      await override({ isBogusSignature: true });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: 'That passkey was not accepted' }).waitFor();
      await screenshot(page, 'signin-refused');
      await override({ isBogusSignature: false });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const alone = await idTokenClaims(third, await codeFor(page, 'passwordless'));
      assert.equal(alone.sub, 'grace');
      assert.ok(alone.amr.includes('hwk'), JSON.stringify(alone.amr));
      assert.ok(alone.amr.includes('user'), JSON.stringify(alone.amr));
      assert.ok(!alone.amr.includes('pwd'), JSON.stringify(alone.amr));

      assert.deepEqual(problems, [], 'no refused script and no script error');
    },
  );

  test('only the pages that run a ceremony may run a script', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const context = await openContext(browser, t);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const signInPolicy = await policyOf(page, request('csp').url);
    assert.match(signInPolicy, /script-src 'self'(;|$)/);
    assert.doesNotMatch(signInPolicy, /unsafe-inline|unsafe-eval/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();

    const script = await page.request.get(`${service.base}/assets/passkey.js`);
    assert.equal(script.status(), 200);
    assert.match(script.headers()['content-type'], /javascript/);

    for (const pathname of ['/oauth/logout', '/oauth/authorize?client_id=nobody']) {
      const policy = await policyOf(page, `${service.base}${pathname}`);
      assert.match(policy, /default-src 'none'/, pathname);
      assert.doesNotMatch(policy, /script-src/, pathname);
    }
    // The consent page, after a password sign-in that owes nothing more.
    await page.goto(request('csp').url);
    await signIn(page, ALAN);
    await page.waitForURL((u) => u.pathname === '/oauth/consent');
    const consent = await page.request.get(page.url());
    assert.doesNotMatch(consent.headers()['content-security-policy'], /script-src/);
    assert.deepEqual(problems, []);
  });

  test('without scripts the passkey forms stay hidden and the password still signs in', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const context = await openContext(browser, t, { javaScriptEnabled: false });
    const page = await context.newPage();
    const flow = request('no-script');
    await page.goto(flow.url);
    assert.equal(await page.getByRole('button', { name: 'Sign in with a passkey' }).count(), 0);
    await signIn(page, ALAN);
    await screenshot(page, 'no-script-consent');
    const claims = await idTokenClaims(flow, await codeFor(page, 'no-script'));
    assert.deepEqual(claims.amr, ['pwd']);
  });

  test(
    'on the account page a person adds a second passkey, renames it and removes it',
    { timeout: 2 * TEST_TIMEOUT_MS },
    async (t) => {
      const { page, problems, credentials, remove, cdp } = await pageWithAuthenticator(t);
      await page.goto(`${service.base}/account/login`);
      await signIn(page, ALAN);
      await page.waitForURL((u) => u.pathname === '/account');

      await addFromAccount(page, 'Laptop');
      assert.equal((await credentials()).length, 1);
      // The second passkey on another device: the first one's would refuse to make a second.
      await remove();
      const second = await anotherAuthenticator(cdp);
      await addFromAccount(page, 'Desk key');
      assert.equal((await second()).length, 1);
      const passkeys = page.locator('#passkeys .passkey');
      assert.equal(await passkeys.count(), 2);
      await screenshot(page, 'account-added');

      const desk = passkeys.filter({ has: page.getByRole('heading', { name: 'Desk key' }) });
      await desk.getByLabel('Name').fill('Office key');
      await desk.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('status').filter({ hasText: 'Your passkey was renamed.' }).waitFor();
      await page.locator('#passkeys h4', { hasText: 'Office key' }).waitFor();
      await screenshot(page, 'account-renamed');

      const office = passkeys.filter({ has: page.getByRole('heading', { name: 'Office key' }) });
      await office.getByRole('button', { name: 'Remove this passkey' }).click();
      await page.getByRole('status').filter({ hasText: 'Your passkey was removed.' }).waitFor();
      assert.equal(await passkeys.count(), 1);
      assert.equal(await page.locator('#passkeys h4').textContent(), 'Laptop');
      await screenshot(page, 'account-removed');
      const activity = await page.locator('body').textContent();
      assert.match(activity, /passkey renamed/);
      assert.deepEqual(problems, [], 'no refused script and no script error');
    },
  );
});
