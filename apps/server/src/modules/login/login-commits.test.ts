import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../seed.ts';
import { postAuthorize, WEB_REDIRECT } from '../../test-support/test-app.ts';
import { withTestApp } from '../../test-support/test-app.ts';

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

describe('the SPA login commits (sqlite)', () => {
  const t = withTestApp('sqlite');

  it('commits the login step twice and the authorize post with its ticket once', async () => {
    const login = await counted(() =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id: DEMO.card.email, password: DEMO.card.password, recaptcha_token: 'dev', client_id: 'SIAP009' } }),
    );
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
