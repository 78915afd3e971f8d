import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import type { Database } from '@sso/server/test-support/internals';
import { readMailbox } from '../../support/mailbox.ts';
import { authorize, codeOf, exchange, pkce, post, spaClient, type Answer, type Tokens } from './client.ts';
import { SoftAuthenticator } from '@sso/server/test-support';

/**
 * Members of a running system set up over HTTP as they would be by hand (docs/demo.md "Demo data", "Demo
 * cards"), and every id the system handed each of them: what another member then tries to use.
 */

/** A session of one client and terminal: the tokens and what a refresh must present with them. */
export interface Session {
  clientId: string;
  terminal: string;
  access: string;
  refresh: string;
}

/** A register_token of a member's flow, with the right code when one was sent. */
export interface FlowToken {
  kind: string;
  token: string;
  code: string;
}

export interface Member {
  name: string;
  email: string;
  password: string;
  userId: string;
  spa: Session;
  /** Sessions of other clients (portal apps, partner services). */
  others: Session[];
  /** Registered cards: sub-user ids, esids and masks; one of them unactivated. */
  subuserIds: string[];
  esids: string[];
  masks: string[];
  /** Cards waiting to be added (card_token = the card's esid). */
  cardTokens: string[];
  /** The member's passkeys: their ids in the settings, and their WebAuthn credential ids (decision 0024). */
  passkeys: { id: string; credentialId: string }[];
  /** The member's signed-in browsers and services, as their list names them (decision 0026). */
  sessions: { kind: 'browser' | 'service'; id: string }[];
  registerTokens: FlowToken[];
  onetimeTokens: string[];
  /** The number and security code of one of the member's cards (docs/demo.md), as an open member would name it at /api/auth/register. */
  card: { cardnumber: string; cvc: string };
  /** The right activation key / holder mobile of the member's unactivated card, and its Net Answer id. */
  activation: { key: string; tel: string; naId: string };
  /** Clients only this member has used: their ids appear only in this member's answers. */
  ownClients: string[];
  /** The member's point balances as the database holds them, by the answers' field names. */
  points: Record<string, number>;
  /** The member's own answers of the read endpoints: what must stay the same and what must not leak. */
  views: Record<string, Record<string, unknown> | undefined>;
  /**
   * The member's phone numbers (their cards' holders'). Counted in the outbox: nobody else's request
   * may send them a code. Their e-mail address is not counted: a request to change one's e-mail to
   * an address that is taken mails its owner a notice, by design (no account enumeration, OWASP ASVS 5.0 V6).
   */
  phones: string[];
}

/** A member's Bearer call (JSON, or a form where SPEC.md section 7 names one). */
export const callAs = (origin: string, token: string, path: string, body: Record<string, unknown> = {}, form = false): Promise<Answer> =>
  form ? post(origin, path, { token, form: body as Record<string, string> }) : post(origin, path, { token, json: body });

export async function ok(a: Answer | Promise<Answer>): Promise<Record<string, unknown>> {
  const res = await a;
  expect(res.status, res.text).toBe(200);
  return res.json ?? {};
}

/** The SPA's login (code flow with PKCE) with a terminal of its own. */
export async function logIn(origin: string, email: string, password: string, terminal: string): Promise<Session> {
  const p = pkce();
  const tokens = (await ok(exchange(origin, codeOf(await authorize(origin, { user: email, password, pkce: p })), p, { terminal_id: terminal }))) as unknown as Tokens;
  return { clientId: spaClient(origin).clientId, terminal, access: tokens.access_token, refresh: tokens.refresh_token };
}

const basic = (clientId: string) => `Basic ${Buffer.from(`${clientId}:demo-secret-${clientId}`).toString('base64')}`;
const CONFIDENTIAL = new Set(['SIAP002', 'SIAP004']);

/**
 * A session of a partner service or portal app, handed over by direct login (/api/subuser/direct_login/sc,
 * decision 0006): the service's terms accepted first, and a portal app's token bound to its PKCE
 * challenge and redeemed with the verifier (decision 0013).
 */
