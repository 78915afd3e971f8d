import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { DEMO } from '../../seed.ts';
import { basic, bearer, form, loginTokens, postAuthorize, TEST_ORIGIN, tokenRequest, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CARDS, codeFor, newEmail, post as signupPost, postSignupAuthorize, startSignup } from '../../test-support/signup-kit.ts';
import { acceptClientTermsAs, clientTokens, PARTNER_SECRET, PARTNER_TERMS, post, redeem } from '../../test-support/direct-login-kit.ts';

// SPEC.md section 6: "Only cardholders of the card company can use the chat-account service" (the
// line answer, SIAP002). A member without a card is refused it at every door, with 300 and the
// message below, and an authorize endpoint sends them to the SPA's page that says so, never to the partner.
const REFUSED = {
  result_code: 300,
  result_message: 'LINE公式アカウントサービスは、当社のクレジットカードをお持ちの方のみご利用いただけます。カードを登録すると、ご利用いただけるようになります。',
};
const LINE = 'SIAP002';
const LINE_REDIRECT = `${TEST_ORIGIN}/dev/partner/${LINE}/callback`;
const REFUSAL_PAGE = `${TEST_ORIGIN}/content/problem/cardholders`;
const open = { user: DEMO.open.email, password: DEMO.open.password };
const card = { user: DEMO.card.email, password: DEMO.card.password };

const login = (t: TestApp, who: { user: string; password: string }, clientId = LINE) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { recaptcha_token: 'dev', client_id: clientId, id: who.user, password: who.password } });

