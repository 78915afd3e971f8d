import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { API, API_KEYS, type ApiKey } from '@sso/contracts/api-catalogue';
import type { ApiRoute } from '@sso/contracts/api-route';
import { DIRECT_LOGIN_TARGETS } from '@sso/contracts/constants';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import type { Endpoint, Fields, FuzzContext } from './fuzz-requests.ts';
import { nastyText } from './fuzz-values.ts';

/**
 * The fuzz table: one entry per route the server registers (fuzz.test.ts compares it with the
 * routes Fastify reports, both ways). The API's routes are those of its catalogue, keyed as it is, so
 * that a route cannot be catalogued without being fuzzed; each has the valid request of its contract
 * in packages/contracts/src (or of its route file where the contract is local) that the fuzzer bends.
 * Valid requests never change what the other entries depend on: wrong current passwords, ids that
 * are not the demo card's for removals, dry runs; the withdrawal and the log out everywhere each
 * have a member of their own.
 */

const secret = () => randomBytes(32).toString('base64url');
const spa = (c: FuzzContext) => `${c.origin}/content/oauth/callback`;
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const DEMO_SUBUSER = 'demo-card-subuser-1';
const CARD = { cardnumber: '4541000000000001', cc_month: '12', cc_year: '2030', cvc: '123' };
const authorizeQuery = (c: FuzzContext): Fields => ({
  client_id: 'SIAP009',
  redirect_uri: spa(c),
  state: 'fuzz-state',
  scope: WEB_SCOPE,
  response_type: 'code',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
});
const otp = () => ({ onetime_password: '123456', register_token: secret() });
const profile = { last_name: '山田', first_name: '花子', last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', sex: '2', birthday: '19900101', tel: '09000000002', postal_code: '1700013', email_flg: false };
const newPassword = { password: 'Fuzz-pass12', password_check: 'Fuzz-pass12' };
/** WebAuthn answers in the browser's JSON form, over no challenge the server gave (decision 0024). */
const clientData = (type: string) => Buffer.from(JSON.stringify({ type, challenge: secret(), origin: 'http://localhost', crossOrigin: false })).toString('base64url');
const assertion = () => {
  const id = secret();
  return { id, rawId: id, type: 'public-key', response: { clientDataJSON: clientData('webauthn.get'), authenticatorData: secret(), signature: secret(), userHandle: secret() }, clientExtensionResults: {} };
};
const registration = () => {
  const id = secret();
  return { id, rawId: id, type: 'public-key', response: { clientDataJSON: clientData('webauthn.create'), attestationObject: secret(), transports: ['internal'] }, clientExtensionResults: {} };
};

/** Percent-encodes the UTF-8 of any text, lone surrogates included (as U+FFFD): a path a client can send. */
const encodePath = (s: string) => [...Buffer.from(s)].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('top', 'signup', 'card', 'oauth', 'callback', 'subusers', 'all', 'assets', 'index.html', '503', 'problem') },
  { weight: 3, arbitrary: nastyText.map(encodePath) },
  { weight: 2, arbitrary: fc.constantFrom('..', '%2e%2e', '%2f', '%00', '%ff', '%E0%A4%A', '%', '', ';x=1', '~', '.env', 'a'.repeat(1_000)) },
);
const deepLink = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/content/${s.join('/')}`);
const consoleLink = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/admin/${s.join('/')}`);
const partnerPage = (page: string) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom('SIAP002', 'SIAP004', 'SIAP005', 'SIAP009') }, { weight: 2, arbitrary: segment }).map((id) => `/dev/partner/${id}/${page}`);

/** What the fuzzer adds to a catalogue entry; the method, path, body encoding and caller come from the entry. */
type ApiFuzz<K extends ApiKey> = Pick<Endpoint, 'group' | 'expect' | 'valid' | 'query' | 'argon2'> &
  // A Bearer endpoint names the member whose token it is called with; other callers follow from the entry.
  ((typeof API)[K] extends { bearer: string | readonly string[] } ? { caller: Member } : { caller?: never }) &
  // A route without a body in the catalogue may be sent one anyway, in the encoding named here.
  ((typeof API)[K] extends { json: unknown } | { form: unknown } ? { body?: never } : { body?: 'form' });

