import { describe, expect, it, vi } from 'vitest';
import { NamingClient } from '../../db/pg-statements.ts';
import { directSqlite } from '../../db/sqlite.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { basic, bearer, withTestApp, form, loginTokens, NET_ANSWER } from '../../test-support/test-app.ts';
import { subjectFor } from '../oidc/subject.ts';

describe.each(DIALECTS)('revocation and introspection (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const introspect = (token: string, headers: Record<string, string> = NET_ANSWER) =>
    t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, headers) });
  const revoke = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form(fields, headers) });

  it('introspects a live access token for a confidential client', async () => {
    const tokens = await loginTokens(t.app);
    const res = await introspect(tokens.access_token);
    expect(res.statusCode).toBe(200);
    // `sub` is Net Answer's own identifier of the member, as its ID tokens carry it (decision 0025), never the member id.
    const sub = subjectFor({ client_id: 'SIAP004' }, 'demo-card-member');
    expect(res.json()).toMatchObject({ active: true, client_id: 'SIAP009', sub, token_type: 'Bearer', terminal_id: 'terminal-1' });
    expect((await introspect('unknown-token')).json()).toEqual({ active: false });
  });

  it('reads the caller\'s failure counters and enabled flag in one statement: two statements an introspection', async () => {
    const tokens = await loginTokens(t.app);
    await introspect(tokens.access_token);
    // Every statement the database is sent: better-sqlite3's prepare (each statement, from its cache), or node-postgres' query.
    const sqlite = directSqlite(t.testDb.db.kysely);
    const sent = sqlite ? vi.spyOn(sqlite, 'prepare') : vi.spyOn(NamingClient.prototype, 'query');
    try {
      const res = await introspect(tokens.access_token);
      expect(res.json()).toMatchObject({ active: true, client_id: 'SIAP009' });
      const texts = sent.mock.calls.map(([text]) => String(text));
      expect(texts).toHaveLength(2);
      expect(texts[0]).toMatch(/"rate_limits".* union all .*"oauth_clients"/);
      expect(texts[1]).toMatch(/"token_grants"/);
    } finally {
      sent.mockRestore();
    }
  });

  it('requires HTTP Basic of a confidential client for introspection', async () => {
    const tokens = await loginTokens(t.app);
    for (const headers of [{}, basic('SIAP004', 'wrong'), basic('SIAP009', ''), bearer(tokens.access_token)]) {
      const res = await introspect(tokens.access_token, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_client');
    }
  });

  it('revokes the session: access token rejected, refresh refused, introspection inactive', async () => {
    const tokens = await loginTokens(t.app);
    const res = await revoke({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: 'SIAP009' }, bearer(tokens.access_token));
    expect(res.statusCode).toBe(200);
    expect((await introspect(tokens.access_token)).json()).toEqual({ active: false });
    expect((await introspect(tokens.refresh_token)).json()).toEqual({ active: false });
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' }),
    });
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('answers 200 for unknown tokens and never lets one client revoke another client\'s token', async () => {
    expect((await revoke({ token: 'nope', client_id: 'SIAP009' })).statusCode).toBe(200);
    const tokens = await loginTokens(t.app);
    expect((await revoke({ token: tokens.access_token, client_id: 'SIAP005' })).statusCode).toBe(200);
    expect((await introspect(tokens.access_token)).json().active).toBe(true);
    expect((await revoke({ token: tokens.access_token })).statusCode).toBe(401);
  });
});
