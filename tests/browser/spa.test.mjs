// A browser app on another origin, as a single-page app developer writes one: oidc-client-ts from
// the npm registry, in Debian's headless Chromium, signs in (a public app, PKCE), reads userinfo,
// refreshes, revokes its tokens and signs out through the end-session endpoint, every call to
// sso-bridge a cross-origin fetch the browser allows only with sso-bridge's CORS headers.
//
// The page and the oidc-client-ts bundle (node_modules/oidc-client-ts/dist/browser) are served by
// a small server of this file on another loopback address (127.0.0.2), so the app's origin is
// not sso-bridge's (127.0.0.1). Nothing is fetched from anywhere else.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  TEST_TIMEOUT_MS,
  callApi,
  launchBrowser,
  openContext,
  signIn,
  startService,
  stopService,
} from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BUNDLE = readFileSync(
  path.join(here, 'node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js'),
);
const ALAN = { username: 'alan', password: 'alan-demo' };

/** The app: one page, its script, and the library, on 127.0.0.2. */
function appPage(config) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Browser app</title>
<script src="/oidc-client-ts.js"></script>
<script>
const config = ${JSON.stringify(config)};
const manager = new oidc.UserManager({
  authority: config.authority,
  client_id: config.clientId,
  redirect_uri: location.origin + '/callback',
  post_logout_redirect_uri: location.origin + '/signed-out',
  response_type: 'code',
  scope: 'openid profile',
  loadUserInfo: true,
  automaticSilentRenew: false,
  userStore: new oidc.WebStorageStateStore({ store: window.sessionStorage }),
});
function summary(user) {
  return user && {
    sub: user.profile.sub,
    name: user.profile.name,
    sid: user.profile.sid,
    accessToken: user.access_token,
    refreshToken: user.refresh_token,
  };
}
window.app = {
  signIn: () => manager.signinRedirect(),
  callback: async () => summary(await manager.signinRedirectCallback()),
  user: async () => summary(await manager.getUser()),
  userinfo: async (token) => {
    const res = await fetch(config.authority + '/oauth/userinfo', {
      headers: { authorization: 'Bearer ' + token },
    });
    return { status: res.status, body: await res.json() };
  },
  refresh: async () => summary(await manager.signinSilent()),
  revoke: () => manager.revokeTokens(['access_token', 'refresh_token']),
  signOut: () => manager.signoutRedirect(),
};
</script></head>
<body><h1>Browser app</h1></body></html>`;
}

/** Serves the app on 127.0.0.2 at a free port; answers { origin, close }. */
async function startAppServer(config) {
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://app.invalid');
    if (url.pathname === '/oidc-client-ts.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(BUNDLE);
    } else if (['/', '/callback', '/signed-out'].includes(url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(appPage(config()));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  srv.keepAliveTimeout = 1_000;
  await new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.2', resolve);
  });
  return {
    origin: `http://127.0.0.2:${srv.address().port}`,
    close: () =>
      new Promise((resolve) => {
        srv.close(resolve);
        srv.closeAllConnections();
      }),
  };
}

let server;
let appServer;
let browser;
let clientId;

describe('a browser app on another origin with oidc-client-ts', () => {
  before(async () => {
    // The second factor is another test's subject: this one is about the app.
    server = await startService({ SSO_BRIDGE__MFA__REQUIRED_ROLES: '' });
    appServer = await startAppServer(() => ({ authority: server.base, clientId }));
    const session = await callApi(server.base, '/admin/api/session', {
      method: 'POST',
      json: { username: 'ada', password: 'ada-demo' },
    });
    assert.equal(session.status, 200);
    const created = await callApi(server.base, '/admin/api/apps', {
      method: 'POST',
      headers: { authorization: `Bearer ${session.body.token}` },
      json: {
        name: 'Browser app',
        public: true,
        redirect_uris: [`${appServer.origin}/callback`],
        post_logout_redirect_uris: [`${appServer.origin}/signed-out`],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.client_secret, undefined);
    clientId = created.body.client_id;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await appServer?.close();
    if (server) await stopService(server);
  });

  test(
    'signs in with PKCE, reads userinfo, refreshes, revokes and signs out across origins',
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      const context = await openContext(browser, t);
      const page = await context.newPage();
      const failed = [];
      page.on('console', (m) => {
        if (m.type() === 'error') failed.push(m.text());
      });

      await page.goto(`${appServer.origin}/`);
      assert.notEqual(new URL(page.url()).origin, new URL(server.base).origin);
      await Promise.all([page.waitForURL(`${server.base}/**`), page.evaluate(() => { app.signIn(); })]);
      await signIn(page, ALAN);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.waitForURL(`${appServer.origin}/callback?**`);

      // The code exchange and the userinfo call are cross-origin fetches from the app's page.
      const user = await page.evaluate(() => app.callback());
      assert.equal(user.sub, 'alan');
      assert.equal(user.name, 'Alan Turing', 'userinfo was read');
      assert.equal(typeof user.sid, 'string');
      assert.equal(typeof user.refreshToken, 'string');
      const info = await page.evaluate((token) => app.userinfo(token), user.accessToken);
      assert.equal(info.status, 200);
      assert.equal(info.body.sub, 'alan');

      // A refresh through the token endpoint: new tokens, the same session.
      const refreshed = await page.evaluate(() => app.refresh());
      assert.equal(refreshed.sub, 'alan');
      assert.equal(refreshed.sid, user.sid);
      assert.notEqual(refreshed.accessToken, user.accessToken);
      assert.notEqual(refreshed.refreshToken, user.refreshToken);
      const fresh = await page.evaluate((token) => app.userinfo(token), refreshed.accessToken);
      assert.equal(fresh.status, 200);

      // Revoked: the token is refused, and the page can read why (CORS on errors too).
      await page.evaluate(() => app.revoke());
      const refused = await page.evaluate((token) => app.userinfo(token), refreshed.accessToken);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, 'invalid_token');

      // Signed out through the end-session endpoint, back at the app.
      await Promise.all([
        page.waitForURL(`${appServer.origin}/signed-out**`),
        page.evaluate(() => { app.signOut(); }),
      ]);

      // The next sign-in asks for the password again.
      await page.goto(`${appServer.origin}/`);
      await Promise.all([page.waitForURL(`${server.base}/**`), page.evaluate(() => { app.signIn(); })]);
      await page.getByLabel('Password').waitFor();
      assert.deepEqual(
        failed.filter((m) => /CORS|Access-Control/i.test(m)),
        [],
        'no request was refused by the browser',
      );
    },
  );
});
