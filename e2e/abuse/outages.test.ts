import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DevMailbox, type Dialect, OUTBOX_WORKER_INTERVAL_MS, startSmtpSink } from '@sso/server/test-support/internals';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { authorizeQuery, loginForm, pkce, spaClient, TEST_PG_URL } from '@sso/server/test-support';
import { launchBrowser } from '../support/browser.ts';
import { logIn } from '../support/journey.ts';
import { freePort } from '../support/server.ts';
import { DEMO_OPEN, get, login, post, refresh } from './support/client.ts';
import { openSystemDb } from './support/db.ts';
import { sqliteWriteLock, startOn, tcpProxy, type DbFault, type SystemOnDb } from './support/faults.ts';
import { send } from './support/fuzz-http.ts';

/**
 * Faults (docs/security.md "Faults and load"): the database and the mail server going away under a
 * running server. A database that does not answer puts the service out (SPEC.md section 8, result
 * 501 with HTTP 503, as the out-of-service mode answers; RFC 6749 section 5.2
 * `temporarily_unavailable` on the OAuth endpoints), the health check says so, the SPA shows /503,
 * and all of it ends by itself when the database is back. A mail server that is away costs the
 * member nothing: the step answers, and the outbox delivers the mail, once, when the server returns
 * (OWASP ASVS 5.0 V16: fail gracefully).
 */

const OUT_OF_SERVICE = { result_code: 501, result_message: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。' };
const PASSWORD = 'Demo1234';
const loginCheck = (origin: string) =>
  post(origin, '/api/auth/login', { json: { id: DEMO_OPEN.user, password: PASSWORD, recaptcha_token: 'dev', client_id: 'SIAP009' } });

interface Outage {
  on: SystemOnDb;
  fault: DbFault;
}

/** A system whose database the test can take away: SQLite's write lock, or a proxy to PostgreSQL it cuts. */
async function outageOn(dialect: Dialect): Promise<Outage> {
  if (dialect === 'sqlite') {
    const on = await startOn('sqlite', { quiet: true });
    return { on, fault: sqliteWriteLock(on.system.databaseUrl) };
  }
  const proxy = await tcpProxy(Number(new URL(TEST_PG_URL).port || 5432));
  return { on: await startOn('postgres', { quiet: true, pgPort: proxy.port }), fault: proxy };
}

/** A system whose SMTP_URL names a port of 127.0.0.1 where no mail server listens yet. */
async function withoutSmtp(): Promise<{ on: SystemOnDb; smtpPort: number }> {
  const smtpPort = await freePort();
  return { on: await startOn('sqlite', { quiet: true, env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } }), smtpPort };
}

const env = {} as { browser: Browser; sqlite: Outage; postgres: Outage; mail: Awaited<ReturnType<typeof withoutSmtp>> };

beforeAll(async () => {
  [env.browser, env.sqlite, env.postgres, env.mail] = await Promise.all([launchBrowser(), outageOn('sqlite'), outageOn('postgres'), withoutSmtp()]);
});
afterAll(async () => {
  await env.browser?.close();
  for (const o of [env.sqlite, env.postgres]) {
    await o?.fault.close();
    await o?.on.stop();
  }
  await env.mail?.on.stop();
});

/**
 * Logs the demo member in through the SPA in a fresh browser context, waits for the page at `end`
 * to show `shows`, and answers the page's heading.
 */
async function spaLogin(origin: string, end: RegExp, shows: string): Promise<string> {
  const context = await env.browser.newContext({ baseURL: origin, locale: 'ja-JP' });
  try {
    const page = await context.newPage();
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    await logIn(page, DEMO_OPEN.user, PASSWORD);
    await page.waitForURL(end);
    await page.getByText(shows).first().waitFor();
    return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  } finally {
    await context.close();
  }
}