export async function directSession(origin: string, spa: Session, clientId: string, terminal: string, subuserId = ''): Promise<Session> {
  const proof = pkce();
  const portal = !CONFIDENTIAL.has(clientId);
  const issue = () =>
    callAs(origin, spa.access, '/api/subuser/direct_login/sc', {
      client_id: clientId,
      subuser_id: subuserId,
      member_type: 'na',
      ...(portal ? { code_challenge: proof.challenge, code_challenge_method: 'S256' } : {}),
    });
  let issued = await issue();
  const terms = issued.json?.terms;
  if (Array.isArray(terms) && terms.length > 0) {
    await ok(callAs(origin, spa.access, '/api/subuser/direct_login/terms_accept', { client_id: clientId, terms }));
    issued = await issue();
  }
  const tokens = await ok(
    post(origin, '/api/auth/direct_login/token', {
      form: {
        grant_type: 'password',
        onetime_token: String((await ok(issued)).onetime_token),
        client_id: clientId,
        terminal_id: terminal,
        ...(portal ? { code_verifier: proof.verifier } : {}),
      },
      headers: CONFIDENTIAL.has(clientId) ? { authorization: basic(clientId) } : {},
    }),
  );
  return { clientId, terminal, access: String(tokens.access_token), refresh: String(tokens.refresh_token) };
}

/** The card sign-up of docs/demo.md "Demo cards" by the PIN card 3528000000000003, over HTTP, as the SPA runs it. */
export async function signUpWithPinCard(origin: string, email: string, password: string): Promise<void> {
  const spa = spaClient(origin);
  const started = await ok(
    post(origin, '/api/signup/card', {
      json: {
        cardnumber: '3528000000000003', cc_month: '12', cc_year: '2030', cvc: '123',
        username: email, password, password_check: password, check: true, recaptcha_token: 'dev-token',
        response_type: 'code', client_id: spa.clientId, redirect_uri: spa.redirectUri, scope: WEB_SCOPE, state: 's',
        code_challenge: pkce().challenge, code_challenge_method: 'S256',
      },
    }),
  );
  const register_token = String(started.register_token);
  await ok(post(origin, '/api/signup/pin', { json: { pin: '1234', register_token } }));
  await ok(post(origin, '/api/signup/otp', { json: { onetime_password: await codeSentTo(origin, 'mail', email, 0), register_token } }));
  await ok(post(origin, '/api/signup/terms_accept', { json: { register_token, client_id: spa.clientId } }));
}

/**
 * The newest 6-digit code sent to `to` after the first `after` messages. Polls by itself, not with
 * expect.poll (mailbox.ts waitForCode), so that it also runs in beforeAll.
 */