type Member = keyof FuzzContext['tokens'];

/**
 * The valid requests of every route of the API catalogue (packages/contracts/src/api-catalogue.ts),
 * by its key: a catalogue entry without one here does not compile.
 */
export const API_FUZZ: { [K in ApiKey]: ApiFuzz<K> } = {
  // OAuth 2.0 (RFC 6749, 7009, 7662, 8414): form bodies, RFC 6749 error bodies.
  'POST /api/auth/token': { group: 'oauth', expect: 'oauth', valid: (c) => [
    { grant_type: 'authorization_code', code: secret(), client_id: 'SIAP009', redirect_uri: spa(c), code_verifier: VERIFIER, terminal_id: 'fuzz-terminal' },
    { grant_type: 'refresh_token', refresh_token: secret(), client_id: 'SIAP009', terminal_id: 'fuzz-terminal' },
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP009', terminal_id: 'fuzz-terminal' },
  ] },
  // Pushed authorization requests (RFC 9126, decision 0036): a request the authorize endpoint would take (201), one carrying a request_uri.
  'POST /api/auth/par': { group: 'oauth', expect: 'oauth', valid: (c) => [
    authorizeQuery(c),
    { ...authorizeQuery(c), request_uri: `urn:ietf:params:oauth:request_uri:${secret()}` },
  ] },
  'POST /api/auth/revoke': { group: 'oauth', expect: 'oauth', valid: () => [{ token: secret(), token_type_hint: 'refresh_token', client_id: 'SIAP009' }] },
  'POST /api/subuser/introspect': { group: 'oauth', expect: 'oauth', valid: (c) => [{ token: c.tokens.card, token_type_hint: 'access_token' }, { token: secret() }] },
  'POST /api/auth/direct_login/token': { group: 'oauth', expect: 'oauth', valid: () => [
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP002', terminal_id: 'fuzz-terminal' },
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP005', code_verifier: VERIFIER, terminal_id: 'fuzz-terminal' },
  ] },
  'POST /api/auth/card/refresh_token': { group: 'oauth', expect: 'oauth', valid: () => [{ refresh_token: secret(), client_id: 'SIAP005', terminal_id: 'fuzz-terminal' }] },
  'GET /.well-known/oauth-authorization-server': { group: 'oauth', expect: 'json' },

  // OpenID Connect (decision 0025): the metadata and key set, userinfo (Bearer openid), RP-initiated logout
  // (a page or a redirect; no valid id_token_hint here, so nothing of the demo members ends).
  'GET /.well-known/openid-configuration': { group: 'oidc', expect: 'json' },
  'GET /api/auth/jwks': { group: 'oidc', expect: 'json' },
  'GET /api/auth/userinfo': { group: 'oidc', expect: 'json', caller: 'card' },
  'POST /api/auth/userinfo': { group: 'oidc', expect: 'json', caller: 'card', body: 'form' },
  'GET /api/auth/end_session': { group: 'oidc', expect: 'page', query: (c) => [
    { client_id: 'SIAP004', post_logout_redirect_uri: `${c.origin}/dev/partner/SIAP004/logged_out`, state: 'fuzz' },
    { id_token_hint: `${secret()}.${secret()}.${secret()}`, state: 'fuzz' },
  ] },
  'POST /api/auth/end_session': { group: 'oidc', expect: 'page', valid: (c) => [
    { client_id: 'SIAP004', post_logout_redirect_uri: `${c.origin}/dev/partner/SIAP004/logged_out`, state: 'fuzz', confirm: 'yes' },
  ] },

  // The login form posts: a redirect (303) or the 400 page. Logins of a few ids, so that the lock (not argon2id) answers most.
  'POST /api/auth/authorize': { group: 'authorize', expect: 'page', argon2: true, query: (c) => [authorizeQuery(c)], valid: () => [
    { user_mail: 'demo.card@example.com', user_pass: 'Wrong-pass1', recaptcha_token: 'fuzz' },
    { user_mail: 'demo.open@example.com', user_pass: 'Demo1234', recaptcha_token: 'fuzz', terms: ['ServiceOnMemberId', 'PersonalInfoOnMemberId'] },
    { user_mail: 'fuzz.nobody@example.com', user_pass: 'Wrong-pass1', recaptcha_token: 'fuzz' },
  ] },
  // The SPA's question before it shows a login or card sign-up form: 200 (with redirect_to for a known client's other mistake), or 901 naming client_id or redirect_uri.
  'POST /api/auth/authorize/check': { group: 'authorize', expect: 'result', valid: (c) => [
    authorizeQuery(c),
    { ...authorizeQuery(c), client_id: 'SIAP999' },
    { ...authorizeQuery(c), client_id: 'SIAP002', redirect_uri: `${c.origin}/dev/partner/SIAP002/callback`, scope: 'openid' },
    { ...authorizeQuery(c), code_challenge_method: 'plain' },
  ] },
  'POST /api/signup/authorize': { group: 'authorize', expect: 'page', query: (c) => [authorizeQuery(c)], valid: () => [{ register_token: secret() }] },
  // The authorization endpoint's GET and the browser's logout (decision 0026): without a session cookie, the SPA's login page, login_required or the 400 page.
  'GET /api/auth/authorize': { group: 'authorize', expect: 'page', query: (c) => [
    authorizeQuery(c),
    { ...authorizeQuery(c), prompt: 'none', nonce: 'fuzz-nonce' },
    { ...authorizeQuery(c), prompt: 'login', max_age: '0' },
    { client_id: 'SIAP009', request_uri: `urn:ietf:params:oauth:request_uri:${secret()}` },
  ] },
  'POST /api/auth/logout': { group: 'authorize', expect: 'result' },
  'POST /api/auth/login': { group: 'account', expect: 'result', argon2: true, valid: () => [
    { id: 'demo.card@example.com', password: 'Wrong-pass1', recaptcha_token: 'fuzz', client_id: 'SIAP009', times: 0 },
    { id: '09000000001', password: 'Wrong-pass1', recaptcha_token: 'fuzz', client_id: 'SIAP009', times: 1 },
  ] },

  // Member reads and account changes (Bearer).
  'POST /api/user': { group: 'account', expect: 'result', caller: 'card' },
  'POST /api/user/attribute': { group: 'account', expect: 'result', caller: 'open' },
  'POST /api/user/top': { group: 'account', expect: 'result', caller: 'card' },
  'POST /api/user/profile': { group: 'account', expect: 'result', caller: 'open' },
  'POST /api/user/profile/change': { group: 'account', expect: 'result', caller: 'open', valid: () => [{ ...profile, dry_run: 1 }, { ...profile, dry_run: 0 }] },
  'POST /api/user/activities': { group: 'account', expect: 'result', caller: 'card', valid: () => [{ page: 1 }, { page: 3 }] },
  // The signed-in browsers and services (decision 0026): ids of no session, which end nothing.
  'POST /api/user/sessions': { group: 'account', expect: 'result', caller: 'card' },
  'POST /api/user/sessions/end': { group: 'account', expect: 'result', caller: 'card', valid: () => [{ kind: 'browser', id: secret() }, { kind: 'service', id: secret() }] },
  'POST /api/auth/email/change': { group: 'account', expect: 'result', caller: 'open', valid: () => [{ email: 'fuzz.new@example.com' }] },
  'POST /api/auth/email/change/otp': { group: 'account', expect: 'result', caller: 'open', valid: () => [{ otp_email: '123456', register_token: secret() }] },
  'POST /api/auth/reauth': { group: 'account', expect: 'result', caller: 'card', argon2: true, valid: () => [{ password: 'Wrong-pass1' }] },
  // The login mobile number (decision 0014): a free number and a member's are answered alike.
  'POST /api/auth/tel/change': { group: 'account', expect: 'result', caller: 'open', valid: () => [{ tel: '08012349999' }, { tel: '09000000001' }] },
  'POST /api/auth/tel/change/otp': { group: 'account', expect: 'result', caller: 'open', valid: () => [otp()] },
  'POST /api/auth/password/change': { group: 'account', expect: 'result', caller: 'card', argon2: true, valid: () => [{ current_password: 'Wrong-pass1', ...newPassword }] },
  // Both end the caller's sessions: each a member of its own made to be used up, so that neither leaves the other only 401s.
  'POST /api/user/sessions/end_all': { group: 'account', expect: 'result', caller: 'leaver' },
  'POST /api/auth/cancel': { group: 'account', expect: 'result', caller: 'victim' },
  'POST /api/auth/password/forgot': { group: 'account', expect: 'result', valid: () => [{ email: 'demo.card@example.com' }, { email: 'fuzz.nobody@example.com' }] },
  'POST /api/auth/password/reset': { group: 'account', expect: 'result', argon2: true, valid: () => [{ onetime_token: secret(), ...newPassword }] },
  'POST /api/auth/password/reset/passkeys': { group: 'account', expect: 'result', valid: () => [{ token: secret() }] },
  'POST /api/auth/password/reset/passkeys/remove': { group: 'account', expect: 'result', valid: () => [{ token: secret() }] },

  // Passkeys (decision 0024): answers of no authenticator, ids of no passkey; the ceremony's JSON is the library's to refuse.
  'POST /api/auth/passkey/login/options': { group: 'passkeys', expect: 'result', valid: () => [{ client_id: 'SIAP009' }, { client_id: 'SIAP004' }] },
  'POST /api/auth/passkey/login': { group: 'passkeys', expect: 'result', valid: () => [{ client_id: 'SIAP009', credential: assertion() }] },
  'POST /api/auth/passkey/revoke': { group: 'passkeys', expect: 'result', valid: () => [{ token: secret() }] },
  'POST /api/auth/not-me': { group: 'passkeys', expect: 'result', valid: () => [{ token: secret() }] },
  'POST /api/auth/passkeys': { group: 'passkeys', expect: 'result', caller: 'card' },
  'POST /api/auth/passkey/register/options': { group: 'passkeys', expect: 'result', caller: 'card' },
  'POST /api/auth/passkey/register': { group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ name: 'ファズ', credential: registration() }] },
  'POST /api/auth/passkey/rename': { group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ id: secret(), name: 'ファズ' }] },
  'POST /api/auth/passkey/delete': { group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ id: secret() }] },
  'POST /api/auth/passkey/require': { group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ required: false }, { required: true }] },
  'POST /api/auth/reauth/passkey/options': { group: 'passkeys', expect: 'result', caller: 'card' },
  'POST /api/auth/reauth/passkey': { group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ credential: assertion() }] },

  // Card sign-up and its steps (no Bearer: the register_token carries the flow).
  'POST /api/signup/card': { group: 'signup', expect: 'result', argon2: true, valid: (c) => [
    { username: 'fuzz.signup@example.com', password: 'Fuzz1234', password_check: 'Fuzz1234', ...CARD, check: true, ...authorizeQuery(c), recaptcha_token: 'fuzz' },
  ] },
  'POST /api/signup/sms': { group: 'signup', expect: 'result', valid: () => [otp()] },
  'POST /api/signup/otp': { group: 'signup', expect: 'result', valid: () => [otp()] },
  'POST /api/signup/pin': { group: 'signup', expect: 'result', valid: () => [{ pin: '1234', a_no: '5678', register_token: secret() }, { pin: '1234', register_token: secret() }] },
  'POST /api/sms/resend': { group: 'signup', expect: 'result', valid: () => [{ register_token: secret() }] },
  'POST /api/otp/resend': { group: 'signup', expect: 'result', valid: () => [{ register_token: secret() }] },
  'POST /api/signup/terms_accept': { group: 'signup', expect: 'result', valid: () => [{ register_token: secret(), client_id: 'SIAP009' }] },
  'POST /api/signup/mail/digital': { group: 'signup', expect: 'result', valid: () => [{ register_token: secret(), mail_digital: 1 }] },
  'POST /api/signup/open': { group: 'signup', expect: 'result', argon2: true, valid: () => [
    { email: 'fuzz.open@example.com', ...profile, tel: '09012345678', ...newPassword, email_flg: true, check: true, dry_run: 1, client_id: 'SIAP009' },
    { email: 'fuzz.open@example.com', ...profile, tel: '09012345678', ...newPassword, email_flg: true, check: true, dry_run: 0, client_id: 'SIAP009,SIAP002' },
  ] },
  'POST /api/signup/open/otp': { group: 'signup', expect: 'result', valid: () => [{ onetime_token: secret() }] },

  // Cards (sub-users), Bearer.
  'POST /api/subuser/cards': { group: 'cards', expect: 'result', caller: 'card' },
  'POST /api/subuser/card/tokens': { group: 'cards', expect: 'result', caller: 'card' },
  'POST /api/subuser/card/add': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ card_token: 'ES0000000002' }, { ...CARD }, { cardnumber: '0200000000000005', cc_month: '12', cc_year: '2030', cvc: '' }] },
  'POST /api/subuser/card/activate': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, activation_key: '123456' }] },
  'POST /api/subuser/sc/activate/mobile': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, tel: '09011110001' }] },
  'POST /api/subuser/card/enable': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ card_token: 'ES0000000002' }] },
  'POST /api/subuser/card/update_relevant_tokens': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{}] },
  'POST /api/subuser/delete': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_ids: ['fuzz-subuser-1'] }, { subuser_ids: ['fuzz-subuser-1', 'fuzz-subuser-2'] }] },
  'POST /api/subuser/na/add': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, na_id: 'demo-na-card', na_password: 'wrong-password' }] },
  'POST /api/subuser/open': { group: 'cards', expect: 'result', caller: 'card' },
  'POST /api/subuser/revoke': { group: 'cards', expect: 'result', caller: 'card', valid: () => [{ token: secret(), client_id: 'SIAP005', token_type_hint: 'refresh_token' }] },

  // Direct login and the hand-off to partner services.
  'POST /api/auth/user_onetime_token': { group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ client_id: 'SIAP002' }, {}] },
  'POST /api/subuser/direct_login/sc': { group: 'direct-login', expect: 'result', caller: 'card', valid: () => [
    { subuser_id: DEMO_SUBUSER, member_type: 'na', client_id: 'SIAP002' },
    { subuser_id: DEMO_SUBUSER, member_type: 'na', client_id: 'SIAP005', code_challenge: CHALLENGE, code_challenge_method: 'S256' },
  ] },
  'POST /api/subuser/direct_login/terms_accept': { group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ client_id: 'SIAP004', terms: ['ServiceOnNetAnswer'] }] },
  'POST /api/subuser/direct_login/na': { group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, member_type: 'na', param1: 'a', param2: 'b' }] },
  'POST /api/preauth/direct_login': { group: 'direct-login', expect: 'result', valid: () => [{ onetime_token: secret(), client_id: 'SIAP002' }] },
  'GET /api/redirect/user_one_time_token': { group: 'redirects', expect: 'page', query: () => Object.keys(DIRECT_LOGIN_TARGETS).map((target) => ({ one_time_token: secret(), target, param: 'fuzz' })) },
  'GET /api/redirect/resume_app': { group: 'redirects', expect: 'page', query: () => [{ client_id: 'SIAP005', state: 'fuzz', esid: 'ES0000000001' }] },

  // Points, the open-account link, the numberless card and the upgrade (Bearer but the last).
  'POST /api/user/aqf': { group: 'points', expect: 'result', caller: 'open' },
  'POST /api/aqf/transfer/open/select': { group: 'points', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER }] },
  'POST /api/aqf/transfer/open/otp': { group: 'points', expect: 'result', caller: 'card', valid: () => [otp()] },
  // A birthday that is not demo.open's: a match would end the open member's login (decision 0006). The password is checked as a login's (decision 0014).
  'POST /api/link/open': { group: 'points', expect: 'result', caller: 'card', argon2: true, valid: () => [{ email: 'demo.open@example.com', last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', birthday: '19900102', tel: '09000000002', password: 'Demo1234' }] },
  'POST /api/auth/numberless': { group: 'upgrade', expect: 'result', caller: 'open', valid: () => [{ tel: '09011110001' }] },
  'POST /api/auth/numberless/otp': { group: 'upgrade', expect: 'result', caller: 'open', valid: () => [otp()] },
  'POST /api/auth/register': { group: 'upgrade', expect: 'result', caller: 'open', valid: () => [{ ...CARD }] },
  'POST /api/auth/upgrade/sc': { group: 'upgrade', expect: 'result', valid: () => [otp(), { register_token: secret(), pin: '1234' }] },

  // The service itself.
  // The operator API (decision 0032): the ceremonies are public; the rest are called here without an
  // operator token (none, a member's, or garbage): the guard answers 401 or 403 before any body is read.
  'POST /api/admin/enrol/options': { group: 'operators', expect: 'result', valid: () => [{ token: secret() }] },
  'POST /api/admin/enrol': { group: 'operators', expect: 'result', valid: () => [{ token: secret(), name: 'fuzz', credential: registration() }] },
  'POST /api/admin/login/options': { group: 'operators', expect: 'result' },
  'POST /api/admin/login': { group: 'operators', expect: 'result', valid: () => [{ credential: assertion() }] },
  'POST /api/admin/me': { group: 'operators', expect: 'result' },
  'POST /api/admin/logout': { group: 'operators', expect: 'result' },
  'POST /api/admin/reauth/options': { group: 'operators', expect: 'result' },
  'POST /api/admin/reauth': { group: 'operators', expect: 'result', valid: () => [{ credential: assertion() }] },
  'POST /api/admin/operators/invite': { group: 'operators', expect: 'result', valid: () => [{ email: 'fuzz.operator@example.com', display_name: 'ファズ', role: 'support' }] },
  'POST /api/admin/members/search': { group: 'operators', expect: 'result', valid: () => [{ email: 'demo.card@example.com' }, { tel: '090-0000-0001' }, { member_id: 'demo-card-member' }, { card_last4: '0001', birthday: '1990/1/1' }] },
  'POST /api/admin/members/view': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member' }] },
  'POST /api/admin/members/reveal': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', field: 'tel' }] },
  'POST /api/admin/members/unlock': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/end-sessions': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/password-reset': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/resend-activation': { group: 'operators', expect: 'result', valid: () => [{ email: 'fuzz.pending@example.com', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/suspend': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/restore': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/members/passkeys/remove': { group: 'operators', expect: 'result', valid: () => [{ member_id: 'demo-card-member', passkey_id: secret(), reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/audit': { group: 'operators', expect: 'result', valid: () => [{}, { action: 'member.view', limit: 10 }] },
  'POST /api/admin/audit/export': { group: 'operators', expect: 'result', valid: () => [{}, { action: 'member.unlock', from: 0 }] },
  'POST /api/admin/clients': { group: 'operators', expect: 'result' },
  'POST /api/admin/clients/register': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'fuzz-client', name: 'ファズ', type: 'confidential', redirect_uris: ['https://fuzz.example.com/cb'], scopes: ['openid'], reason: 'ファズ', ticket: 'T-1' }] },
  'POST /api/admin/clients/update': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'SIAP009', name: 'ファズ', reason: 'ファズ' }] },
  'POST /api/admin/clients/enable': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'SIAP009', reason: 'ファズ' }] },
  'POST /api/admin/clients/disable': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'SIAP009', reason: 'ファズ' }] },
  'POST /api/admin/clients/secret/rotate': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'SIAP009', overlap_ms: 60000, reason: 'ファズ' }] },
  'POST /api/admin/clients/secret/retire': { group: 'operators', expect: 'result', valid: () => [{ client_id: 'SIAP009', reason: 'ファズ' }] },
  'POST /api/admin/operators': { group: 'operators', expect: 'result' },
  'POST /api/admin/operators/disable': { group: 'operators', expect: 'result', valid: () => [{ operator_id: secret(), reason: 'ファズ' }] },
  'POST /api/admin/operators/enable': { group: 'operators', expect: 'result', valid: () => [{ operator_id: secret(), reason: 'ファズ' }] },
  'GET /api/health': { group: 'pages', expect: 'json' },
  'GET /api/health/live': { group: 'pages', expect: 'json' },
  'GET /api/health/ready': { group: 'pages', expect: 'json' },
  'GET /api/openapi.json': { group: 'pages', expect: 'json' },
};

