import { describe, expect, it } from 'vitest';
import { directLoginTokenResponseSchema, directLoginUrlResponseSchema } from '@sso/contracts/direct-login';
import { loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import {
  acceptClientTermsAs,
  CARD_NOT_FOUND,
  clientTokens,
  NA_REQUIRED,
  OK,
  PARTNER_SECRET,
  post,
  PROOF,
  redeem,
  SERVICE_UNAVAILABLE,
  TOKEN_INVALID,
} from '../../test-support/direct-login-kit.ts';

const DEMO_CARD = 'demo-card-subuser-1';

/** A card of `userId` straight into sub_users, as the card features would have added it. */
async function addCard(t: TestApp, userId: string, id: string, status: string, naId: string | null) {
  await t.testDb.db.kysely
    .insertInto('sub_users')
    .values({
      id,
      user_id: userId,
      esid: `ES-${id}`,
      status,
      member_div_code: '01',
      card_name: 'テストカード',
      card_image_url: '/content/cards/demo-gold.svg',
      card_brand: 'VISA',
      card_number_mask: '4541-****-****-9999',
      created_at: t.clock.now(),
      holder_id: null,
      point_capable: 0,
      na_id: naId,
      mail_digital: null,
    })
    .execute();
}

describe.each(DIALECTS)('hand-off to partner services and Net Answer (%s)', (dialect) => {
  const t = withTestApp(dialect);
  /** demo.card on the web, with the partner services' terms accepted (decision 0013). */
  const cardAccess = async () => {
    const access = (await loginTokens(t.app)).access_token;
    for (const client of ['SIAP002', 'SIAP004']) await acceptClientTermsAs(t, access, client);
    return access;
  };
  const sc = (access: string | undefined, payload: unknown) => post(t, '/api/subuser/direct_login/sc', access, payload);
  const na = (access: string | undefined, payload: unknown) => post(t, '/api/subuser/direct_login/na', access, payload);
  const preauth = (payload: unknown) => post(t, '/api/preauth/direct_login', undefined, payload);

  it('gives a partner service a token for the member and card, with the member service links', async () => {
    const access = await cardAccess();
    const res = await sc(access, { subuser_id: DEMO_CARD, member_type: 'na', client_id: 'SIAP002' });
    expect(res.statusCode, res.body).toBe(200);
    const body = directLoginTokenResponseSchema.parse(res.json());
    expect(body).toMatchObject({ ...OK, subuser_id: DEMO_CARD, links: [] });
    const grant = await t.testDb.db.kysely.selectFrom('direct_logins').selectAll().where('client_id', '=', 'SIAP002').executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ user_id: 'demo-card-member', source_client_id: 'SIAP009', subuser_id: DEMO_CARD });
    const issued = await t.testDb.db.kysely.selectFrom('activity_log').select('client_id').where('event', '=', 'direct_login_issued').execute();
    expect(issued).toContainEqual({ client_id: 'SIAP002' });

    // The partner redeems it (as its server, with its secret); then the service is among the member's links.
    const redeemed = await redeem(t, body.onetime_token, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002'));
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const again = directLoginTokenResponseSchema.parse((await sc(access, { client_id: 'SIAP004' })).json());
    expect(again.subuser_id).toBe('');
    expect(again.links).toEqual([{ name: 'LINE公式アカウントサービス', client_id: 'SIAP002' }]);
  });

  it('refuses clients that are not hand-off services, and cards that are not the member', async () => {
    const access = await cardAccess();
    for (const client_id of ['SIAP009', 'NOPE']) expect((await sc(access, { client_id })).json()).toEqual(SERVICE_UNAVAILABLE);
    const other = await newMember(t);
    await addCard(t, other.id, `other-${dialect}`, 'active', 'demo-na-card');
    for (const subuser_id of [`other-${dialect}`, 'no-such-card']) {
      expect((await sc(access, { subuser_id, client_id: 'SIAP002' })).json()).toEqual(CARD_NOT_FOUND);
    }
    expect((await sc(access, {})).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'client_id' }] });
    expect((await sc(undefined, { client_id: 'SIAP002' })).statusCode).toBe(401);
  });

  it('answers the hand-off URL of a live token without using it; a used, expired or other client token is refused', async () => {
    const access = await cardAccess();
    const token = (await sc(access, { client_id: 'SIAP002' })).json().onetime_token as string;
    for (let i = 0; i < 2; i++) {
      const res = await preauth({ onetime_token: token, client_id: 'SIAP002' });
      expect(res.statusCode, res.body).toBe(200);
      expect(directLoginUrlResponseSchema.parse(res.json()).direct_login_url).toBe(
        `http://sso.test/dev/partner/SIAP002/direct?onetime_token=${token}`,
      );
    }
    expect((await preauth({ onetime_token: token, client_id: 'SIAP004' })).json()).toEqual(TOKEN_INVALID);
    expect((await preauth({ onetime_token: token, client_id: 'SIAP009' })).json()).toEqual(SERVICE_UNAVAILABLE);
    expect((await redeem(t, token, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002'))).statusCode).toBe(200);
    expect((await preauth({ onetime_token: token, client_id: 'SIAP002' })).json()).toEqual(TOKEN_INVALID);

    const portal = (await sc(access, { client_id: 'SIAP005', ...PROOF })).json().onetime_token as string;
    expect((await preauth({ onetime_token: portal, client_id: 'SIAP005' })).json().direct_login_url).toBe(
      `siap005portal://direct_login?onetime_token=${portal}`,
    );
    t.clock.advance(60_000);
    expect((await preauth({ onetime_token: portal, client_id: 'SIAP005' })).json()).toEqual(TOKEN_INVALID);
    expect((await preauth({ onetime_token: 'x'.repeat(43), client_id: 'SIAP005' })).json()).toEqual(TOKEN_INVALID);
    expect((await preauth({ onetime_token: 'x'.repeat(300), client_id: 'SIAP005' })).json().result_code).toBe(901);
    expect((await preauth({})).json().result_code).toBe(901);
  });

  it('hands the member to Net Answer for their active card with a linked Net Answer id', async () => {
    const access = await cardAccess();
    const res = await na(access, { subuser_id: DEMO_CARD, member_type: 'na', param1: 'statement', param2: '202601' });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(directLoginUrlResponseSchema.parse(res.json()).direct_login_url);
    expect(`${url.origin}${url.pathname}`).toBe('http://sso.test/dev/netanswer/login');
    const landing = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(landing.body).toContain('demo-na-card');
    expect(landing.body).toContain('ES0000000001');
    expect(landing.body).toContain('statement');
    const issued = await t.testDb.db.kysely.selectFrom('activity_log').select('client_id').where('event', '=', 'direct_login_issued').execute();
    expect(issued).toContainEqual({ client_id: 'SIAP004' });
  });

  it('asks for the Net Answer id of a card without one, and knows no card that is not the member active card', async () => {
    const member = await newMember(t);
    const { access_token } = await loginTokens(t.app, { user: member.email, password: member.password });
    await addCard(t, member.id, `plain-${dialect}`, 'active', null);
    await addCard(t, member.id, `waiting-${dialect}`, 'unactivated', 'demo-na-card');
    expect((await na(access_token, { subuser_id: `plain-${dialect}` })).json()).toEqual(NA_REQUIRED);
    expect((await na(access_token, { subuser_id: `waiting-${dialect}` })).json()).toEqual(CARD_NOT_FOUND);
    expect((await na(access_token, { subuser_id: DEMO_CARD })).json()).toEqual(CARD_NOT_FOUND);
    expect((await na(access_token, { subuser_id: 'nothing' })).json()).toEqual(CARD_NOT_FOUND);
    const bad = await na(access_token, { subuser_id: `plain-${dialect}`, param1: '<script>' });
    expect(bad.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'param1' }] });
    expect((await na(undefined, { subuser_id: DEMO_CARD })).statusCode).toBe(401);
  });

  it('answers malformed bodies with 4xx result codes, never 500', async () => {
    const access = await cardAccess();
    const bodies = [
      { 'content-type': 'application/json', payload: '{' },
      { 'content-type': 'application/json', payload: '[]' },
      { 'content-type': 'application/json', payload: '"text"' },
      { 'content-type': 'application/json', payload: '{"client_id":{"$ne":1},"subuser_id":[1],"onetime_token":7}' },
      { 'content-type': 'text/plain', payload: 'hello' },
      { 'content-type': 'application/x-www-form-urlencoded', payload: 'client_id=SIAP002&client_id=SIAP004' },
    ];
    for (const url of ['/api/auth/user_onetime_token', '/api/subuser/direct_login/sc', '/api/subuser/direct_login/na', '/api/preauth/direct_login']) {
      for (const { payload, ...headers } of bodies) {
        const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, authorization: `Bearer ${access}` }, payload });
        expect(res.statusCode, `${url} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${payload}`).toBeLessThan(500);
        expect(res.json().result_code, `${url} ${payload}`).toBe(901);
      }
    }
  });
});