describe.concurrent('faults of the services the server depends on', () => {
  it.for<Dialect>(['sqlite', 'postgres'])('database unavailable on %s: 501, temporarily_unavailable, unhealthy, /503; back without a restart', async (dialect, { expect }) => {
    const { on, fault } = env[dialect];
    const { origin } = on.system;
    const pid = on.system.pid();
    const session = await login(origin, DEMO_OPEN.user, PASSWORD);

    await fault.cut();
    const health = await get(origin, '/api/health');
    expect([health.status, health.json]).toEqual([503, { status: 'unavailable', failing: 'database' }]);
    // Liveness reads nothing: an outage of the database restarts no node (docs/operations.md "Health and draining").
    const live = await get(origin, '/api/health/live');
    expect([live.status, live.json]).toEqual([200, { status: 'ok' }]);
    const member = await loginCheck(origin);
    // With the support reference of the warning logged (docs/operations.md, "Support reference").
    expect([member.status, member.json]).toEqual([503, { ...OUT_OF_SERVICE, reference: expect.stringMatching(/^[0-9a-f]{8}$/) }]);
    expect(member.headers.get('retry-after')).toMatch(/^\d+$/);
    const oauth = await refresh(origin, session.refresh_token);
    expect([oauth.status, oauth.json?.error]).toEqual([503, 'temporarily_unavailable']);
    // The SPA's login form posted to the authorize endpoint is the browser's navigation: it goes to
    // the /503 page, not to a JSON body; the same post from a script keeps its JSON answer, result
    // 501 (http/navigation.ts). Sent with node:http: fetch sets its own Sec-Fetch-Mode (cors).
    const spa = spaClient(origin);
    const query = authorizeQuery({ clientId: spa.clientId, redirectUri: spa.redirectUri, state: 's', scope: WEB_SCOPE, challenge: pkce().challenge });
    const formPost = (headers: Record<string, string>) =>
      send(origin, {
        method: 'POST',
        path: `/api/auth/authorize?${query.toString()}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
        body: Buffer.from(loginForm({ user: DEMO_OPEN.user, password: PASSWORD, recaptcha: 'dev' }).toString()),
      });
    const navigated = await formPost({ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html' });
    expect([navigated.status, navigated.headers.location]).toEqual([303, '/content/503']);
    const scripted = await formPost({ 'sec-fetch-mode': 'cors', accept: 'application/json' });
    expect([scripted.status, JSON.parse(scripted.text)]).toEqual([503, { ...OUT_OF_SERVICE, reference: expect.stringMatching(/^[0-9a-f]{8}$/) }]);
    expect(await spaLogin(origin, /\/content\/503$/, OUT_OF_SERVICE.result_message)).toBe('サービス停止中');

    await fault.restore();
    await expect.poll(async () => (await get(origin, '/api/health')).status, { timeout: 10_000 }).toBe(200);
    const back = await loginCheck(origin);
    expect([back.status, back.json?.result_code]).toEqual([200, 0]);
    // The refresh refused during the outage used nothing up: the same token refreshes now.
    expect((await refresh(origin, session.refresh_token)).status).toBe(200);
    expect(await spaLogin(origin, /\/content\/top$/, DEMO_OPEN.user)).not.toBe('サービス停止中');
    expect(on.system.pid()).toBe(pid);
  });

  it('SMTP unavailable: the step answers success, and the mail goes out once when SMTP returns', async ({ expect }) => {
    const { on, smtpPort } = env.mail;
    const db = openSystemDb(on.system.databaseUrl);
    const mailbox = new DevMailbox();
    let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
    try {
      const email = DEMO_OPEN.user;
      const forgot = await post(on.system.origin, '/api/auth/password/forgot', { json: { email } });
      expect([forgot.status, forgot.json]).toEqual([200, { result_code: 0, result_message: '正常に処理しました。' }]);
      const outbox = () => db.kysely.selectFrom('outbox').selectAll().where('recipient', '=', email).execute();
      // The first delivery was tried and failed: the mail waits in the outbox for a retry.
      await expect.poll(async () => (await outbox()).map((r) => [r.attempts > 0, r.sent_at]), { timeout: 10_000 }).toEqual([[true, null]]);

      sink = await startSmtpSink(mailbox, smtpPort);
      const mails = () => mailbox.list().filter((m) => m.kind === 'mail' && m.to === email);
      // The first retry comes 5 s after the failure (OUTBOX.firstRetryMs), on the worker's 5 s round.
      await expect.poll(() => mails().length, { timeout: 30_000, interval: 100 }).toBe(1);
      expect(mails()[0]!.text).toMatch(/\/content\/recover\/password\?onetime_token=[\w-]{43}/);
      await expect.poll(async () => (await outbox())[0]?.sent_at ?? null).not.toBeNull();
      // A whole worker round later there is still one copy, and one outbox row.
      await new Promise((r) => setTimeout(r, OUTBOX_WORKER_INTERVAL_MS + 1_000));
      expect(mails()).toHaveLength(1);
      expect(await outbox()).toHaveLength(1);
    } finally {
      await db.close();
      await sink?.close();
    }
  });
});
