import { beforeEach, describe, expect, it } from 'vitest';
import { emailChangeResponseSchema } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { upgradeRegisterResponseSchema } from '@sso/contracts/upgrade';
import { latestCode, mailsTo } from '../../test-support/mailbox.ts';
import { bearer, exchange, getCode, loginTokens, postAuthorize, tokenRequest, WEB_REDIRECT, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call } from '../../test-support/account-change-kit.ts';
import { onetimeToken, redeem } from '../../test-support/direct-login-kit.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { addCard, confirm as confirmTransfer, setOpenPoints, startTransfer } from '../../test-support/points-kit.ts';
import { newMember, reset, resetToken } from '../../test-support/recover-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, startSignup } from '../../test-support/signup-kit.ts';
import { PARTNER, requestQuery, TestBrowser } from '../../test-support/sso-kit.ts';
import { cardFields, NUMBERLESS } from '../../test-support/upgrade-kit.ts';

/**
 * The session-ending matrix (ARCHITECTURE.md "Ending is complete"; docs/security.md "Ending a
 * member's sessions"): each event that ends a member's sessions, by each live secret that could
 * still act for the member (an SSO session among them). Every secret is set up live, the event runs, and then the secret is
 * used as its holder would: every cell must be refused, with the answer a dead secret gets. Where the member can still log in (all but
 * the withdrawal), the flows are tried from a fresh session, so that what is refused is the flow
 * and not only the old session.
 */

type Member = Awaited<ReturnType<typeof newMember>>;
/** How the member logs in after the event (none after a withdrawal). */
type After = { email: string; password: string } | undefined;

const NEW_PASSWORD = 'After-pass2';
let serial = 0;
const newAddress = () => `ended.${++serial}.${Date.now()}@example.com`;

/** The login step (/api/auth/login): its ticket for the authorize step. */
async function loginTicket(t: TestApp, id: string, password: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } });
  expect(res.json().result_code, res.body).toBe(0);
  return String(res.json().login_ticket);
}

/** Adds a passkey from the session (proved by its password login) and signs in with it: the `pk.` ticket of the login step. */
async function passkeySignIn(t: TestApp, access: string): Promise<string> {
  const authenticator = newAuthenticator();
  expect((await addPasskey(t, access, authenticator)).json().result_code).toBe(0);
  const res = await new LoginBrowser().signIn(t, authenticator);
  expect(res.json().login_ticket, res.body).toMatch(/^pk\./);
  return String(res.json().login_ticket);
}