describe.each(DIALECTS)('direct-login redirects (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const expectRefused = (res: Awaited<ReturnType<typeof get>>) => {
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('URLをご確認ください。');
  };

  it('sends a known target to the SPA callback with the token, its source and state, without using the token', async () => {
    const { access_token } = await clientTokens(t, 'SIAP005');
    const token = (await post(t, '/api/auth/user_onetime_token', access_token)).json().onetime_token as string;
    const res = await get(`/api/redirect/user_one_time_token?one_time_token=${token}&target=portal_card_add&param=app-state-1`);
    expect(res.statusCode).toBe(303);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers.location).toBe(`/content/direct/callback?onetime_token=${token}&target=portal_card_add&source=SIAP005&state=app-state-1`);
    for (const target of ['top', 'card_add', 'card_activate', 'card_remove', 'portal_card_activate', 'portal_card_remove']) {
      expect((await get(`/api/redirect/user_one_time_token?one_time_token=${token}&target=${target}`)).statusCode).toBe(303);
    }
    expect((await redeem(t, token)).statusCode).toBe(200);
    // A used (or unknown) token still lands on the SPA, which says it cannot be used; no source is named.
    const used = await get(`/api/redirect/user_one_time_token?one_time_token=${token}&target=top`);
    expect(used.headers.location).toBe(`/content/direct/callback?onetime_token=${token}&target=top&state=`);
  });

  it('refuses unknown or missing targets and tokens with the 400 page', async () => {
    const token = 'a'.repeat(43);
    for (const query of [
      `one_time_token=${token}&target=evil`,
      `one_time_token=${token}&target=`,
      `one_time_token=${token}`,
      `one_time_token=${token}&target=__proto__`,
      `one_time_token=${token}&target=toString`,
      `one_time_token=${token}&target=https%3A%2F%2Fevil.example`,
      `one_time_token=${token}&target=top&target=card_add`,
      `target=top`,
      `one_time_token=a%20b&target=top`,
      `one_time_token=${token}&target=top&param=${'p'.repeat(1025)}`,
    ]) {
      expectRefused(await get(`/api/redirect/user_one_time_token?${query}`));
    }
  });

  it('returns only the portal apps to their resume URI', async () => {
    for (const id of ['SIAP005', 'SIAP006', 'SIAP007', 'SIAP008']) {
      const res = await get(`/api/redirect/resume_app?client_id=${id}&state=s%26t&esid=ES0000000001`);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${id.toLowerCase()}portal://resume?client_id=${id}&state=s%26t&esid=ES0000000001`);
    }
    for (const query of ['client_id=SIAP009', 'client_id=SIAP002', 'client_id=SIAP004', 'client_id=NOPE', '', 'client_id=SIAP005&client_id=SIAP006']) {
      expectRefused(await get(`/api/redirect/resume_app?${query}`));
    }
  });
});
