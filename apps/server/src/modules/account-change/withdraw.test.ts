import { describe, expect, it } from 'vitest';
import { bearer, loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { activate, registerForToken } from '../../test-support/open-signup-kit.ts';
import { reauth } from '../../test-support/fresh-proof-kit.ts';
import { CARDS, codeFor, finishSignup, newEmail, PASSWORD, post, startSignup } from '../../test-support/signup-kit.ts';
import { call, eventRows, expectSessionDead, loginCheck, loggedInMember, OK } from '../../test-support/account-change-kit.ts';

const withdraw = (t: TestApp, access: string) => call(t, '/api/auth/cancel', access);

/** A card sign-up of the e-mail-code demo card, to the end; returns the new member's access token. */
async function cardSignup(t: TestApp, email: string): Promise<string> {
  const { token } = await startSignup(t, CARDS.mail, email);
  const res = await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) });
  expect(res.json().result_code, res.body).toBe(0);
  return finishSignup(t, token, email);
}

describe.each(DIALECTS)('withdrawal (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const count = async (table: 'sub_users' | 'point_accounts' | 'term_acceptances', userId: string) =>
    (await db().selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;

  it('ends the sessions, the login, the cards and the points, keeps the log and terms, and frees the e-mail and phone', async () => {
    const member = await loggedInMember(t);
    const now = t.clock.now();
    await db().insertInto('point_accounts').values({ user_id: member.id, kind: 'open', points: 1200, updated_at: now }).execute();
    await db()
      .insertInto('sub_users')
      .values({
        id: `${member.id}-card`,
        user_id: member.id,
        esid: `esid-${member.id}`,
        status: 'active',
        member_div_code: '01',
        card_name: 'テストカード',
        card_image_url: '/cards/test.png',
        card_brand: 'VISA',
        card_number_mask: '4541-****-****-9999',
        point_capable: 1,
        created_at: now,
      })
      .execute();
    const terms = await count('term_acceptances', member.id);
    expect(terms).toBeGreaterThan(0);
    const events = () => db().selectFrom('activity_log').select('id').where('user_id', '=', member.id).execute();
    const logBefore = await events();
    expect(logBefore.length).toBeGreaterThan(0);

    const res = await withdraw(t, member.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);

    await expectSessionDead(t, member);
    expect(await loginCheck(t, member.email, member.password)).toBe(200);
    expect(await loginCheck(t, member.tel, member.password)).toBe(200);
    expect(await count('sub_users', member.id)).toBe(0);
    expect(await count('point_accounts', member.id)).toBe(0);
    expect(await count('term_acceptances', member.id)).toBe(terms);
    const row = await db().selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'withdrawn',
      email: `${member.id}@withdrawn.invalid`,
      tel: null,
      last_name: null,
      first_name: null,
      last_name_kana: null,
      first_name_kana: null,
      sex: null,
      birthday: null,
      postal_code: null,
      profile_tel: null,
    });
    expect(row.password_hash).not.toMatch(/^\$argon2/);
    expect(await eventRows(t, member.id, 'withdrawn')).toEqual([{ event: 'withdrawn', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) }]);
    // The log before the withdrawal stays (docs/withdrawal.md).
    expect(await events()).toEqual(expect.arrayContaining(logBefore));
    expect(await events()).toHaveLength(logBefore.length + 1);

    // The same e-mail and mobile number make a new open member.
    const token = await registerForToken(t, member.email, { tel: member.tel });
    expect((await activate(t, token)).json().result_code).toBe(0);
    const reborn = await db().selectFrom('users').selectAll().where('email', '=', member.email).executeTakeFirstOrThrow();
    expect(reborn.id).not.toBe(member.id);
    // The number is the new profile's phone; it is free, so the new member can prove it as a login number.
    expect(reborn).toMatchObject({ status: 'active', tel: null, profile_tel: member.tel });
    const { access_token } = await loginTokens(t.app, { user: member.email, password: 'Open-pass1' });
    const asked = await call(t, '/api/auth/tel/change', access_token, { tel: member.tel });
    const proof = { register_token: asked.json().register_token, onetime_password: await codeFor(t, member.tel) };
    expect((await call(t, '/api/auth/tel/change/otp', access_token, proof)).json()).toEqual(OK);
    expect(await loginCheck(t, member.tel, 'Open-pass1')).toBe(0);
  });

  it('lets the card and the e-mail of a withdrawn card member sign up again', async () => {
    const email = newEmail();
    const access = await cardSignup(t, email);
    const user = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) });
    const userId = user.json().user_id as string;
    expect(await count('sub_users', userId)).toBe(1);
    // A sign-up's session starts without a proof of presence (decision 0012): the password is asked first.
    expect((await withdraw(t, access)).statusCode).toBe(401);
    expect((await reauth(t, access, PASSWORD)).json()).toEqual(OK);
    expect((await withdraw(t, access)).json()).toEqual(OK);
    expect(await count('sub_users', userId)).toBe(0);
    // Without the withdrawal this card would answer "already linked" and the address would be refused.
    const again = await cardSignup(t, email);
    const newId = (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(again) })).json().user_id as string;
    expect(newId).not.toBe(userId);
    expect(await count('sub_users', newId)).toBe(1);
  });

  it('withdraws once under parallel requests, and the token is useless afterwards', async () => {
    const member = await loggedInMember(t);
    const answers = await Promise.all(Array.from({ length: 4 }, () => withdraw(t, member.access_token)));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 401)).toHaveLength(3);
    expect(await eventRows(t, member.id, 'withdrawn')).toHaveLength(1);
    expect((await withdraw(t, member.access_token)).statusCode).toBe(401);
  });
});
