// Walks the second factor in a real headless Chromium (Debian's /usr/bin/chromium through
// playwright-core): an admin under the default policy sets up an authenticator at first sign-in
// (QR code and secret on the page, first code, recovery codes), then signs in again with a code,
// and once with a recovery code. TOTP codes (RFC 6238) are computed here with node:crypto.
//
// The service runs with its default policy (superadmins and admins need a second factor), on a
// free loopback port, with a small HTTP server playing the app's callback.
//
//   SSO_BRIDGE_BIN  the binary to test (default: ../../target/debug/sso-bridge)
//   CHROMIUM_BIN    the browser (default: /usr/bin/chromium)
//   TEST_LOG=1      copy the service's logs to stderr

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
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
  signIn as submitSignIn,
  startCallbackServer,
  startService,
  stopService,
} from './support.mjs';

const GRACE = { username: 'grace', password: 'grace-demo' };

let service; // { base, child, logs }
let callback; // { uri, hits, close, waitFor }
let browser;

// ---------------------------------------------------------------------------------------------
// RFC 6238 in a few lines

function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out = [];
  for (const c of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(c);
    assert.ok(index >= 0, `not base32: ${text}`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 6-digit code of `secret` for the 30-second step `offset` steps from now. */
function totp(secret, offset = 0) {
  const counter = Math.floor(Date.now() / 1000 / 30) + offset;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const at = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// ---------------------------------------------------------------------------------------------
// The service and the app's callback

function api(pathname, options) {
  return callApi(service.base, pathname, options);
}

/** ada (superadmin, under the policy) sets up a second factor through the admin API and signs
 * in with it; answers an admin token. */
async function adminToken() {
  const credentials = { username: 'ada', password: 'ada-demo' };
  // Before it is set up, the password alone gets no admin token, only the way to set one up.
  const first = await api('/admin/api/session', { method: 'POST', json: credentials });
  assert.equal(first.status, 401, JSON.stringify(first.body));
  assert.equal(first.body.error, 'mfa_enrolment_required');
  assert.match(first.body.error_description, /enrol-mfa/);
  const setup = await api('/admin/api/second-factor/setup', { method: 'POST', json: credentials });
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const secret = base32Decode(setup.body.secret);
  const confirm = { ...credentials, otp: totp(secret), setup_id: setup.body.setup_id };
  const confirmed = await api('/admin/api/second-factor/confirm', { method: 'POST', json: confirm });
  assert.equal(confirmed.body.recovery_codes.length, 10);
  // The confirming code is spent; the next step's code is within the accepted drift.
  const session = { ...credentials, otp: totp(secret, 1) };
  const signedIn = await api('/admin/api/session', { method: 'POST', json: session });
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  return signedIn.body.token;
}

// ---------------------------------------------------------------------------------------------
// The browser

async function newPage(t) {
  const context = await openContext(browser, t, { viewport: { width: 800, height: 900 } });
  return context.newPage();
}

/** Starts an authorization request (with PKCE, as every app must by default) for `app` and
 * signs grace in. */
async function signIn(page, app, state) {
  const request = authorizeRequest(service.base, {
    clientId: app.client_id,
    redirectUri: callback.uri,
    scope: 'openid profile',
    state,
  });
  await page.goto(request.url);
  await submitSignIn(page, GRACE);
  await page.waitForLoadState();
}

/** The query of the app's callback carrying this state, if it came. */
function callbackWith(state) {
  return callback.hits.find((h) => h.query.state === state)?.query;
}

describe('the second factor in a real browser', () => {
  let app;
  let secret;
  let recoveryCodes;

  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      service = await startService();
      const token = await adminToken();
      const created = await createApp(service.base, token, 'Payroll', callback.uri);
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

  test('an admin sets up an authenticator at first sign-in', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const page = await newPage(t);
    await signIn(page, app, 'enrol');
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    const qr = page.getByRole('img', { name: /QR code/ });
    assert.match(await qr.getAttribute('src'), /^data:image\/svg\+xml;base64,/);
    assert.ok((await qr.boundingBox()).width >= 100, 'the QR code is drawn');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mfa-enrol.png'), fullPage: true });
    secret = base32Decode(await page.locator('#totp-secret').innerText());

    await page.locator('input[name="otp"]').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').waitFor();
    await page.locator('input[name="otp"]').fill(totp(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    recoveryCodes = await page.locator('#recovery-codes code').allInnerTexts();
    assert.equal(recoveryCodes.length, 10);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mfa-recovery-codes.png'), fullPage: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((u) => u.href.startsWith(callback.uri));
    assert.equal(typeof callbackWith('enrol')?.code, 'string');
  });

  test('the admin signs in again with a code from the app', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    assert.ok(secret, 'enrolled by the previous test');
    const page = await newPage(t);
    await signIn(page, app, 'verify');
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mfa-verify.png'), fullPage: true });
    // The enrolment spent this step's code; the next step's is within the accepted drift.
    await page.locator('input[name="otp"]').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback.uri));
    assert.equal(typeof callbackWith('verify')?.code, 'string');
  });

  test('a recovery code signs the admin in once', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    assert.ok(recoveryCodes, 'enrolled by the first test');
    const page = await newPage(t);
    await signIn(page, app, 'recovery');
    await page.locator('input[name="otp"]').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'You used a recovery code' }).waitFor();
    assert.equal(await page.locator('#codes-left').innerText(), '9');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback.uri));
    assert.equal(typeof callbackWith('recovery')?.code, 'string');

    const again = await newPage(t);
    await signIn(again, app, 'recovery-again');
    await again.locator('input[name="otp"]').fill(recoveryCodes[0]);
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.getByRole('alert').waitFor();
  });
});
