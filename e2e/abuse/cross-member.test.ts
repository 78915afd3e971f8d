import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@sso/server/test-support/internals';
import { startSystem, type RunningSystem } from '../support/server.ts';
import { basicAuth, DEMO_CARD, get, NET_ANSWER_AUTH, post, refresh, type Answer } from './support/client.ts';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';
import { wantsBearer } from './support/cross-member-routes.ts';
import { A_NEW_TEL, CROSS_MEMBER, NO_INPUT, OPEN_DETAILS, type Body, type Case } from './support/cross-member-table.ts';
import { openSystemDb } from './support/db.ts';
import {
  addPasskey, callAs, directSession, flowWithCode, foreignData, logIn, ok, pointsOf, readIds, readViews, rowsOf, signUpWithPinCard,
  type Member, type Session,
} from './support/members.ts';

/**
 * Broken object level authorization (OWASP ASVS 5.0 V8.2.2: access to data is restricted to the
 * user's own objects; SPEC.md section 6): member B, logged in, calls every Bearer endpoint with
 * member A's ids in every id field, and the other way round. Each answer must be a refusal of
 * SPEC.md section 8 (300 or 902; never 901, which would mean the id was never looked at, never a
 * 5xx) or the caller's own data, never the other member's; the other member's rows and answers
 * stay exactly as they were.
 */

/** Every Bearer endpoint but NO_INPUT, by path (support/cross-member-table.ts). */
const TABLE: Record<string, Case> = CROSS_MEMBER;
const LAST = '/api/auth/cancel';
/** Logs the caller out everywhere: run apart, before the withdrawals. */
const END_ALL = '/api/user/sessions/end_all';

const REFUSALS = [300, 902];

let system: RunningSystem;
let db: Db;
let A: Member;
let B: Member;
const origin = () => system.origin;

async function memberA(): Promise<Member> {
  const o = origin();
  const spa = await logIn(o, DEMO_CARD.user, DEMO_CARD.password, 'terminal-A');
  const call = (path: string, body: Body = {}) => ok(callAs(o, spa.access, path, body));
  // demo.open's account merged into A: A then has open points, and a transfer can wait for its code.
  await call('/api/link/open', OPEN_DETAILS);
  // A's waiting unactivated4Z card (key 123456) added: A then has an unactivated card too.
  await call('/api/subuser/card/add', { card_token: 'ES0000000102' });
  const { subuserIds, esids } = await readIds(o, spa);
  const card = subuserIds[esids.indexOf('ES0000000001')]!;
  const others = [await directSession(o, spa, 'SIAP002', 'terminal-A-line', card), await directSession(o, spa, 'SIAP005', 'terminal-A-portal')];
  const registerTokens = [
    await flowWithCode(o, 'transfer', { kind: 'sms', to: DEMO_CARD.mobile }, () => callAs(o, spa.access, '/api/aqf/transfer/open/select', { subuser_id: card })),
    await flowWithCode(o, 'numberless', { kind: 'sms', to: '09033330301' }, () => callAs(o, spa.access, '/api/auth/numberless', { tel: '09033330301' })),
    await flowWithCode(o, 'e-mail change', { kind: 'mail', to: 'member.a.new@example.com' }, () =>
      callAs(o, spa.access, '/api/auth/email/change', { email: 'member.a.new@example.com' }),
    ),
    await flowWithCode(o, 'login number', { kind: 'sms', to: A_NEW_TEL }, () => callAs(o, spa.access, '/api/auth/tel/change', { tel: A_NEW_TEL })),
  ];
  const onetimeTokens = [
    String((await call('/api/auth/user_onetime_token')).onetime_token),
    String((await call('/api/subuser/direct_login/sc', { client_id: 'SIAP002', subuser_id: card })).onetime_token),
  ];
  const passkeys = [await addPasskey(o, spa)];
  const ids = await readIds(o, spa);
  return {
    passkeys,
    name: 'A', email: DEMO_CARD.user, password: DEMO_CARD.password, spa, others, registerTokens, onetimeTokens, ...ids, points: await pointsOf(db.kysely, ids.userId),
    card: { cardnumber: '4541000000000101', cvc: '123' },
    activation: { key: '123456', tel: DEMO_CARD.mobile, naId: 'demo-na-card' },
    ownClients: ['SIAP002', 'SIAP005'],
    phones: [DEMO_CARD.mobile],
  };
}