async function codeSentTo(origin: string, kind: 'sms' | 'mail', to: string, after: number): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const mine = (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to);
    const code = mine.length > after ? /\b\d{6}\b/.exec(mine[0]!.text)?.[0] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code was sent to ${to}`);
}

const sentCount = async (origin: string, kind: 'sms' | 'mail', to: string) => (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to).length;

/** Starts a flow that sends a code to `to` and reads the code as its holder would. */
export async function flowWithCode(origin: string, kind: string, to: { kind: 'sms' | 'mail'; to: string }, start: () => Promise<Answer>): Promise<FlowToken> {
  const before = await sentCount(origin, to.kind, to.to);
  const started = await ok(start());
  return { kind, token: String(started.register_token), code: await codeSentTo(origin, to.kind, to.to, before) };
}

/** The read endpoints whose answers are a member's own data. */
export const VIEW_PATHS = ['/api/user', '/api/user/attribute', '/api/user/aqf', '/api/subuser/cards', '/api/subuser/card/tokens', '/api/subuser/open'];

export async function readViews(origin: string, access: string): Promise<Member['views']> {
  const answers = await Promise.all(VIEW_PATHS.map((p) => ok(callAs(origin, access, p))));
  return Object.fromEntries(VIEW_PATHS.map((p, i) => [p, answers[i]]));
}

/**
 * Adds a passkey to the member's account from their fresh session (decision 0024), on a software
 * authenticator of the system's origin: its settings id and its WebAuthn credential id.
 */
export async function addPasskey(origin: string, spa: Session): Promise<{ id: string; credentialId: string }> {
  const options = (await ok(callAs(origin, spa.access, '/api/auth/passkey/register/options'))).options as Record<string, unknown>;
  const credential = new SoftAuthenticator(origin).register(options);
  const added = await ok(callAs(origin, spa.access, '/api/auth/passkey/register', { name: 'abuse', credential }));
  return { id: String((added.passkey as { id: string }).id), credentialId: String(credential.id) };
}

/** Reads a member's ids from their own answers (cards, waiting cards, user id). */
export async function readIds(origin: string, spa: Session) {
  const views = await readViews(origin, spa.access);
  const cards = (views['/api/subuser/cards']?.saison_subusers ?? []) as { subuser_id: string; esid: string; card_number_mask: string }[];
  const waiting = (views['/api/subuser/card/tokens']?.card_tokens ?? []) as { card_token: string; card_number_mask: string }[];
  const listed = (await ok(callAs(origin, spa.access, '/api/user/sessions'))) as { browsers?: { id: string }[]; services?: { id: string }[] };
  return {
    views,
    sessions: [...(listed.browsers ?? []).map((b) => ({ kind: 'browser' as const, id: b.id })), ...(listed.services ?? []).map((f) => ({ kind: 'service' as const, id: f.id }))],
    userId: String(views['/api/user']?.user_id),
    subuserIds: cards.map((c) => c.subuser_id),
    esids: cards.map((c) => c.esid),
    masks: [...cards, ...waiting].map((c) => c.card_number_mask),
    cardTokens: waiting.map((c) => c.card_token),
  };
}

/**
 * What in an answer to `attacker` is `victim`'s: any of the victim's ids, tokens, card masks,
 * e-mail address or clients in a string, or a point balance that is the victim's and not the
 * attacker's (both as the database holds them, not as an answer says). Empty when nothing is.
 */
export function foreignData(answer: Answer, victim: Member, attacker: Member): string[] {
  const markers = [
    victim.email, victim.userId, ...victim.subuserIds, ...victim.esids, ...victim.masks, ...victim.cardTokens,
    ...victim.registerTokens.map((t) => t.token), ...victim.onetimeTokens, ...victim.ownClients,
    ...[victim.spa, ...victim.others].flatMap((s) => [s.access, s.refresh]),
    ...victim.passkeys.flatMap((p) => [p.id, p.credentialId]),
    ...victim.sessions.map((s) => s.id),
  ].filter((m) => m.length >= 6);
  const found: string[] = [];
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') found.push(...markers.filter((m) => v.includes(m)).map((m) => `${key}: ${m}`));
    else if (typeof v === 'number' && /point/.test(key) && v !== 0 && v === victim.points[key] && v !== (attacker.points[key] ?? 0)) found.push(`${key}: ${v}`);
    else if (v && typeof v === 'object') for (const [k, child] of Object.entries(v)) walk(child, Array.isArray(v) ? key : k);
  };
  walk(answer.json ?? answer.text, 'body');
  return found;
}

/** The member's balances in the point ledger simulator's table, named as /api/user/aqf names them. */
export async function pointsOf(db: Kysely<Database>, userId: string): Promise<Record<string, number>> {
  const rows = await db.selectFrom('point_accounts').select(['kind', 'points']).where('user_id', '=', userId).execute();
  return Object.fromEntries(rows.map((r) => [r.kind === 'open' ? 'aqf_point_open' : 'aqf_point_na', Number(r.points)]));
}

/** The tables whose rows belong to a member by user_id. */
const MEMBER_TABLES = ['users', 'term_acceptances', 'auth_codes', 'token_families', 'activity_log', 'sub_users', 'point_accounts', 'email_changes', 'direct_logins', 'member_flows', 'point_transfers', 'passkeys', 'member_devices', 'sso_sessions'];

const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * Everything the database holds of a member: their rows, their sessions' grants, the one-time
 * secrets of their flows, the locks and rate counters keyed by their id, address or cards, and how
 * many messages went to their phones (delivery itself changes an outbox row later).
 */
export async function rowsOf(db: Kysely<Database>, m: Member): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of MEMBER_TABLES) {
    const column = table === 'users' ? 'id' : 'user_id';
    out[table] = sorted((await sql`select * from ${sql.table(table)} where ${sql.ref(column)} = ${m.userId}`.execute(db)).rows);
  }
  out.token_grants = sorted(
    (await sql`select g.* from token_grants g join token_families f on f.id = g.family_id where f.user_id = ${m.userId}`.execute(db)).rows,
  );
  out.verifications = sorted(
    (
      await sql`select * from verifications where subject in (select id from member_flows where user_id = ${m.userId}
        union select id from email_changes where user_id = ${m.userId} union select id from direct_logins where user_id = ${m.userId})`.execute(db)
    ).rows,
  );
  const keys = [m.userId, m.email, ...m.esids, ...m.cardTokens];
  for (const table of ['login_throttle', 'rate_limits']) {
    const rows = await Promise.all(keys.map((k) => sql`select * from ${sql.table(table)} where key like ${`%${k}%`}`.execute(db)));
    out[table] = sorted(rows.flatMap((r) => r.rows));
  }
  const sent = await Promise.all(m.phones.map((to) => sql<{ n: number | string }>`select count(*) as n from outbox where recipient = ${to}`.execute(db)));
  out.outbox = m.phones.map((to, i) => `${to}: ${Number(sent[i]!.rows[0]!.n)}`);
  return out;
}
