import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../seed.ts';
import { eventually } from '../../test-support/eventually.ts';
import { authorizeQuery, postAuthorize, TEST_ORIGIN, WEB_REDIRECT, withTestApp, type TestApp } from '../../test-support/test-app.ts';

/**
 * The SPA's password login commits as few times as its writes need on SQLite (db/one-commit.ts): each
 * commit writes the WAL's frames and takes its locks (docs/performance.md "The SPA login"). Commits
 * are counted on the driver itself: a write statement outside a transaction is one, and so is each
 * COMMIT.
 */
let commits = 0;
const prepare = SQLite.prototype.prepare;
SQLite.prototype.prepare = function (this: SQLite.Database, source: string) {
  const statement = prepare.call(this, source);
  for (const method of ['run', 'all', 'get'] as const) {
    const call = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
      if (/^\s*commit\b/i.test(source) || (!statement.reader && !statement.database.inTransaction && !/^\s*begin\b/i.test(source))) commits++;
      return call.apply(this, args);
    } as never;
  }
  return statement;
} as typeof prepare;

const counted = async <T>(request: () => Promise<T>): Promise<{ result: T; commits: number }> => {
  const before = commits;
  const result = await request();
  return { result, commits: commits - before };
};

const loginStep = (t: TestApp, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { id: DEMO.card.email, password: DEMO.card.password, recaptcha_token: 'dev', client_id: 'SIAP009' } });

describe('the SPA login commits (sqlite)', () => {
  const t = withTestApp('sqlite');

  it('commits the login step twice and the authorize post with its ticket once', async () => {
    const login = await counted(() => loginStep(t));
    expect(login.result.json()).toMatchObject({ result_code: 0, login_ticket: expect.any(String) });
    // The counts before the hash, then the counts taken back with the ticket.
    expect(login.commits).toBe(2);

    const ticket = login.result.json().login_ticket as string;
    const authorized = await counted(() => postAuthorize(t.app, { user: DEMO.card.email, password: '', recaptcha: '', ticket }));
    expect(authorized.result.statusCode).toBe(303);
    expect(authorized.result.headers.location).toMatch(new RegExp(`^${WEB_REDIRECT}\\?code=`));
    // The ticket used up with the code, the session and the activity row, in the code's transaction.
    expect(authorized.commits).toBe(1);
    // The ticket stays used up: without a password, the member signs in again.
    const again = await postAuthorize(t.app, { user: DEMO.card.email, password: '', recaptcha: '', ticket });
    expect(again.headers.location).toContain('login_result=credentials');
  });
});

describe('the SPA login commits from a known browser (sqlite, sign-in notice on)', () => {
  const t = withTestApp('sqlite', { LOGIN_NOTICE: 'true' });
  const devices = () => t.testDb.db.kysely.selectFrom('member_devices').select('last_seen_at').where('user_id', '=', DEMO.card.id).execute();
  const formPost = (ticket: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/authorize?${authorizeQuery()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams({ user_mail: DEMO.card.email, login_ticket: ticket }).toString(),
    });

  it("writes a known browser's sighting in the code's commit, and nothing after the answer", async () => {
    // A new browser: noted after the answer (its row, its log row, its mail).
    const first = await formPost((await loginStep(t)).json().login_ticket as string);
    const cookie = [first.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sso_device='))?.split(';')[0] ?? '';
    expect(cookie).not.toBe('');
    await eventually(async () => expect(await devices()).toHaveLength(1));

    t.clock.advance(60_000);
    const ticket = (await loginStep(t, { cookie })).json().login_ticket as string;
    const before = commits;
    const known = await formPost(ticket, cookie);
    expect(known.headers.location).toMatch(new RegExp(`^${WEB_REDIRECT}\\?code=`));
    // The sighting is written by the time the answer is out, and nothing more is committed after it.
    expect(await devices()).toEqual([{ last_seen_at: t.clock.now() }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(commits - before).toBe(1);
  });
});