async function memberB(): Promise<Member> {
  const o = origin();
  const email = 'member.b@example.com';
  const password = 'Member-B-2030';
  await signUpWithPinCard(o, email, password);
  const spa = await logIn(o, email, password, 'terminal-B');
  // An unactivated card of holder H0000002 (key 000201): that holder's other cards then wait for B.
  await ok(callAs(o, spa.access, '/api/subuser/card/add', { cardnumber: '4541000000000201', cc_month: '12', cc_year: '2030', cvc: '123' }));
  const others = [await directSession(o, spa, 'SIAP006', 'terminal-B-portal')];
  const registerTokens = [
    await flowWithCode(o, 'e-mail change', { kind: 'mail', to: 'member.b.new@example.com' }, () =>
      callAs(o, spa.access, '/api/auth/email/change', { email: 'member.b.new@example.com' }),
    ),
  ];
  const onetimeTokens = [String((await ok(callAs(o, spa.access, '/api/auth/user_onetime_token'))).onetime_token)];
  const passkeys = [await addPasskey(o, spa)];
  const ids = await readIds(o, spa);
  return {
    passkeys,
    name: 'B', email, password, spa, others, registerTokens, onetimeTokens, ...ids, points: await pointsOf(db.kysely, ids.userId),
    card: { cardnumber: '3528000000000003', cvc: '123' },
    activation: { key: '000201', tel: '09022220202', naId: 'na-holder2' },
    ownClients: ['SIAP006'],
    phones: ['09011110003'],
  };
}

/** Every request of `paths` by the attacker with the victim's ids (one endpoint at a time); what went wrong, one line each. */
async function attack(attacker: Member, victim: Member, paths: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    const c = TABLE[path]!;
    const bodies = c.bodies(victim);
    if (bodies.length === 0) problems.push(`${path}: no request carries ${victim.name}'s ids`);
    const answers = await Promise.all(bodies.map((body) => callAs(origin(), attacker.spa.access, path, body, c.form)));
    answers.forEach((res: Answer, i) => {
      const code = res.json?.result_code as number;
      const refused = res.status >= 400 && res.status < 500 && REFUSALS.includes(code);
      const answered = c.own === true && res.status === 200 && code === 0;
      if (!refused && !answered) problems.push(`${path} ${JSON.stringify(bodies[i]).slice(0, 120)}: HTTP ${res.status} ${res.text.slice(0, 160)}`);
      const leaked = foreignData(res, victim, attacker);
      if (leaked.length > 0) problems.push(`${path}: ${victim.name}'s data in the answer: ${leaked.join(', ')}`);
    });
  }
  return problems;
}

const session = (m: Member, clientId: string): Session => m.others.find((s) => s.clientId === clientId)!;
const cardRefresh = (s: Session, clientId = s.clientId, terminal = s.terminal) =>
  post(origin(), '/api/auth/card/refresh_token', { form: { refresh_token: s.refresh, client_id: clientId, terminal_id: terminal } });
const introspect = (token: string, headers: Record<string, string> = NET_ANSWER_AUTH) =>
  post(origin(), '/api/subuser/introspect', { form: { token }, headers });

