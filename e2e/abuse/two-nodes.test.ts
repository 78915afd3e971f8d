import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSystem, type RunningSystem } from '../support/server.ts';
import {
  authorize,
  codeOf,
  DEMO_CARD,
  DEMO_OPEN,
  exchange,
  get,
  login,
  pkce,
  post,
  refresh,
  type Answer,
  type Pkce,
  type Tokens,
} from './support/client.ts';
import { createTestDb } from './support/db.ts';
import { startBalancer, UPSTREAM_HEADER, type Balancer } from './support/nginx.ts';

/**
 * Two nodes (docs/security.md "Faults and load"): two server processes on one PostgreSQL database
 * behind nginx (round robin, no affinity). Every rule that must hold across requests lives in the
 * database (docs/operations.md "Running many nodes"), so a member, a lockout and a one-time secret
 * behave the same whichever node answers. A check that needs to know the node calls the node's own
 * origin; the others go through the balancer. Both nodes believe they are the balancer's origin
 * (PUBLIC_ORIGIN), as the redirect URIs and the issuer (RFC 9207 `iss`) must name what members see.
 */

/** Wrong passwords before the lock (decision 0003; SPEC.md section 8, result 203). */
const LOCK_AFTER = 10;
/** Redemptions of one secret on each node at once. */
const RACERS_PER_NODE = 50;

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let nodes: RunningSystem[] = [];
let lb: Balancer | undefined;
/** The balancer's origin: the nodes' PUBLIC_ORIGIN. */
let edge = '';

const db = () => testDb.db.kysely;
const both = () => nodes.map((n) => n.origin);
const spaRedirect = () => `${edge}/content/oauth/callback`;

beforeAll(async () => {
  testDb = await createTestDb('postgres');
  const port = await freePort();
  edge = `http://localhost:${port}`;
  const env = {
    DATABASE_URL: testDb.url,
    PUBLIC_ORIGIN: edge,
    // Behind the balancer the client's address and protocol come from X-Forwarded-* (docs/operations.md).
    TRUST_PROXY: 'true',
    // Keyed digests (login throttle, card lookups) must match across nodes: one key for all.
    LOOKUP_KEY: 'two-nodes-shared-lookup-key-0123456789abcdef',
  };
  // Both nodes start at once, as a deployment rolls them out: migrations and the demo seed race.
  const started = await Promise.allSettled([startSystem({ env }), startSystem({ env })]);
  nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  lb = await startBalancer(port, nodes.map((n) => n.port));
});

afterAll(async () => {
  await lb?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await testDb?.drop();
});

/** The location's query parameters of a 303 from the authorize endpoint. */
const redirectParams = (a: Answer) => new URL(a.headers.get('location') ?? 'http://invalid/').searchParams;

/** The login form posted to `node` for the SPA's client (its redirect URI under the balancer's origin). */
const loginForm = (node: string, user: string, password: string, p: Pkce = pkce()) =>
  authorize(node, { user, password, pkce: p, redirectUri: spaRedirect() });

/** What a login attempt on `node` came to: 'code', or why the login page was shown again ('credentials', 'locked'). */
async function attempt(node: string, user: string, password: string): Promise<string> {
  const q = redirectParams(await loginForm(node, user, password));
  return q.has('code') ? 'code' : (q.get('login_result') ?? q.get('error_description') ?? 'none');
}

/** Exchanges a code on `node`; `terminal` (client.ts's default otherwise) names the token family in the database. */
const exchangeOn = (node: string, code: string, p: Pkce, terminal?: string) =>
  exchange(node, code, p, { redirect_uri: spaRedirect(), ...(terminal ? { terminal_id: terminal } : {}) });

/** The e-mail of the member whose access token this is, as `node` sees it (undefined when refused). */
async function emailOn(node: string, accessToken: string): Promise<unknown> {
  const res = await post(node, '/api/user', { token: accessToken });
  return res.status === 200 ? res.json?.email : undefined;
}

