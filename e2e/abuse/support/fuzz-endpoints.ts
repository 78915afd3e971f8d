import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { DIRECT_LOGIN_TARGETS } from '@sso/contracts/constants';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import type { Endpoint, Fields, FuzzContext } from './fuzz-requests.ts';
import { nastyText } from './fuzz-values.ts';

/**
 * The fuzz table: one entry per route the server registers (fuzz.test.ts compares it with the
 * routes Fastify reports, both ways), each with the valid request of its contract in
 * packages/contracts/src (or of its route file where the contract is local) that the fuzzer bends.
 * Valid requests never change what the other entries depend on: wrong current passwords, ids that
 * are not the demo card's for removals, dry runs; the withdrawal has a member of its own.
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
const partnerPage = (page: string) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom('SIAP002', 'SIAP004', 'SIAP005', 'SIAP009') }, { weight: 2, arbitrary: segment }).map((id) => `/dev/partner/${id}/${page}`);

export const FUZZ_TABLE: Endpoint[] = [
  // OAuth 2.0 (RFC 6749, 7009, 7662, 8414): form bodies, RFC 6749 error bodies.
  { method: 'POST', route: '/api/auth/token', group: 'oauth', expect: 'oauth', caller: 'none', body: 'form', valid: (c) => [
    { grant_type: 'authorization_code', code: secret(), client_id: 'SIAP009', redirect_uri: spa(c), code_verifier: VERIFIER, terminal_id: 'fuzz-terminal' },
    { grant_type: 'refresh_token', refresh_token: secret(), client_id: 'SIAP009', terminal_id: 'fuzz-terminal' },
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP009', terminal_id: 'fuzz-terminal' },
  ] },
  { method: 'POST', route: '/api/auth/revoke', group: 'oauth', expect: 'oauth', caller: 'none', body: 'form', valid: () => [{ token: secret(), token_type_hint: 'refresh_token', client_id: 'SIAP009' }] },
  { method: 'POST', route: '/api/subuser/introspect', group: 'oauth', expect: 'oauth', caller: 'client', body: 'form', valid: (c) => [{ token: c.tokens.card, token_type_hint: 'access_token' }, { token: secret() }] },
  { method: 'POST', route: '/api/auth/direct_login/token', group: 'oauth', expect: 'oauth', caller: 'none', body: 'form', valid: () => [
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP002', terminal_id: 'fuzz-terminal' },
    { grant_type: 'password', onetime_token: secret(), client_id: 'SIAP005', code_verifier: VERIFIER, terminal_id: 'fuzz-terminal' },
  ] },
  { method: 'POST', route: '/api/auth/card/refresh_token', group: 'oauth', expect: 'oauth', caller: 'none', body: 'form', valid: () => [{ refresh_token: secret(), client_id: 'SIAP005', terminal_id: 'fuzz-terminal' }] },
  { method: 'GET', route: '/.well-known/oauth-authorization-server', group: 'oauth', expect: 'json', caller: 'none' },

  // OpenID Connect (decision 0025): the metadata and key set, userinfo (Bearer openid), RP-initiated logout
  // (a page or a redirect; no valid id_token_hint here, so nothing of the demo members ends).
  { method: 'GET', route: '/.well-known/openid-configuration', group: 'oidc', expect: 'json', caller: 'none' },
  { method: 'GET', route: '/api/auth/jwks', group: 'oidc', expect: 'json', caller: 'none' },
  { method: 'GET', route: '/api/auth/userinfo', group: 'oidc', expect: 'json', caller: 'card' },
  { method: 'POST', route: '/api/auth/userinfo', group: 'oidc', expect: 'json', caller: 'card', body: 'form' },
  { method: 'GET', route: '/api/auth/end_session', group: 'oidc', expect: 'page', caller: 'none', query: (c) => [
    { client_id: 'SIAP004', post_logout_redirect_uri: `${c.origin}/dev/partner/SIAP004/logged_out`, state: 'fuzz' },
    { id_token_hint: `${secret()}.${secret()}.${secret()}`, state: 'fuzz' },
  ] },
  { method: 'POST', route: '/api/auth/end_session', group: 'oidc', expect: 'page', caller: 'none', body: 'form', valid: (c) => [
    { client_id: 'SIAP004', post_logout_redirect_uri: `${c.origin}/dev/partner/SIAP004/logged_out`, state: 'fuzz', confirm: 'yes' },
  ] },

  // The login form posts: a redirect (303) or the 400 page. Logins of a few ids, so that the lock (not argon2id) answers most.
  { method: 'POST', route: '/api/auth/authorize', group: 'authorize', expect: 'page', caller: 'none', body: 'form', argon2: true, query: (c) => [authorizeQuery(c)], valid: () => [
    { user_mail: 'demo.card@example.com', user_pass: 'Wrong-pass1', recaptcha_token: 'fuzz' },
    { user_mail: 'demo.open@example.com', user_pass: 'Demo1234', recaptcha_token: 'fuzz', terms: ['ServiceOnMemberId', 'PersonalInfoOnMemberId'] },
    { user_mail: 'fuzz.nobody@example.com', user_pass: 'Wrong-pass1', recaptcha_token: 'fuzz' },
  ] },
  // The SPA's question before it shows a login or card sign-up form: 200 (with redirect_to for a known client's other mistake), or 901 naming client_id or redirect_uri.
  { method: 'POST', route: '/api/auth/authorize/check', group: 'authorize', expect: 'result', caller: 'none', valid: (c) => [
    authorizeQuery(c),
    { ...authorizeQuery(c), client_id: 'SIAP999' },
    { ...authorizeQuery(c), client_id: 'SIAP002', redirect_uri: `${c.origin}/dev/partner/SIAP002/callback`, scope: 'openid' },
    { ...authorizeQuery(c), code_challenge_method: 'plain' },
  ] },
  { method: 'POST', route: '/api/signup/authorize', group: 'authorize', expect: 'page', caller: 'none', body: 'form', query: (c) => [authorizeQuery(c)], valid: () => [{ register_token: secret() }] },
  // The authorization endpoint's GET and the browser's logout (decision 0026): without a session cookie, the SPA's login page, login_required or the 400 page.
  { method: 'GET', route: '/api/auth/authorize', group: 'authorize', expect: 'page', caller: 'none', query: (c) => [
    authorizeQuery(c),
    { ...authorizeQuery(c), prompt: 'none', nonce: 'fuzz-nonce' },
    { ...authorizeQuery(c), prompt: 'login', max_age: '0' },
  ] },
  { method: 'POST', route: '/api/auth/logout', group: 'authorize', expect: 'result', caller: 'none' },
  { method: 'POST', route: '/api/auth/login', group: 'account', expect: 'result', caller: 'none', argon2: true, valid: () => [
    { id: 'demo.card@example.com', password: 'Wrong-pass1', recaptcha_token: 'fuzz', client_id: 'SIAP009', times: 0 },
    { id: '09000000001', password: 'Wrong-pass1', recaptcha_token: 'fuzz', client_id: 'SIAP009', times: 1 },
  ] },

  // Member reads and account changes (Bearer).
  { method: 'POST', route: '/api/user', group: 'account', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/user/attribute', group: 'account', expect: 'result', caller: 'open' },
  { method: 'POST', route: '/api/user/profile', group: 'account', expect: 'result', caller: 'open' },
  { method: 'POST', route: '/api/user/profile/change', group: 'account', expect: 'result', caller: 'open', valid: () => [{ ...profile, dry_run: 1 }, { ...profile, dry_run: 0 }] },
  { method: 'POST', route: '/api/user/activities', group: 'account', expect: 'result', caller: 'card', valid: () => [{ page: 1 }, { page: 3 }] },
  // The signed-in browsers and services (decision 0026): ids of no session, which end nothing.
  { method: 'POST', route: '/api/user/sessions', group: 'account', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/user/sessions/end', group: 'account', expect: 'result', caller: 'card', valid: () => [{ kind: 'browser', id: secret() }, { kind: 'service', id: secret() }] },
  { method: 'POST', route: '/api/auth/email/change', group: 'account', expect: 'result', caller: 'open', valid: () => [{ email: 'fuzz.new@example.com' }] },
  { method: 'POST', route: '/api/auth/email/change/otp', group: 'account', expect: 'result', caller: 'open', valid: () => [{ otp_email: '123456', register_token: secret() }] },
  { method: 'POST', route: '/api/auth/reauth', group: 'account', expect: 'result', caller: 'card', argon2: true, valid: () => [{ password: 'Wrong-pass1' }] },
  // The login mobile number (decision 0014): a free number and a member's are answered alike.
  { method: 'POST', route: '/api/auth/tel/change', group: 'account', expect: 'result', caller: 'open', valid: () => [{ tel: '08012349999' }, { tel: '09000000001' }] },
  { method: 'POST', route: '/api/auth/tel/change/otp', group: 'account', expect: 'result', caller: 'open', valid: () => [otp()] },
  { method: 'POST', route: '/api/auth/password/change', group: 'account', expect: 'result', caller: 'card', argon2: true, valid: () => [{ current_password: 'Wrong-pass1', ...newPassword }] },
  { method: 'POST', route: '/api/auth/cancel', group: 'account', expect: 'result', caller: 'victim' },
  { method: 'POST', route: '/api/auth/password/forgot', group: 'account', expect: 'result', caller: 'none', valid: () => [{ email: 'demo.card@example.com' }, { email: 'fuzz.nobody@example.com' }] },
  { method: 'POST', route: '/api/auth/password/reset', group: 'account', expect: 'result', caller: 'none', argon2: true, valid: () => [{ onetime_token: secret(), ...newPassword }] },
  { method: 'POST', route: '/api/auth/password/reset/passkeys', group: 'account', expect: 'result', caller: 'none', valid: () => [{ token: secret() }] },
  { method: 'POST', route: '/api/auth/password/reset/passkeys/remove', group: 'account', expect: 'result', caller: 'none', valid: () => [{ token: secret() }] },

  // Passkeys (decision 0024): answers of no authenticator, ids of no passkey; the ceremony's JSON is the library's to refuse.
  { method: 'POST', route: '/api/auth/passkey/login/options', group: 'passkeys', expect: 'result', caller: 'none', valid: () => [{ client_id: 'SIAP009' }, { client_id: 'SIAP004' }] },
  { method: 'POST', route: '/api/auth/passkey/login', group: 'passkeys', expect: 'result', caller: 'none', valid: () => [{ client_id: 'SIAP009', credential: assertion() }] },
  { method: 'POST', route: '/api/auth/passkey/revoke', group: 'passkeys', expect: 'result', caller: 'none', valid: () => [{ token: secret() }] },
  { method: 'POST', route: '/api/auth/passkeys', group: 'passkeys', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/auth/passkey/register/options', group: 'passkeys', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/auth/passkey/register', group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ name: 'ファズ', credential: registration() }] },
  { method: 'POST', route: '/api/auth/passkey/rename', group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ id: secret(), name: 'ファズ' }] },
  { method: 'POST', route: '/api/auth/passkey/delete', group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ id: secret() }] },
  { method: 'POST', route: '/api/auth/passkey/require', group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ required: false }, { required: true }] },
  { method: 'POST', route: '/api/auth/reauth/passkey/options', group: 'passkeys', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/auth/reauth/passkey', group: 'passkeys', expect: 'result', caller: 'card', valid: () => [{ credential: assertion() }] },

  // Card sign-up and its steps (no Bearer: the register_token carries the flow).
  { method: 'POST', route: '/api/signup/card', group: 'signup', expect: 'result', caller: 'none', argon2: true, valid: (c) => [
    { username: 'fuzz.signup@example.com', password: 'Fuzz1234', password_check: 'Fuzz1234', ...CARD, check: true, ...authorizeQuery(c), recaptcha_token: 'fuzz' },
  ] },
  { method: 'POST', route: '/api/signup/sms', group: 'signup', expect: 'result', caller: 'none', valid: () => [otp()] },
  { method: 'POST', route: '/api/signup/otp', group: 'signup', expect: 'result', caller: 'none', valid: () => [otp()] },
  { method: 'POST', route: '/api/signup/pin', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ pin: '1234', a_no: '5678', register_token: secret() }, { pin: '1234', register_token: secret() }] },
  { method: 'POST', route: '/api/sms/resend', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ register_token: secret() }] },
  { method: 'POST', route: '/api/otp/resend', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ register_token: secret() }] },
  { method: 'POST', route: '/api/signup/terms_accept', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ register_token: secret(), client_id: 'SIAP009' }] },
  { method: 'POST', route: '/api/signup/mail/digital', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ register_token: secret(), mail_digital: 1 }] },
  { method: 'POST', route: '/api/signup/open', group: 'signup', expect: 'result', caller: 'none', argon2: true, valid: () => [
    { email: 'fuzz.open@example.com', ...profile, tel: '09012345678', ...newPassword, email_flg: true, check: true, dry_run: 1, client_id: 'SIAP009' },
    { email: 'fuzz.open@example.com', ...profile, tel: '09012345678', ...newPassword, email_flg: true, check: true, dry_run: 0, client_id: 'SIAP009,SIAP002' },
  ] },
  { method: 'POST', route: '/api/signup/open/otp', group: 'signup', expect: 'result', caller: 'none', valid: () => [{ onetime_token: secret() }] },

  // Cards (sub-users), Bearer.
  { method: 'POST', route: '/api/subuser/cards', group: 'cards', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/subuser/card/tokens', group: 'cards', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/subuser/card/add', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ card_token: 'ES0000000002' }, { ...CARD }, { cardnumber: '0200000000000005', cc_month: '12', cc_year: '2030', cvc: '' }] },
  { method: 'POST', route: '/api/subuser/card/activate', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, activation_key: '123456' }] },
  { method: 'POST', route: '/api/subuser/sc/activate/mobile', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, tel: '09011110001' }] },
  { method: 'POST', route: '/api/subuser/card/enable', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ card_token: 'ES0000000002' }] },
  { method: 'POST', route: '/api/subuser/card/update_relevant_tokens', group: 'cards', expect: 'result', caller: 'card', valid: () => [{}] },
  { method: 'POST', route: '/api/subuser/delete', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_ids: ['fuzz-subuser-1'] }, { subuser_ids: ['fuzz-subuser-1', 'fuzz-subuser-2'] }] },
  { method: 'POST', route: '/api/subuser/na/add', group: 'cards', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, na_id: 'demo-na-card', na_password: 'wrong-password' }] },
  { method: 'POST', route: '/api/subuser/open', group: 'cards', expect: 'result', caller: 'card' },
  { method: 'POST', route: '/api/subuser/revoke', group: 'cards', expect: 'result', caller: 'card', body: 'form', valid: () => [{ token: secret(), client_id: 'SIAP005', token_type_hint: 'refresh_token' }] },

  // Direct login and the hand-off to partner services.
  { method: 'POST', route: '/api/auth/user_onetime_token', group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ client_id: 'SIAP002' }, {}] },
  { method: 'POST', route: '/api/subuser/direct_login/sc', group: 'direct-login', expect: 'result', caller: 'card', valid: () => [
    { subuser_id: DEMO_SUBUSER, member_type: 'na', client_id: 'SIAP002' },
    { subuser_id: DEMO_SUBUSER, member_type: 'na', client_id: 'SIAP005', code_challenge: CHALLENGE, code_challenge_method: 'S256' },
  ] },
  { method: 'POST', route: '/api/subuser/direct_login/terms_accept', group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ client_id: 'SIAP004', terms: ['ServiceOnNetAnswer'] }] },
  { method: 'POST', route: '/api/subuser/direct_login/na', group: 'direct-login', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER, member_type: 'na', param1: 'a', param2: 'b' }] },
  { method: 'POST', route: '/api/preauth/direct_login', group: 'direct-login', expect: 'result', caller: 'none', valid: () => [{ onetime_token: secret(), client_id: 'SIAP002' }] },
  { method: 'GET', route: '/api/redirect/user_one_time_token', group: 'redirects', expect: 'page', caller: 'none', query: () => Object.keys(DIRECT_LOGIN_TARGETS).map((target) => ({ one_time_token: secret(), target, param: 'fuzz' })) },
  { method: 'GET', route: '/api/redirect/resume_app', group: 'redirects', expect: 'page', caller: 'none', query: () => [{ client_id: 'SIAP005', state: 'fuzz', esid: 'ES0000000001' }] },

  // Points, the open-account link, the numberless card and the upgrade (Bearer but the last).
  { method: 'POST', route: '/api/user/aqf', group: 'points', expect: 'result', caller: 'open' },
  { method: 'POST', route: '/api/aqf/transfer/open/select', group: 'points', expect: 'result', caller: 'card', valid: () => [{ subuser_id: DEMO_SUBUSER }] },
  { method: 'POST', route: '/api/aqf/transfer/open/otp', group: 'points', expect: 'result', caller: 'card', valid: () => [otp()] },
  // A birthday that is not demo.open's: a match would end the open member's login (decision 0006). The password is checked as a login's (decision 0014).
  { method: 'POST', route: '/api/link/open', group: 'points', expect: 'result', caller: 'card', argon2: true, valid: () => [{ email: 'demo.open@example.com', last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', birthday: '19900102', tel: '09000000002', password: 'Demo1234' }] },
  { method: 'POST', route: '/api/auth/numberless', group: 'upgrade', expect: 'result', caller: 'open', valid: () => [{ tel: '09011110001' }] },
  { method: 'POST', route: '/api/auth/numberless/otp', group: 'upgrade', expect: 'result', caller: 'open', valid: () => [otp()] },
  { method: 'POST', route: '/api/auth/register', group: 'upgrade', expect: 'result', caller: 'open', valid: () => [{ ...CARD }] },
  { method: 'POST', route: '/api/auth/upgrade/sc', group: 'upgrade', expect: 'result', caller: 'none', valid: () => [otp(), { register_token: secret(), pin: '1234' }] },

  // Pages: the SPA, its deep links and files, and the development pages.
  { method: 'GET', route: '/api/health', group: 'pages', expect: 'json', caller: 'none' },
  { method: 'GET', route: '/api/openapi.json', group: 'pages', expect: 'json', caller: 'none' },
  { method: 'GET', route: '/', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/*', group: 'pages', expect: 'page', caller: 'none', paths: deepLink },
  { method: 'GET', route: '/content/index.html', group: 'pages', expect: 'page', caller: 'none' },
  { method: 'GET', route: '/content/assets/app.js', group: 'pages', expect: 'page', caller: 'none' },
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

/** Table key of a route: "METHOD url". HEAD routes are Fastify's automatic twins of GET routes, fuzzed through them. */
export const routeKey = (r: { method: string; url?: string; route?: string }) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url ?? r.route}`;
