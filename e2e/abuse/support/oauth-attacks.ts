import { expect } from 'vitest';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { authorizeQuery as harnessAuthorizeQuery } from '@sso/server/test-support';
import type { Database } from '@sso/server/test-support/internals';
import { NET_ANSWER_AUTH, post, refresh, spaClient, type Answer, type Pkce, type Tokens } from './client.ts';
import { openSystemDb } from './db.ts';

/**
 * Shared helpers of the OAuth/HTTP attack checks (oauth-attacks.test.ts, browser-attacks.test.ts):
 * what a client or a resource server sees of a session, and row counts read from the system's
 * database to show that a refused request left nothing behind.
 */

/** RFC 7662 introspection as Net Answer (SIAP004, a confidential resource server) asks it. */
export const introspect = (origin: string, token: string) => post(origin, '/api/subuser/introspect', { form: { token }, headers: NET_ANSWER_AUTH });

export interface SessionView {
  /** Status of POST /api/user with the access token (200 live, 401 not). */
  user: number;
  /** Introspection's `active` for the access token and for the refresh token. */
  access: unknown;
  refresh: unknown;
}

export const LIVE: SessionView = { user: 200, access: true, refresh: true };
export const DEAD: SessionView = { user: 401, access: false, refresh: false };

/** How a session's pair looks to the member's client and to a resource server; reads only, never rotates. */
export async function sessionView(origin: string, t: Tokens): Promise<SessionView> {
  const [user, access, refreshed] = await Promise.all([
    post(origin, '/api/user', { token: t.access_token }),
    introspect(origin, t.access_token),
    introspect(origin, t.refresh_token),
  ]);
  return { user: user.status, access: access.json?.active, refresh: refreshed.json?.active };
}

/** An RFC 6749 section 5.2 error answer with this `error` code, and no token in it. */
export function expectOAuthError(a: Answer, error: string, status = 400): void {
  expect({ status: a.status, error: a.json?.error }, a.text).toEqual({ status, error });
  expect(a.json).not.toHaveProperty('access_token');
}

/** A dead session: every view says so, and its refresh token is refused too (a revoked family has no side effects left to trigger). */
export async function expectDead(origin: string, t: Tokens): Promise<void> {
  expect(await sessionView(origin, t)).toEqual(DEAD);
  expectOAuthError(await refresh(origin, t.refresh_token), 'invalid_grant');
}

/** Row counts of the tables a refused request must not add to (authorization codes, direct-login grants). */
export function rowCounter(databaseUrl: string) {
  const db = openSystemDb(databaseUrl);
  const count = async (table: 'auth_codes' | 'direct_logins' | 'token_families') => {
    const row = await db.kysely
      .selectFrom(table as keyof Database)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { count, close: () => db.close() };
}

/**
 * The authorize query of the SPA's client with `p`'s S256 challenge, as an attacker's page would
 * put it into a form action; `overrides` replace or remove (undefined) parameters.
 */
export function authorizeQuery(origin: string, p: Pkce, overrides: Record<string, string | undefined> = {}): string {
  return harnessAuthorizeQuery({ ...spaClient(origin), scope: WEB_SCOPE, challenge: p.challenge, override: overrides }).toString();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