/** Answers split by status: how many 200, and the other statuses and OAuth errors seen. */
function tally(answers: Answer[]) {
  return {
    ok: answers.filter((a) => a.status === 200).length,
    refused: [...new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${String(a.json?.error)}`))],
  };
}

/** `n` calls of `fn` for each node, all at once, interleaved so that both nodes take them together. */
const acrossNodes = <T>(n: number, fn: (node: string) => Promise<T>) =>
  Promise.all(Array.from({ length: n * nodes.length }, (_, i) => fn(both()[i % nodes.length] as string)));

const familiesOf = (terminal: string) => db().selectFrom('token_families').selectAll().where('terminal_id', '=', terminal).execute();

describe('two nodes on one PostgreSQL behind nginx', () => {
  it('both nodes started at once on one empty database, with the demo data seeded once', async () => {
    const users = await db().selectFrom('users').select('email').orderBy('email').execute();
    expect(users.map((u) => u.email)).toEqual([DEMO_CARD.user, DEMO_OPEN.user]);
    expect(await db().selectFrom('sub_users').select('id').execute()).toHaveLength(1);
    expect(await db().selectFrom('point_accounts').select('points').execute()).toEqual([{ points: 1200 }]);
    // Each member's two web terms (config/clients.json, SIAP009), written with the member: no half seed.
    expect(await db().selectFrom('term_acceptances').select('user_id').execute()).toHaveLength(4);
  });

  it('a member logged in through node 1 refreshes through node 2, and every access token works on both', async () => {
    const [one, two] = both() as [string, string];
    const p = pkce();
    const issued = await exchangeOn(one, codeOf(await loginForm(one, DEMO_CARD.user, DEMO_CARD.password, p)), p);
    expect(issued.status, issued.text).toBe(200);
    const first = issued.json as unknown as Tokens;
    expect([await emailOn(one, first.access_token), await emailOn(two, first.access_token)]).toEqual([DEMO_CARD.user, DEMO_CARD.user]);

    const rotated = await refresh(two, first.refresh_token);
    expect(rotated.status, rotated.text).toBe(200);
    const second = rotated.json as unknown as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect([await emailOn(one, second.access_token), await emailOn(two, second.access_token)]).toEqual([DEMO_CARD.user, DEMO_CARD.user]);
    // Node 1 knows the rotation node 2 made: the new refresh token goes on there.
    expect((await refresh(one, second.refresh_token)).status).toBe(200);
  });

  it('a login lockout counted on both nodes holds on both (decision 0003)', async () => {
    // Ten wrong passwords at once, half on each node: one count, so exactly the tenth locks.
    const tries = await Promise.all(Array.from({ length: LOCK_AFTER }, (_, i) => attempt(both()[i % 2] as string, DEMO_OPEN.user, `Wrong${i}pass`)));
    expect(tries.filter((t) => t === 'locked')).toHaveLength(1);
    expect(tries.filter((t) => t === 'credentials')).toHaveLength(LOCK_AFTER - 1);
    // The right password is refused on either node and through the balancer (OWASP ASVS 5.0 V6.3.1).
    for (const node of [...both(), edge]) expect(await attempt(node, DEMO_OPEN.user, DEMO_OPEN.password)).toBe('locked');
    const locks = await db().selectFrom('login_throttle').selectAll().where('locked_until', '>', Date.now()).execute();
    expect(locks).toHaveLength(1);
  });

  it('an authorization code exchanged 50 times on each node at once is redeemed once (RFC 6749 section 4.1.2)', async () => {
    const p = pkce();
    const code = codeOf(await loginForm(edge, DEMO_CARD.user, DEMO_CARD.password, p));
    const answers = await acrossNodes(RACERS_PER_NODE, (node) => exchangeOn(node, code, p, 'terminal-race-code'));
    expect(tally(answers)).toEqual({ ok: 1, refused: ['400 invalid_grant'] });
    const families = await familiesOf('terminal-race-code');
    expect(families).toHaveLength(1);
    const grants = await db().selectFrom('token_grants').select('id').where('family_id', '=', families[0]?.id ?? '').execute();
    expect(grants).toHaveLength(1);
  });

  it('a direct-login one-time token redeemed 50 times on each node at once gives one token family (decision 0006)', async () => {
    const { access_token } = await login(edge, DEMO_CARD.user, DEMO_CARD.password);
    const issued = await post(edge, '/api/auth/user_onetime_token', { token: access_token, json: {} });
    const onetime = String(issued.json?.onetime_token);
    const answers = await acrossNodes(RACERS_PER_NODE, (node) =>
      post(node, '/api/auth/direct_login/token', {
        form: { grant_type: 'password', onetime_token: onetime, client_id: 'SIAP009', terminal_id: 'terminal-race-dl' },
      }),
    );
    expect(tally(answers)).toEqual({ ok: 1, refused: ['400 invalid_grant'] });
    expect(await familiesOf('terminal-race-dl')).toHaveLength(1);
  });

  it('the login flow and the SPA work end to end through the balancer, which spreads them over both nodes', async () => {
    const answered = new Set<string | null>();
    const p = pkce();
    const form = await authorize(edge, { user: DEMO_CARD.user, password: DEMO_CARD.password, pkce: p });
    answered.add(form.headers.get(UPSTREAM_HEADER));
    // The redirect and the issuer name the balancer, whichever node answered (RFC 9207).
    expect(new URL(form.headers.get('location') ?? '').origin).toBe(edge);
    expect(redirectParams(form).get('iss')).toBe(edge);
    const token = await exchange(edge, codeOf(form), p);
    answered.add(token.headers.get(UPSTREAM_HEADER));
    expect(token.status, token.text).toBe(200);
    expect(await emailOn(edge, (token.json as unknown as Tokens).access_token)).toBe(DEMO_CARD.user);

    const page = await get(edge, '/content/login');
    answered.add(page.headers.get(UPSTREAM_HEADER));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The SPA's script (about 600 kB, more than nginx buffers in memory) goes through nginx whole.
    const scripts = [...page.text.matchAll(/src="(\/content\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    for (const path of scripts) {
      const [viaEdge, direct] = await Promise.all([get(edge, path), get(both()[0] as string, path)]);
      answered.add(viaEdge.headers.get(UPSTREAM_HEADER));
      expect(viaEdge.status).toBe(200);
      expect(viaEdge.text).toBe(direct.text);
    }
    expect([...answered].sort()).toEqual(nodes.map((n) => `127.0.0.1:${n.port}`).sort());
  });
});