/** The link of the newest "passkey added" mail to the address (decision 0024). */
async function passkeyRevokeLink(t: TestApp, email: string): Promise<string> {
  const mail = (await mailsTo(t.app, email)).find((m) => m.text.includes('/content/passkey/revoke?token='));
  const token = /\/content\/passkey\/revoke\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no passkey revoke link in the mail to ${email}`);
  return token;
}

/** Asks for a password reset link, and returns it from the mail that comes. */
async function resetLink(t: TestApp, email: string): Promise<string> {
  const before = (await mailsTo(t.app, email)).length;
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  return resetToken(t, email, before + 1);
}

/** Starts an e-mail change to a new address; returns its register_token, the code mailed there and the session that asked. */
async function emailChange(t: TestApp, access: string) {
  const address = newAddress();
  const res = await call(t, '/api/auth/email/change', access, { email: address });
  expect(res.statusCode, res.body).toBe(200);
  const code = await latestCode(t.app, address);
  return { address, access, register_token: emailChangeResponseSchema.parse(res.json()).register_token, otp_email: code! };
}

/** Confirms a change with its code, from the session that asked for it (as the SPA does). */
const confirmEmailChange = (t: TestApp, change: { access: string; register_token: string; otp_email: string }) =>
  call(t, '/api/auth/email/change/otp', change.access, { register_token: change.register_token, otp_email: change.otp_email });

/** Every live secret of the member, set up before the event. */
async function liveSecrets(t: TestApp, member: Member) {
  const login = { user: member.email, password: member.password };
  const session = await loginTokens(t.app, login);
  // A browser signed in with its SSO session (decision 0026): a partner's link would complete without the password.
  const browser = new TestBrowser();
  await browser.login(t, member);
  const code = await getCode(t.app, login);
  const ticket = await loginTicket(t, member.email, member.password);
  // A passkey sign-in's ticket (`pk.`, decision 0024), held by whoever registered the passkey: it lives ten minutes.
  const passkeyTicket = await passkeySignIn(t, session.access_token);
  const otherResetLink = await resetLink(t, member.email);
  const pendingEmailChange = await emailChange(t, session.access_token);
  const directLogin = await onetimeToken(t, session.access_token);
  // A point transfer to a card the card master does not know: its code goes by mail to the member.
  await setOpenPoints(t, member.id, 1200);
  const transfer = await startTransfer(t, session.access_token, await addCard(t, member.id), member.email);
  const numberless = await call(t, '/api/auth/numberless', session.access_token, { tel: NUMBERLESS.tel });
  expect(numberless.statusCode, numberless.body).toBe(200);
  const upgrade = await call(t, '/api/auth/register', session.access_token, cardFields(CARDS.sms));
  expect(upgrade.statusCode, upgrade.body).toBe(200);
  return {
    session,
    browser,
    code,
    ticket,
    passkeyTicket,
    otherResetLink,
    pendingEmailChange,
    directLogin,
    transfer: { register_token: transfer.body.register_token, code: transfer.code },
    numberless: { register_token: String(numberless.json().register_token), onetime_password: await codeFor(t, NUMBERLESS.tel) },
    upgrade: { register_token: upgradeRegisterResponseSchema.parse(upgrade.json()).register_token, onetime_password: await codeFor(t, CARDS.sms.mobile) },
  };
}

/** The events that end a member's sessions; each answers how the member logs in afterwards. */
const EVENTS: Record<string, (t: TestApp, member: Member, access: string) => Promise<After>> = {
  'password reset': async (t, member) => {
    const link = await resetLink(t, member.email);
    const res = await reset(t, link, NEW_PASSWORD);
    expect(res.json().result_code, res.body).toBe(0);
    // The link being used works once.
    expect((await reset(t, link, 'Again-pass3')).json().result_code).toBe(902);
    return { email: member.email, password: NEW_PASSWORD };
  },
  'password change': async (t, member, access) => {
    const res = await call(t, '/api/auth/password/change', access, { current_password: member.password, password: NEW_PASSWORD, password_check: NEW_PASSWORD });
    expect(res.json().result_code, res.body).toBe(0);
    return { email: member.email, password: NEW_PASSWORD };
  },
  'e-mail change': async (t, member, access) => {
    const change = await emailChange(t, access);
    const res = await confirmEmailChange(t, change);
    expect(res.json().result_code, res.body).toBe(0);
    return { email: change.address, password: member.password };
  },
  // The link of the "passkey added" mail (decision 0024): the passkey goes and every session ends.
  'passkey revoke link': async (t, member) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/passkey/revoke', payload: { token: await passkeyRevokeLink(t, member.email) } });
    expect(res.json().result_code, res.body).toBe(0);
    return { email: member.email, password: member.password };
  },
  withdrawal: async (t, _member, access) => {
    const res = await call(t, '/api/auth/cancel', access);
    expect(res.json().result_code, res.body).toBe(0);
    return undefined;
  },
};

/**
 * Every cell refused (docs/security.md "Ending a member's sessions"): the answers a dead token, code,
 * ticket (the authorize step then wants reCAPTCHA), link, change, hand-off and flow get.
 */
const REFUSED = {
  'access token': '401 300',
  // The SPA's login page: the password is asked again.
  'SSO session': '303 login page',
  'refresh token': '400 invalid_grant',
  'unexchanged code': '400 invalid_grant',
  // Back to the login page, which asks for the password (authorize-service.ts, retryLoginPage).
  'login ticket': '303 login page (recaptcha)',
  // With no password, nothing else could let it in: no code, so no SSO session and no proved session.
  'passkey ticket': '303 login page (credentials)',
  'another reset link': '400 902',
  // Refused as expired (400), or, where the confirmation needs the session that asked, for that session's end (401).
  'pending e-mail change': expect.stringMatching(/^40[01] 300$/) as unknown as string,
  'direct-login token': '400 invalid_grant',
  'point transfer flow': '400 300',
  'numberless card flow': '400 300',
  'upgrade flow': '400 300',
};
/** A withdrawn member has no session to try the Bearer flows from: the old one is refused first. */
const AFTER_WITHDRAWAL = { ...REFUSED, 'point transfer flow': '401 300', 'numberless card flow': '401 300' };

/** What an answer says: its HTTP status and its result code, OAuth error or redirect error. */
function outcome(res: { statusCode: number; body: string; headers: Record<string, unknown> }): string {
  const location = typeof res.headers.location === 'string' ? new URL(res.headers.location) : undefined;
  if (location?.pathname === '/content/authorize') return `${res.statusCode} login page${location.searchParams.has('login_result') ? ` (${location.searchParams.get('login_result')})` : ''}`;
  if (location) return location.searchParams.has('code') ? 'a code' : `${res.statusCode} ${location.searchParams.get('error_description')}`;
  const body = JSON.parse(res.body || '{}') as { result_code?: number; error?: string; access_token?: string };
  return `${res.statusCode} ${body.access_token ? 'tokens' : (body.result_code ?? body.error)}`;
}

/** Uses every secret as its holder would; each cell is what the answer says. */
async function useSecrets(t: TestApp, member: Member, s: Awaited<ReturnType<typeof liveSecrets>>, after: After) {
  // The flows are tried from a fresh session where the member can still log in: the flow itself must be dead.
  const access = after ? (await loginTokens(t.app, { user: after.email, password: after.password })).access_token : s.session.access_token;
  const refresh = { grant_type: 'refresh_token', refresh_token: s.session.refresh_token, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id: 'terminal-1' };
  return {
    'access token': outcome(await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(s.session.access_token) })),
    'SSO session': outcome(await s.browser.authorize(t, requestQuery(PARTNER))),
    'refresh token': outcome(await tokenRequest(t.app, refresh)),
    'unexchanged code': outcome(await exchange(t.app, s.code)),
    // With the member's mobile number (an id that survives an e-mail change) and no password the
    // authorize step could check: only the ticket itself could let it in.
    'login ticket': outcome(await postAuthorize(t.app, { ticket: s.ticket, user: member.tel, password: 'Not-the-pass9', recaptcha: '' })),
    // As the SPA's hidden form posts it after a passkey: the id, no password, the ticket.
    'passkey ticket': outcome(await postAuthorize(t.app, { ticket: s.passkeyTicket, user: member.tel, password: '', recaptcha: '' })),
    'another reset link': outcome(await reset(t, s.otherResetLink, 'Other-pass4')),
    'pending e-mail change': outcome(await confirmEmailChange(t, s.pendingEmailChange)),
    'direct-login token': outcome(await redeem(t, s.directLogin)),
    'point transfer flow': outcome(await confirmTransfer(t, access, s.transfer.register_token, s.transfer.code)),
    'numberless card flow': outcome(await call(t, '/api/auth/numberless/otp', access, s.numberless)),
    'upgrade flow': outcome(await post(t, '/api/auth/upgrade/sc', s.upgrade)),
  };
}

describe.each(DIALECTS)('ending a member\'s sessions ends every live secret (%s)', (dialect) => {
  const t = withTestApp(dialect);
  // Each event starts with fresh message limits and card locks.
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  it.each(Object.keys(EVENTS))('%s: every live secret is refused afterwards', async (event) => {
    const member = await newMember(t);
    const secrets = await liveSecrets(t, member);
    const after = await EVENTS[event]!(t, member, secrets.session.access_token);
    const cells = await useSecrets(t, member, secrets, after);
    expect(cells).toEqual(event === 'withdrawal' ? AFTER_WITHDRAWAL : REFUSED);
    // The member goes on with what the event left: the new password or address logs in.
    if (after) expect((await loginTokens(t.app, { user: after.email, password: after.password })).access_token).toBeTruthy();
  });

  it('ends a card sign-up whose member exists: its register_token gets no code after a password reset', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
    // terms_accept makes the member; the register_token waits for the authorize hand-off.
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json().result_code).toBe(0);
    expect((await reset(t, await resetLink(t, email), NEW_PASSWORD)).json().result_code).toBe(0);
    const authorized = await postSignupAuthorize(t, token);
    expect(outcome(authorized)).toBe('303 sign-up is not complete or has expired');
  });
});
