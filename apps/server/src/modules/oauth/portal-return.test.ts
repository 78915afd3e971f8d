import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { DEMO } from '../../seed.ts';
import { postAuthorize, TEST_ORIGIN, type TestApp, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { insertMemberCard } from '../cards/card-repo.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, smsToEmailStep, startSignup } from '../../test-support/signup-kit.ts';

/** The redirect URIs of config/clients.json: the portal apps' own schemes, the partners' web callbacks. */
const PORTAL = { SIAP005: 'siap005portal://oauth/callback', SIAP007: 'siap007portal://oauth/callback' } as const;
const partnerCallback = (clientId: string) => `${TEST_ORIGIN}/dev/partner/${clientId}/callback`;

/** The authorization response's parameters (RFC 6749 section 4.1.2), with the code checked and left out. */
function response(res: { statusCode: number; headers: Record<string, unknown>; body: string }, redirectUri: string) {
  expect(res.statusCode, res.body).toBe(303);
  const location = String(res.headers.location);
  expect(location.startsWith(`${redirectUri}?`), location).toBe(true);
  const params = Object.fromEntries(new URL(location).searchParams);
  expect(params.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  delete params.code;
  return params;
}

/** A card of `userId` as the card features would have added it: the demo card's row under another esid and status. */
async function addCard(t: TestApp, userId: string, esid: string, status: string) {
  const db = t.testDb.db.kysely;
  const { user_id: _owner, created_at: _at, ...demoCard } = await db.selectFrom('sub_users').selectAll().where('esid', '=', 'ES0000000001').executeTakeFirstOrThrow();
  await insertMemberCard(db, userId, { ...demoCard, id: `card-${esid}`, esid, status, na_id: null }, t.clock.now());
  t.clock.advance(1000);
}

describe.each(DIALECTS)('the return to a portal app carries client_id, state and esid (SPEC.md section 4; %s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  it('a login handed to a portal app carries the esid of the member’s newest active card, empty without one', async () => {
    const member = await newMember(t);
    const login = () => postAuthorize(t.app, { clientId: 'SIAP005', redirectUri: PORTAL.SIAP005, state: 'portal-state', user: member.email, password: member.password });

    expect(response(await login(), PORTAL.SIAP005)).toEqual({ client_id: 'SIAP005', state: 'portal-state', esid: '', iss: TEST_ORIGIN });

    await addCard(t, member.id, 'PR-OLDER', 'active');
    await addCard(t, member.id, 'PR-NEWER', 'active');
    // Newer still, but neither waiting for its activation nor stopped is a card to return to.
    await addCard(t, member.id, 'PR-WAITING', 'unactivated');
    await addCard(t, member.id, 'PR-STOPPED', 'inactive');
    expect(response(await login(), PORTAL.SIAP005)).toEqual({ client_id: 'SIAP005', state: 'portal-state', esid: 'PR-NEWER', iss: TEST_ORIGIN });
  });

  it('a login handed to a portal by its web callback carries the same; the web client and a partner get no esid', async () => {
    const demo = { user: DEMO.card.email, password: DEMO.card.password, state: 's-1' };
    const portalWeb = partnerCallback('SIAP005');
    expect(response(await postAuthorize(t.app, { ...demo, clientId: 'SIAP005', redirectUri: portalWeb }), portalWeb)).toEqual({
      client_id: 'SIAP005',
      state: 's-1',
      esid: 'ES0000000001',
      iss: TEST_ORIGIN,
    });
    const web = await postAuthorize(t.app, demo);
    expect(response(web, `${TEST_ORIGIN}/content/oauth/callback`)).toEqual({ state: 's-1', iss: TEST_ORIGIN });
    const netAnswer = await postAuthorize(t.app, { ...demo, clientId: 'SIAP004', redirectUri: partnerCallback('SIAP004'), terms: ['ServiceOnNetAnswer'] });
    expect(response(netAnswer, partnerCallback('SIAP004'))).toEqual({ state: 's-1', iss: TEST_ORIGIN });
  });

  /**
   * A card sign-up for `clientId`, through the PIN path (for a portal) or the SMS path (for the web
   * client), up to its hand-off: the authorization response's parameters.
   */
  async function signUp(clientId: string, redirectUri: string, card: 'sms' | 'pin') {
    const email = newEmail();
    const over = { client_id: clientId, redirect_uri: redirectUri };
    let token: string;
    if (card === 'sms') {
      token = await smsToEmailStep(t, email, CARDS.sms);
    } else {
      token = (await startSignup(t, CARDS.pin, email, over)).token;
      expect((await post(t, '/api/signup/pin', { pin: CARDS.pin.pin, register_token: token })).json().result_code).toBe(0);
    }
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: clientId })).json().result_code).toBe(0);
    // A card of the new member newer than the one signed up with: the hand-off still names the card of the sign-up.
    const member = await t.testDb.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await addCard(t, member.id, `PR-${clientId}`, 'active');
    return response(await postSignupAuthorize(t, token, over), redirectUri);
  }

  it('a card sign-up handed to a portal app carries the esid of the card it registered; the web client gets none', async () => {
    expect(await signUp('SIAP007', PORTAL.SIAP007, 'pin')).toEqual({ client_id: 'SIAP007', state: 'signup-state', esid: 'ES1000000003', iss: TEST_ORIGIN });
    expect(await signUp('SIAP009', `${TEST_ORIGIN}/content/oauth/callback`, 'sms')).toEqual({ state: 'signup-state', iss: TEST_ORIGIN });
  });
});
