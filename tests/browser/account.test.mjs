// The account page in a real headless Chromium (Debian's /usr/bin/chromium through
// playwright-core): alan signs in to an app, opens /account and sees the app and, once a second
// browser has signed in at the account page's own sign-in, both sessions; he ends the other
// session and removes the app, then sets up an authenticator app from the page (TOTP codes
// computed here with node:crypto) and takes a new set of recovery codes.
//
// The service runs without a second-factor policy (alan, an employee, needs none anyway), on a
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
  signIn,
  startCallbackServer,
  startService,
  stopService,
} from './support.mjs';

const ALAN = { username: 'alan', password: 'alan-demo' };

let service; // { base, child, logs }
let callback; // { uri, hits, close, waitFor }
let browser;

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

/** The 6-digit RFC 6238 code of `secret` now. */
function totp(secret) {
  const counter = Math.floor(Date.now() / 1000 / 30);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const at = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function adminToken() {
  const res = await callApi(service.base, '/admin/api/session', {
    method: 'POST',
    json: { username: 'ada', password: 'ada-demo' },
  });
  assert.equal(res.status, 200, `admin sign-in: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

async function newPage(t) {
  const context = await openContext(browser, t, { viewport: { width: 900, height: 900 } });
  return context.newPage();
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

describe('the account page in a real browser', () => {
  let app;

  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      service = await startService({ SSO_BRIDGE__MFA__REQUIRED_ROLES: '' });
      const created = await createApp(service.base, await adminToken(), 'Payroll', callback.uri);
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
    'a person ends a session, removes an app, sets up an authenticator and takes new codes',
    { timeout: 2 * TEST_TIMEOUT_MS },
    async (t) => {
      // Signed in to an app in this browser.
      const page = await newPage(t);
      const request = authorizeRequest(service.base, {
        clientId: app.client_id,
        redirectUri: callback.uri,
        scope: 'openid profile',
        state: 'account',
      });
      await page.goto(request.url);
      await signIn(page, ALAN);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.waitForURL((u) => u.href.startsWith(callback.uri));

      // And at the account page's own sign-in in another.
      const other = await newPage(t);
      await other.goto(`${service.base}/account`);
      await other.waitForURL((u) => u.pathname === '/account/login');
      await signIn(other, ALAN);
      await other.waitForURL((u) => u.pathname === '/account');

      await page.goto(`${service.base}/account`);
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      await page.locator(`#app-${app.client_id}`).getByRole('heading', { name: 'Payroll' }).waitFor();
      assert.equal(await page.locator('input[name="session"]').count(), 2);
      await page.locator('#this-browser').waitFor();
      await shot(page, 'account-apps-and-sessions.png');

      await page.getByRole('button', { name: 'Sign out there' }).click();
      await page.getByRole('status').filter({ hasText: 'That session has ended.' }).waitFor();
      assert.equal(await page.locator('input[name="session"]').count(), 1);
      await other.reload();
      await other.waitForURL((u) => u.pathname === '/account/login');

      await page.getByRole('button', { name: 'Remove Payroll' }).click();
      await page.getByRole('status').filter({ hasText: 'The app was removed' }).waitFor();
      assert.equal(await page.locator(`#app-${app.client_id}`).count(), 0);

      // An authenticator app, set up from the page (the sign-in is fresh: no re-check).
      await page.getByRole('link', { name: 'Set up an authenticator app' }).click();
      await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
      const qr = page.getByRole('img', { name: /QR code/ });
      assert.match(await qr.getAttribute('src'), /^data:image\/svg\+xml;base64,/);
      await shot(page, 'account-authenticator-set-up.png');
      const secret = base32Decode(await page.locator('#totp-secret').innerText());
      await page.locator('input[name="otp"]').fill(totp(secret));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
      const first = await page.locator('#recovery-codes code').allInnerTexts();
      assert.equal(first.length, 10);
      await page.getByRole('link', { name: 'Continue' }).click();
      await page.waitForURL((u) => u.pathname === '/account');
      const authenticator = page.locator('#authenticator');
      assert.match(await authenticator.innerText(), /Set up on/);
      assert.match(await page.locator('#recovery-codes').innerText(), /10 codes left\./);

      // A new set of recovery codes, shown once.
      await page.getByRole('button', { name: 'Get new recovery codes' }).click();
      await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
      const renewed = await page.locator('#recovery-codes code').allInnerTexts();
      assert.equal(renewed.length, 10);
      assert.ok(renewed.every((code) => !first.includes(code)), 'a different set');
      await shot(page, 'account-new-recovery-codes.png');
      await page.getByRole('link', { name: 'Continue' }).click();
      await page.waitForURL((u) => u.pathname === '/account');

      const activity = page.locator('section[aria-labelledby="activity-heading"]');
      for (const what of ['new recovery codes', 'app removed by the person', 'session ended by the person']) {
        await activity.getByRole('cell', { name: what }).first().waitFor();
      }
      await shot(page, 'account-after-changes.png');

      // Readable on a phone: nothing wider than the screen but the tables, which scroll.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the account page is ${overflow}px wider than a phone`);
      await shot(page, 'account-phone.png');
    },
  );
});