/** The table entry of a catalogue route: method, path, body encoding and caller are its entry's. */
function catalogued(key: ApiKey): Endpoint {
  const entry: ApiRoute = API[key];
  const fuzz = API_FUZZ[key] as ApiFuzz<ApiKey> & { caller?: Member; body?: 'form' };
  const caller = entry.bearer ? fuzz.caller! : entry.client === 'confidential' ? 'client' : 'none';
  const body = entry.form ? 'form' : entry.json ? 'json' : fuzz.body;
  return { ...fuzz, method: entry.method, route: entry.path, caller, ...(body ? { body } : {}) };
}

/** The routes outside the API: the SPA, its deep links and files, and the development pages. */
const PAGES: Endpoint[] = [
  { method: 'GET', route: '/', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/*', group: 'pages', expect: 'page', caller: 'none', paths: deepLink },
  { method: 'GET', route: '/content/index.html', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/assets/app.js', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/admin', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/admin/', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/admin/*', group: 'pages', expect: 'page', caller: 'none', paths: consoleLink },
  { method: 'GET', route: '/admin/index.html', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/admin/assets/app.js', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/dev/mailbox.json', group: 'dev', expect: 'json', caller: 'none' },
  { method: 'GET', route: '/dev/mailbox', group: 'dev', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/dev/partner/demo.css', group: 'dev', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/dev/partner/:clientId/direct', group: 'dev', expect: 'page', caller: 'none', paths: partnerPage('direct'), query: () => [{ onetime_token: secret() }] },
  { method: 'GET', route: '/dev/partner/:clientId/callback', group: 'dev', expect: 'page', caller: 'none', paths: partnerPage('callback'), query: () => [{ code: secret(), state: 'fuzz', iss: 'x' }, { error: 'access_denied', state: 'fuzz' }] },
  { method: 'GET', route: '/dev/netanswer/login', group: 'dev', expect: 'page', caller: 'none', query: () => [{ key: secret() }] },
  // The demo partners' back-channel logout endpoint (Back-Channel Logout 1.0 section 2.8: 200, or 400 with an RFC 6749 error), its page, and the post-logout page.
  { method: 'POST', route: '/dev/partner/:clientId/backchannel_logout', group: 'dev', expect: 'oauth', caller: 'none', body: 'form', paths: partnerPage('backchannel_logout'), valid: () => [{ logout_token: `${secret()}.${secret()}.${secret()}` }] },
  { method: 'GET', route: '/dev/partner/:clientId/backchannel_logout', group: 'dev', expect: 'page', caller: 'none', paths: partnerPage('backchannel_logout') },
  { method: 'GET', route: '/dev/partner/:clientId/logged_out', group: 'dev', expect: 'page', caller: 'none', paths: partnerPage('logged_out'), query: () => [{ state: 'fuzz' }] },
];

/** The fuzz table: every route of the API catalogue, then the pages. */
export const FUZZ_TABLE: Endpoint[] = [...API_KEYS.map(catalogued), ...PAGES];


/** Table key of a route: "METHOD url". HEAD routes are Fastify's automatic twins of GET routes, fuzzed through them. */
export const routeKey = (r: { method: string; url?: string; route?: string }) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url ?? r.route}`;
