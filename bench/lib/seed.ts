import { randomBytes, randomUUID } from 'node:crypto';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { audienceOf, deviceHashOf, hashPassword, insertFamily, insertMember, insertMemberCard, insertPasskey, issuePair, loadClients, NO_PROFILE, noteMemberDevice, openDatabase, recordTermAcceptance, subjectFor, userHandleOf } from '@sso/server/test-support/internals';
import { dpopKey, ROOT, SoftAuthenticator } from '@sso/server/test-support';
import { PARTNER_CLIENT_ID, type Member } from './flows.ts';

/**
 * Load members, written straight into the running system's database with the server's own
 * repository functions (insertMember, recordTermAcceptance, insertMemberCard, insertFamily,
 * issuePair): a sign-up over HTTP costs an argon2id hash and several steps per member, which would
 * make seeding a thousand members take minutes. Every member shares one password hashed once with
 * the server's hashPassword, has accepted the SPA client's terms (so that a login is issued a code),
 * owns one card (so that the card list has a row to read), holds three live token families of the
 * SPA client, each bound to its own terminal, as after a login: one without `openid` (the plain refresh
 * grant) and one with it and the authentication context of a password sign-in (the refresh that answers
 * a new ID token, decision 0025), a third bound to a DPoP key of its own (RFC 9449; decision 0037), a
 * fourth of Net Answer's confidential client (PARTNER_CLIENT_ID), without `openid` and without a
 * terminal, as its server holds it after a login (the partner's refresh, with client_secret_basic), and
 * a passkey on a software authenticator with the cookies of a browser it has signed in from before. Addresses carry a per-run tag, so several
 * seedings of one database do not collide.
 */
export interface SeedOptions {
  databaseUrl: string;
  origin: string;
  count: number;
  /** Members written per transaction. */
  batch?: number;
}

export const LOAD_PASSWORD = 'Bench1234';

/** The one active card each bench member owns, so that the card list has a row to read. */
export const benchCard = (esid: string) => ({
  id: randomUUID(),
  esid,
  status: 'active' as const,
  member_div_code: '01',
  card_name: 'ベンチ カード',
  card_image_url: '/content/cards/demo-gold.svg',
  card_brand: 'VISA',
  card_number_mask: '4541-****-****-0000',
  holder_id: null,
  point_capable: 0,
  na_id: null,
  mail_digital: null,
});

export async function seedMembers(o: SeedOptions): Promise<Member[]> {
  const db = openDatabase(o.databaseUrl);
  const tag = randomBytes(3).toString('hex');
  const passwordHash = await hashPassword(LOAD_PASSWORD);
  const clients = loadClients(`${ROOT}config/clients.json`, o.origin);
  const web = clients.get(WEB_CLIENT_ID);
  const partner = clients.get(PARTNER_CLIENT_ID);
  if (!web || !partner) throw new Error(`config/clients.json has no web client or no ${PARTNER_CLIENT_ID}`);
  // The member has accepted the terms of both clients it holds families of.
  const terms = [...new Set([...web.terms, ...partner.terms])].filter(isTermKey);
  // The web client's sessions, with the scope and audience a login gives them (decision 0010): the
  // plain one without openid, so that its refresh answers no ID token.
  const openidScope = web.scopes.join(' ');
  const scope = web.scopes.filter((s) => s !== 'openid').join(' ');
  const audience = audienceOf(web);
  // The partner's family: its own scopes without openid (its refresh answers no ID token, as the peer's
  // must not either) and its own audience and subject.
  const partnerScope = partner.scopes.filter((s) => s !== 'openid').join(' ');
  const partnerAudience = audienceOf(partner);
  const members: Member[] = [];
  const batch = o.batch ?? 200;
  try {
    for (let start = 0; start < o.count; start += batch) {
      const now = Date.now();
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(o.count, start + batch); i++) {
          const id = randomUUID();
          const n = `${tag}${String(i).padStart(6, '0')}`;
          const email = `bench-${n}@bench.example`;
          await insertMember(trx, { id, email, tel: null, password_hash: passwordHash, member_type: 'card', ...NO_PROFILE }, now);
          for (const key of terms) await recordTermAcceptance(trx, id, key, TERM_VERSIONS[key], now);
          await insertMemberCard(trx, id, benchCard(`BENCH${n}`), now);
          const family = async (client: typeof web, familyAudience: string, terminalId: string | null, familyScope: string, jkt: string | null = null) => {
            const familyId = randomUUID();
            const context = { auth_time: now, amr: 'pwd', sso_session_id: null, subject: subjectFor(client, id) };
            await insertFamily(trx, { id: familyId, user_id: id, client_id: client.client_id, terminal_id: terminalId, scope: familyScope, audience: familyAudience, created_at: now, revoked_at: null, proved_at: null, ...context });
            const tokens = await issuePair(trx, familyId, null, familyScope, now, jkt);
            if (!tokens.refresh_token) throw new Error('issuePair answered no refresh token');
            return { access: tokens.access_token, refresh: tokens.refresh_token };
          };
          const session = async (terminalId: string, familyScope: string, jkt: string | null = null) => ({ terminalId, ...(await family(web, audience, terminalId, familyScope, jkt)) });
          const plain = await session(`bench-terminal-${n}`, scope);
          const openid = await session(`bench-oidc-terminal-${n}`, openidScope);
          // A session bound to a DPoP key of the member's own (RFC 9449), as after a login with a proof.
          const key = await dpopKey();
          const bound = await session(`bench-dpop-terminal-${n}`, scope, key.jkt);
          const partnerSession = await family(partner, partnerAudience, null, partnerScope);
          // A passkey on a software authenticator (decision 0024), stored as a registration stores it.
          const authenticator = new SoftAuthenticator(o.origin);
          const credential = authenticator.mint(userHandleOf(id));
          await insertPasskey(trx, {
            id: randomUUID(),
            user_id: id,
            credential_id: credential.id,
            public_key: Buffer.from(credential.publicKeyCose).toString('base64url'),
            counter: 0,
            transports: '["internal","hybrid"]',
            device_type: 'multiDevice',
            backed_up: 1,
            name: 'bench',
            created_at: now,
            last_used_at: null,
          });
          // A returning browser: the member has signed in from it before, so a login mails no notice.
          const browser = { deviceCookie: randomBytes(32).toString('base64url'), passkeyCookie: randomBytes(32).toString('base64url'), authenticator };
          await noteMemberDevice(trx, { userId: id, deviceHash: deviceHashOf(browser.deviceCookie), now });
          members.push({ email, password: LOAD_PASSWORD, ...plain, openid: { terminalId: openid.terminalId, refresh: openid.refresh }, dpop: { terminalId: bound.terminalId, refresh: bound.refresh, key }, partner: { refresh: partnerSession.refresh }, ...browser });
        }
      });
    }
  } finally {
    await db.close();
  }
  return members;
}
