import type { API, BearerKey } from '@sso/contracts/api-catalogue';
import { DEMO_OPEN } from './client.ts';
import type { Member } from './members.ts';

/**
 * What member B sends to each Bearer endpoint with member A's ids, and the other way round
 * (cross-member.test.ts; OWASP ASVS 5.0 V8.2.2).
 */

export type Body = Record<string, unknown>;
export interface Case {
  /** Requests of the endpoint carrying the victim's ids, tokens and secrets. */
  bodies: (victim: Member) => Body[];
  /** The endpoint answers the caller's own data, or ignores what is not theirs (RFC 7009 section 2.2): result 0 is allowed too. */
  own?: true;
  form?: true;
}

/** What an endpoint without id fields gets: the victim's ids as extra fields, which must be ignored. */
const extra = (v: Member): Body => ({ user_id: v.userId, subuser_id: v.subuserIds[0], email: v.email });
const ownData: Case = { own: true, bodies: (v) => [extra(v)] };
const cardTokens = (v: Member) => [...v.cardTokens, ...v.esids].map((card_token) => ({ card_token }));
const flowSecrets = (v: Member) => v.registerTokens.map((t) => ({ register_token: t.token, onetime_password: t.code }));
/** demo.open's details (docs/demo.md "Cards, Net Answer and points"): merged into A in the setup. */
export const OPEN_DETAILS = { email: DEMO_OPEN.user, last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', birthday: '19900101', tel: DEMO_OPEN.mobile, password: DEMO_OPEN.password };
/** A number nobody logs in with: A's login-number flow waits for its code (decision 0014). */
export const A_NEW_TEL = '08055550001';
/** A mobile number that holds no numberless card: the start answers alike and sends nothing. */
const NO_CARD_TEL = '09099990000';

/** A WebAuthn answer naming a credential, over a challenge nobody gave: no signature or attestation to check. */
const webauthnAnswer = (credentialId: string, type: string) => ({
  id: credentialId,
  rawId: credentialId,
  type: 'public-key',
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type, challenge: 'bm8tY2hhbGxlbmdl', origin: 'http://localhost', crossOrigin: false })).toString('base64url'),
    ...(type === 'webauthn.get' ? { authenticatorData: 'AA', signature: 'AA' } : { attestationObject: 'AA' }),
  },
  clientExtensionResults: {},
});

/**
 * Bearer endpoints that read no id at all and answer in a standard body of their own, not a result
 * code: OpenID Connect userinfo (decision 0025). Asked with the attacker's token and the victim's ids
 * as a query and a form, each answers the attacker's own claims and nothing of the victim's.
 */
export const NO_INPUT = ['GET /api/auth/userinfo', 'POST /api/auth/userinfo'] as const satisfies readonly BearerKey[];

/** The Bearer endpoints that the table below has, by path: all are POSTs. */
type TableKey = Exclude<BearerKey, (typeof NO_INPUT)[number]>;

/**
 * Every Bearer endpoint of the API catalogue (packages/contracts/src/api-catalogue.ts, `bearer`), by
 * path: one the catalogue declares without an entry here does not compile (the first test of
 * cross-member.test.ts also checks this list against the running server).
 */