describe.each(DIALECTS)('the line answer is for cardholders only (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const removeCards = (userId: string) => db().deleteFrom('sub_users').where('user_id', '=', userId).execute();
  const addCard = (userId: string, id: string, esid: string) =>
    db()
      .insertInto('sub_users')
      .values({
        id,
        user_id: userId,
        esid,
        status: 'active',
        member_div_code: '01',
        card_name: 'カード',
        card_image_url: '',
        card_brand: 'VISA',
        card_number_mask: '4541-****-****-0999',
        holder_id: null,
        point_capable: 1,
        na_id: null,
        mail_digital: null,
        created_at: t.clock.now(),
      })
      .execute();
  // The sign-up's attempt counters are per card: each test starts clear of them.
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));
  const codes = async (userId: string) => (await db().selectFrom('auth_codes').select('client_id').where('user_id', '=', userId).execute()).map((r) => r.client_id);

  it('login step: the open member gets 300 and no ticket, before any terms; the card member goes on', async () => {
    const refused = await login(t, open);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(REFUSED);
    // The same member logs in to the ID itself as ever.
    expect((await login(t, open, 'SIAP009')).json()).toMatchObject({ result_code: 0 });
    expect((await login(t, card)).json()).toMatchObject({ result_code: 0, terms: PARTNER_TERMS[LINE] });
  });

  it('authorize: the open member is sent to the SPA page that says so, with or without the terms, and no code is issued', async () => {
    for (const terms of [PARTNER_TERMS[LINE]!, []]) {
      const res = await postAuthorize(t.app, { clientId: LINE, redirectUri: LINE_REDIRECT, terms, ...open });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(REFUSAL_PAGE);
    }
    expect(await codes(DEMO.open.id)).toEqual([]);
    const ok = await postAuthorize(t.app, { clientId: LINE, redirectUri: LINE_REDIRECT, terms: PARTNER_TERMS[LINE]!, ...card });
    expect(new URL(String(ok.headers.location)).searchParams.get('code')).toBeTruthy();
  });

  it('sign-up authorize: the code issue itself refuses a member who holds no card (here: the card gone before the hand-off)', async () => {
    const email = newEmail();
    const line = { client_id: LINE, redirect_uri: LINE_REDIRECT, scope: 'openid user:read' };
    const { token } = await startSignup(t, CARDS.sms, email, line);
    expect((await signupPost(t, '/api/signup/sms', { onetime_password: await codeFor(t, CARDS.sms.mobile), register_token: token })).json().result_code).toBe(0);
    expect((await signupPost(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
    expect((await signupPost(t, '/api/signup/terms_accept', { register_token: token, client_id: LINE })).json().result_code).toBe(0);
    const member = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await removeCards(member.id);
    const res = await postSignupAuthorize(t, token, line);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(REFUSAL_PAGE);
    expect(await codes(member.id)).toEqual([]);
  });

  it('terms: the open member may not accept the service\'s terms (300); nothing is recorded', async () => {
    const web = await loginTokens(t.app, open);
    const res = await post(t, '/api/subuser/direct_login/terms_accept', web.access_token, { client_id: LINE, terms: PARTNER_TERMS[LINE] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(REFUSED);
    const recorded = await db().selectFrom('term_acceptances').select('term_key').where('user_id', '=', DEMO.open.id).execute();
    expect(recorded.map((r) => r.term_key)).not.toContain('ServiceOnLineAccount');
  });

  it('direct login: the open member gets 300 at /api/subuser/direct_login/sc, not the terms step, and no token', async () => {
    const web = await loginTokens(t.app, open);
    const res = await post(t, '/api/subuser/direct_login/sc', web.access_token, { client_id: LINE });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(REFUSED);
    expect(await db().selectFrom('direct_logins').select('id').where('user_id', '=', DEMO.open.id).execute()).toEqual([]);
  });

  it('hand-off URL and redemption: a member whose cards are gone since the token was issued is refused at both', async () => {
    const web = await loginTokens(t.app, card);
    await acceptClientTermsAs(t, web.access_token, LINE);
    const issue = async () => (await post(t, '/api/subuser/direct_login/sc', web.access_token, { client_id: LINE })).json().onetime_token as string;
    const [first, second] = [await issue(), await issue()];
    await removeCards(DEMO.card.id);
    const preauth = await t.app.inject({ method: 'POST', url: '/api/preauth/direct_login', payload: { onetime_token: first, client_id: LINE } });
    expect(preauth.statusCode).toBe(400);
    expect(preauth.json()).toEqual(REFUSED);
    const redeemed = await redeem(t, second, { client_id: LINE }, PARTNER_SECRET(LINE));
    expect(redeemed.statusCode).toBe(400);
    expect(redeemed.json().error).toBe('invalid_grant');
    // No session of the service was started for the member.
    expect(await db().selectFrom('token_families').select('id').where('user_id', '=', DEMO.card.id).where('client_id', '=', LINE).execute()).toEqual([]);
  });

  it('an open member who holds a card may use the service: the card, not the sign-up, is what counts', async () => {
    await addCard(DEMO.open.id, 'open-member-card', 'ES-OPEN-CARD');
    expect((await login(t, open)).json()).toMatchObject({ result_code: 0 });
    const tokens = await clientTokens(t, LINE, open.user, open.password);
    expect(tokens.access_token).toBeTruthy();
  });

  describe('a session of the service ends with the member\'s last card (SPEC.md section 4)', () => {
    const LINE_CLIENT = basic(LINE, `demo-secret-${LINE}`);
    // The partner's own calls: the refresh (the code flow's terminal, test-app.ts exchange) and its introspection.
    const refresh = (token: string) => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: token, client_id: LINE, terminal_id: 'terminal-1' }, LINE_CLIENT);
    const introspect = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, LINE_CLIENT) })).json() as { active: boolean };
    const removeViaApi = async (access: string, ids: string[]) =>
      expect((await t.app.inject({ method: 'POST', url: '/api/subuser/delete', headers: bearer(access), payload: { subuser_ids: ids } })).json()).toMatchObject({ result_code: 0 });
    // The tests above take the card member's card away: each test here starts with the one card again.
    let since = 0;
    beforeEach(async () => {
      await removeCards(DEMO.card.id);
      await addCard(DEMO.card.id, 'demo-card-subuser-1', 'ES0000000001');
      since = t.clock.now();
    });
    const revokedEvents = async () =>
      db()
        .selectFrom('activity_log')
        .select('client_id')
        .where('user_id', '=', DEMO.card.id)
        .where('event', '=', 'session_revoked')
        .where('created_at', '>=', since)
        .execute();

    it('removing the last card at /api/subuser/delete ends it: the refresh is invalid_grant, the access token inactive, and it is logged', async () => {
      const line = await clientTokens(t, LINE);
      const web = await loginTokens(t.app, card);
      expect(await introspect(line.access_token)).toMatchObject({ active: true });
      await removeViaApi(web.access_token, ['demo-card-subuser-1']);
      // Ended by the removal itself, before any refresh.
      expect(await introspect(line.access_token)).toEqual({ active: false });
      expect(await revokedEvents()).toEqual([{ client_id: LINE }]);
      const res = await refresh(line.refresh_token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_grant');
      // The ID itself goes on: its session is not the service's.
      expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(web.access_token) })).statusCode).toBe(200);
    });

    it('removing one of two cards keeps it', async () => {
      await addCard(DEMO.card.id, 'demo-card-second', 'ES-SECOND-CARD');
      const line = await clientTokens(t, LINE);
      const web = await loginTokens(t.app, card);
      await removeViaApi(web.access_token, ['demo-card-subuser-1']);
      const res = await refresh(line.refresh_token);
      expect(res.statusCode, res.body).toBe(200);
      expect(await introspect(res.json().access_token)).toMatchObject({ active: true });
      expect(await revokedEvents()).toEqual([]);
    });

    it('cards gone another way (withdrawn at the card master): the refresh itself ends the session with invalid_grant', async () => {
      const line = await clientTokens(t, LINE);
      await removeCards(DEMO.card.id);
      const res = await refresh(line.refresh_token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_grant');
      expect(await introspect(line.access_token)).toEqual({ active: false });
      expect(await revokedEvents()).toEqual([{ client_id: LINE }]);
      // Ended during the partner's server's refresh: its address is not the member's (oauth/caller-seen.ts).
      const row = await db().selectFrom('activity_log').select('detail').where('user_id', '=', DEMO.card.id).where('event', '=', 'session_revoked').where('created_at', '>=', since).executeTakeFirstOrThrow();
      expect(row.detail).toBeNull();
    });
  });
});
