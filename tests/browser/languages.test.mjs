// The pages in German, French and Spanish, in headless Chromium: chosen by the app's
// ui_locales, by the language menu at the foot of the page (without JavaScript), and by the
// browser's Accept-Language. Screenshots of each sign-in page go to target/browser-screenshots/.

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
  createApp,
  launchBrowser,
  openContext,
  startCallbackServer,
  startService,
  stopService,
  withTimeout,
} from './support.mjs';

let server; // { base, child, logs }
let callback; // { uri, close, waitFor, hits }
let browser;
let app; // { client_id, name }

const ALAN = { username: 'alan', password: 'alan-demo' };

async function registerApp(name) {
  const session = await callApi(server.base, '/admin/api/session', {
    method: 'POST',
    json: { username: 'ada', password: 'ada-demo' },
  });
  assert.equal(session.status, 200, `admin sign-in: ${JSON.stringify(session.body)}`);
  const res = await createApp(server.base, session.body.token, name, callback.uri);
  assert.ok(res.status === 200 || res.status === 201, `register: ${JSON.stringify(res.body)}`);
  return { name, client_id: res.body.client_id };
}

/** An authorize request of the app, with `extra` parameters (ui_locales) added. */
function request(extra = {}) {
  const built = authorizeRequest(server.base, {
    clientId: app.client_id,
    redirectUri: callback.uri,
    scope: 'openid profile',
    state: randomBytes(8).toString('hex'),
  });
  const url = new URL(built.url);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return { ...built, url: url.toString() };
}

/** What the page says of its language: <html lang>, and the response's Content-Language. */
async function language(page, response) {
  return {
    lang: await page.locator('html').getAttribute('lang'),
    header: response ? await response.headerValue('content-language') : undefined,
  };
}

async function heading(page) {
  return (await page.locator('h1').innerText()).trim();
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe('the pages in the person’s language', () => {
  before(
    async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      callback = await startCallbackServer();
      server = await startService({ SSO_BRIDGE__MFA__REQUIRED_ROLES: '' });
      app = await registerApp('Reisekosten');
      browser = await launchBrowser();
    },
    { timeout: 2 * TEST_TIMEOUT_MS },
  );

  after(
    async () => {
      for (const step of [
        () => browser?.close(),
        () => server && stopService(server),
        () => callback?.close(),
      ]) {
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
    'ui_locales=de gives a German sign-in, consent and return to the app, whatever the browser says',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      // The browser prefers English: the app's ui_locales wins for its sign-in.
      const page = await (await openContext(browser, t, { locale: 'en-GB' })).newPage();
      const req = request({ ui_locales: 'de-CH en' });
      const response = await page.goto(req.url);
      assert.deepEqual(await language(page, response), { lang: 'de', header: 'de' });
      assert.equal(await heading(page), 'Anmelden');
      assert.match(await page.locator('.lede').innerText(), /um mit Reisekosten fortzufahren/);
      assert.equal(await page.locator('#lang').inputValue(), 'de', 'the menu shows German');
      await screenshot(page, 'signin-de');

      await page.getByLabel('Benutzername').fill(ALAN.username);
      await page.getByLabel('Passwort').fill('wrong password');
      await page.getByRole('button', { name: 'Anmelden' }).click();
      assert.match(
        await page.locator('[role=alert]').innerText(),
        /Benutzername oder Passwort ist falsch/,
      );
      await page.getByLabel('Passwort').fill(ALAN.password);
      await page.getByRole('button', { name: 'Anmelden' }).click();

      await page.locator('button[name=decision][value=approve]').waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      assert.match(await heading(page), /Reisekosten möchte auf Ihr Konto zugreifen/);
      await screenshot(page, 'consent-de');
      await page.getByRole('button', { name: 'Erlauben', exact: true }).click();
      const query = await callback.waitFor(req.state);
      assert.equal(typeof query.code, 'string', 'the app got its code');
    },
  );

  test(
    'the language menu switches a sign-in page to French without JavaScript, and is remembered',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const context = await openContext(browser, t, { locale: 'en-GB', javaScriptEnabled: false });
      const page = await context.newPage();
      const first = await page.goto(request().url);
      assert.deepEqual(await language(page, first), { lang: 'en', header: 'en' });
      assert.equal(await heading(page), 'Sign in');

      await page.locator('#lang').selectOption('fr');
      const [switched] = await Promise.all([
        page.waitForNavigation(),
        page.getByRole('button', { name: 'Change language' }).click(),
      ]);
      assert.deepEqual(await language(page, switched), { lang: 'fr', header: 'fr' });
      assert.equal(await heading(page), 'Connexion');
      assert.match(await page.locator('.lede').innerText(), /pour continuer vers Reisekosten/);
      // Still the same sign-in: its form is there to fill.
      assert.equal(await page.locator('input[name=username]').count(), 1);
      assert.equal(await page.locator('input[type=hidden][name=request_id]').count(), 1);
      await screenshot(page, 'signin-fr');

      // The choice is a cookie: the next sign-in of this browser is French from the start.
      const again = await page.goto(request().url);
      assert.deepEqual(await language(page, again), { lang: 'fr', header: 'fr' });
      assert.equal(await page.getByLabel('Mot de passe').count(), 1);
    },
  );

  test(
    'Accept-Language: es gives a Spanish sign-in page, and a Spanish error page',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const page = await (await openContext(browser, t, { locale: 'es-ES' })).newPage();
      const response = await page.goto(request().url);
      assert.deepEqual(await language(page, response), { lang: 'es', header: 'es' });
      assert.equal(await heading(page), 'Iniciar sesión');
      assert.equal(await page.getByLabel('Nombre de usuario').count(), 1);
      assert.equal(await page.getByLabel('Contraseña').count(), 1);
      await screenshot(page, 'signin-es');

      const unknown = new URL(request().url);
      unknown.searchParams.set('client_id', randomBytes(16).toString('hex'));
      const error = await page.goto(unknown.toString());
      assert.equal(error.status(), 400);
      assert.deepEqual(await language(page, error), { lang: 'es', header: 'es' });
      assert.equal(await heading(page), 'Aplicación desconocida');
      assert.equal(await page.locator('form').count(), 0, 'an error page stays without a form');
    },
  );
});