describe('one member never reaches another member\'s data on any Bearer endpoint (OWASP ASVS 5.0 V8.2.2)', () => {
  beforeAll(async () => {
    system = await startSystem({ quiet: true });
    db = openSystemDb(system.databaseUrl);
    [A, B] = await Promise.all([memberA(), memberB()]);
  });
  afterAll(async () => {
    await db?.close();
    await system?.stop();
  });

  it('the table holds exactly the endpoints the running server guards with a Bearer token', async () => {
    // Every route of the API catalogue (the server registers each from its entry: openapi.test.ts), called without a token;
    // the operator API's are guarded by an operator token of a role, no member's (decision 0032; operator-api.test.ts).
    const routes = API_CATALOGUE.filter((r) => r.role === undefined || r.role === 'public');
    expect(routes.length).toBeGreaterThan(50);
    const wanted = await Promise.all(routes.map((r) => wantsBearer(origin(), r)));
    const guarded = routes.filter((_, i) => wanted[i]);
    // Every route the catalogue declares Bearer is found guarded: the probe itself works.
    expect(routes.filter((r) => r.bearer && !guarded.includes(r)).map((r) => r.path)).toEqual([]);
    expect(guarded.map((r) => `${r.method} ${r.path}`).sort()).toEqual([...Object.keys(TABLE).map((p) => `POST ${p}`), ...NO_INPUT].sort());
  });

  it.each([
    ['B', 'A'],
    ['A', 'B'],
  ])('%s with %s\'s ids everywhere: refused or its own data, and nothing of the other changed', async (attackerName, victimName) => {
    const [attacker, victim] = [attackerName, victimName].map((n) => (n === 'A' ? A : B)) as [Member, Member];
    const rows = await rowsOf(db.kysely, victim);
    const views = await readViews(origin(), victim.spa.access);
    expect(await attack(attacker, victim, Object.keys(TABLE).filter((p) => p !== LAST && p !== END_ALL))).toEqual([]);
    for (const route of NO_INPUT) {
      const [method, path] = route.split(' ') as ['GET' | 'POST', string];
      const ids = new URLSearchParams({ user_id: victim.userId, sub: victim.userId, email: victim.email });
      const res =
        method === 'GET'
          ? await get(origin(), `${path}?${ids}`, { authorization: `Bearer ${attacker.spa.access}` })
          : await post(origin(), path, { token: attacker.spa.access, form: Object.fromEntries(ids) });
      expect(res.status, route).toBe(200);
      expect(res.json?.email, route).toBe(attacker.email);
      expect(foreignData(res, victim, attacker), route).toEqual([]);
    }
    expect(await rowsOf(db.kysely, victim)).toEqual(rows);
    expect(await readViews(origin(), victim.spa.access)).toEqual(views);
  });

  it('A\'s tokens never work with B\'s client or terminal; introspection names each token\'s own member', async () => {
    const rows = await rowsOf(db.kysely, A);
    const [portalA, lineA, portalB] = [session(A, 'SIAP005'), session(A, 'SIAP002'), session(B, 'SIAP006')];
    const crossed = [
      await refresh(origin(), A.spa.refresh, { terminal_id: B.spa.terminal }),
      await refresh(origin(), A.spa.refresh, { client_id: portalB.clientId, terminal_id: portalB.terminal }),
      await refresh(origin(), lineA.refresh, { terminal_id: lineA.terminal }),
      await cardRefresh(portalA, portalB.clientId, portalB.terminal),
      await cardRefresh(portalA, portalA.clientId, portalB.terminal),
    ];
    for (const res of crossed) {
      expect([400, 401], res.text).toContain(res.status);
      expect(['invalid_grant', 'invalid_client', 'unauthorized_client']).toContain(res.json?.error);
      expect(res.text).not.toContain('access_token');
    }
    // RFC 7009 section 2.1: B (with its own Bearer) revoking A's tokens of other clients as the web client ends nothing.
    for (const s of A.others) expect((await post(origin(), '/api/auth/revoke', { token: B.spa.access, form: { token: s.access, client_id: B.spa.clientId } })).status).toBe(200);
    // RFC 7662: a partner's introspection names the token's own member, by the member's pairwise subject
    // for the partner asking (OpenID Connect Core 1.0 section 8.1; decision 0025): the one its own ID
    // tokens carry, never the member id; a member's Bearer is no partner credential.
    // Net Answer checks the web and portal apps' tokens; the line answer service only its own (decision 0010).
    const subjectOf = async (m: { userId: string }, clientId: string) =>
      (await db.kysely.selectFrom('token_families').select('subject').where('user_id', '=', m.userId).where('client_id', '=', clientId).where('subject', 'is not', null).executeTakeFirstOrThrow()).subject;
    const named = new Map<string, string>();
    for (const [m, s] of [[A, A.spa], [A, portalA], [B, B.spa], [B, portalB]] as const) {
      const answer = (await introspect(s.access)).json as { sub: string };
      expect(answer).toMatchObject({ active: true, client_id: s.clientId });
      expect(answer.sub).not.toBe(m.userId);
      expect(named.get(m.userId) ?? answer.sub, 'one subject of a member for Net Answer').toBe(answer.sub);
      named.set(m.userId, answer.sub);
    }
    expect(named.get(A.userId)).not.toBe(named.get(B.userId));
    expect((await introspect(lineA.access, basicAuth('SIAP002', 'demo-secret-SIAP002'))).json).toMatchObject({ active: true, sub: await subjectOf(A, 'SIAP002'), client_id: 'SIAP002' });
    expect((await introspect(lineA.access)).json).toEqual({ active: false });
    expect((await introspect(A.spa.access, { authorization: `Bearer ${B.spa.access}` })).status).toBe(401);
    // Refused without revoking anything of A's (docs/decisions/0002): ...
    expect(await rowsOf(db.kysely, A)).toEqual(rows);
    // ... and from A's own client and terminal the same tokens work, the card refresh naming A's card.
    const own = await ok(cardRefresh(portalA));
    expect(own.esid).toBe('ES0000000001');
    Object.assign(portalA, { access: own.access_token, refresh: own.refresh_token });
    const spa = await ok(refresh(origin(), A.spa.refresh, { terminal_id: A.spa.terminal }));
    Object.assign(A.spa, { access: spa.access_token, refresh: spa.refresh_token });
  });

  it('B\'s withdrawal with A\'s ids ends B only; then A\'s tokens, after A\'s own withdrawal, open nothing', async () => {
    // B's log out everywhere with A's ids ends B's own sessions only; B logs in again for its withdrawal.
    const untouched = await rowsOf(db.kysely, A);
    expect(await attack(B, A, [END_ALL])).toEqual([]);
    expect((await callAs(origin(), B.spa.access, '/api/user')).status).toBe(401);
    expect(await rowsOf(db.kysely, A)).toEqual(untouched);
    Object.assign(B.spa, await logIn(origin(), B.email, B.password, B.spa.terminal));
    // The withdrawals need a fresh proof (decision 0012): the sessions were taken at the start.
    for (const m of [A, B]) await ok(callAs(origin(), m.spa.access, '/api/auth/reauth', { password: m.password }));
    const rows = await rowsOf(db.kysely, A);
    expect(await attack(B, A, [LAST])).toEqual([]);
    expect((await callAs(origin(), B.spa.access, '/api/user')).status).toBe(401);
    expect(await rowsOf(db.kysely, A)).toEqual(rows);

    await ok(callAs(origin(), A.spa.access, LAST));
    const tries = [A.spa, ...A.others].flatMap((s) => Object.keys(TABLE).map((path) => ({ s, path })));
    const answers = await Promise.all(tries.map(({ s, path }) => callAs(origin(), s.access, path, {}, TABLE[path]!.form)));
    const opened = tries.filter((_, i) => answers[i]!.status !== 401 || answers[i]!.json?.result_code !== 300);
    expect(opened.map(({ s, path }) => `${s.clientId} ${path}`)).toEqual([]);
    expect((await refresh(origin(), A.spa.refresh, { terminal_id: A.spa.terminal })).json?.error).toBe('invalid_grant');
    expect((await cardRefresh(session(A, 'SIAP005'))).json?.error).toBe('invalid_grant');
    for (const s of [A.spa, ...A.others]) for (const token of [s.access, s.refresh]) expect((await introspect(token)).json).toEqual({ active: false });
  });
});