export const CROSS_MEMBER: { [K in TableKey as (typeof API)[K]['path']]: Case } = {
  '/api/user': ownData,
  '/api/user/attribute': ownData,
  '/api/user/top': ownData,
  '/api/user/aqf': ownData,
  '/api/user/profile': ownData,
  '/api/user/profile/change': { own: true, bodies: (v) => [{ ...extra(v), dry_run: 1 }] },
  '/api/user/activities': { own: true, bodies: (v) => [{ ...extra(v), page: 1 }] },
  '/api/subuser/cards': ownData,
  '/api/subuser/card/tokens': ownData,
  '/api/subuser/open': ownData,
  '/api/subuser/card/update_relevant_tokens': { own: true, bodies: (v) => [{ ...extra(v), subuser_ids: v.subuserIds }] },
  '/api/subuser/card/add': { bodies: cardTokens },
  '/api/subuser/card/enable': { bodies: cardTokens },
  '/api/subuser/card/activate': { bodies: (v) => v.subuserIds.map((subuser_id) => ({ subuser_id, activation_key: v.activation.key })) },
  '/api/subuser/sc/activate/mobile': { bodies: (v) => v.subuserIds.map((subuser_id) => ({ subuser_id, tel: v.activation.tel })) },
  '/api/subuser/delete': { bodies: (v) => [{ subuser_ids: v.subuserIds }, ...v.subuserIds.map((id) => ({ subuser_ids: [id] }))] },
  '/api/subuser/na/add': { bodies: (v) => v.subuserIds.map((subuser_id) => ({ subuser_id, na_id: v.activation.naId, na_password: 'NaDemo1234' })) },
  '/api/subuser/revoke': {
    own: true,
    form: true,
    bodies: (v) => [v.spa, ...v.others].flatMap((s) => [s.access, s.refresh].map((token) => ({ token, client_id: s.clientId }))),
  },
  // The open account is named by the member's id (cards/card-service.ts openSubuser).
  '/api/subuser/direct_login/sc': {
    bodies: (v) => [...v.subuserIds, v.userId].flatMap((subuser_id) => ['na', 'open'].map((member_type) => ({ subuser_id, member_type, client_id: 'SIAP002' }))),
  },
  '/api/subuser/direct_login/na': { bodies: (v) => [...v.subuserIds, v.userId].map((subuser_id) => ({ subuser_id })) },
  // Names no id: it records the caller's own acceptance of a service's terms (decision 0013).
  '/api/subuser/direct_login/terms_accept': { own: true, bodies: (v) => [{ ...extra(v), client_id: 'SIAP004', terms: ['ServiceOnNetAnswer'] }] },
  '/api/auth/user_onetime_token': { own: true, bodies: (v) => [extra(v), ...v.others.map((s) => ({ client_id: s.clientId }))] },
  // B has no open account, so B is refused before the card is looked at; A (open points) naming B's card shows the ownership check.
  '/api/aqf/transfer/open/select': { bodies: (v) => v.subuserIds.map((subuser_id) => ({ subuser_id })) },
  '/api/aqf/transfer/open/otp': { bodies: flowSecrets },
  '/api/auth/numberless/otp': { bodies: flowSecrets },
  '/api/auth/numberless': { own: true, bodies: (v) => [{ ...extra(v), tel: NO_CARD_TEL, register_token: v.registerTokens[0]?.token }] },
  // Open members only: both members here are card members, refused (300) before the card is looked at.
  '/api/auth/register': { bodies: (v) => [{ ...v.card, cc_month: '12', cc_year: '2030' }] },
  // A taken address is answered as a free one, with a register_token of the caller's that can never
  // be confirmed (docs/security.md).
  '/api/auth/email/change': { own: true, bodies: (v) => [{ email: v.email }] },
  // A number is answered alike whoever has it (decision 0014): the caller's own flow, never confirmable for another's number.
  '/api/auth/tel/change': { own: true, bodies: (v) => [{ ...extra(v), tel: NO_CARD_TEL, register_token: v.registerTokens[0]?.token }] },
  '/api/auth/tel/change/otp': { bodies: flowSecrets },
  '/api/auth/password/change': { bodies: (v) => [{ current_password: v.password, password: 'Taken-Over-2030', password_check: 'Taken-Over-2030' }] },
  // The victim's change, confirmed from the attacker's session: 300 (decision 0012), the victim's code untouched.
  '/api/auth/email/change/otp': { bodies: (v) => v.registerTokens.map((t) => ({ register_token: t.token, otp_email: t.code })) },
  // The victim's password proves nothing on the attacker's session (902; one failure on the attacker's own login throttle).
  '/api/auth/reauth': { bodies: (v) => [{ ...extra(v), password: v.password }] },
  '/api/link/open': { bodies: () => [OPEN_DETAILS] },
  // The signed-in browsers and services (decision 0026): the caller's own list; another member's session id ends nothing (RFC 7009 section 2.2).
  '/api/user/sessions': ownData,
  '/api/user/sessions/end': { own: true, bodies: (v) => v.sessions.map(({ kind, id }) => ({ kind, id })) },
  // Ends the caller's own sessions whatever ids it is given (cross-member.test.ts runs it apart, as the withdrawal).
  '/api/user/sessions/end_all': ownData,
  // Passkeys (decision 0024): the victim's passkey by its id or its credential is another member's, answered as none (902).
  '/api/auth/passkeys': ownData,
  '/api/auth/passkey/register/options': ownData,
  '/api/auth/passkey/register': { bodies: (v) => v.passkeys.map((p) => ({ name: 'x', credential: webauthnAnswer(p.credentialId, 'webauthn.create') })) },
  '/api/auth/passkey/rename': { bodies: (v) => v.passkeys.map((p) => ({ id: p.id, name: '乗っ取り' })) },
  '/api/auth/passkey/delete': { bodies: (v) => v.passkeys.map((p) => ({ id: p.id })) },
  '/api/auth/passkey/require': { own: true, bodies: (v) => [{ ...extra(v), required: false }] },
  '/api/auth/reauth/passkey/options': ownData,
  '/api/auth/reauth/passkey': { bodies: (v) => v.passkeys.map((p) => ({ credential: webauthnAnswer(p.credentialId, 'webauthn.get') })) },
  // Withdraws the caller: run last, by itself.
  '/api/auth/cancel': ownData,
};
