import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { upgradeRegisterResponseSchema } from '@sso/contracts/upgrade';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, loggedInMember } from '../../test-support/account-change-kit.ts';
import { CARDS, cardBody, codeFor, newEmail, post, startSignup } from '../../test-support/signup-kit.ts';
import {
  ANSWER,
  attributeOf,
  cardFields,
  eventsOf,
  expectCardResult,
  freeCards,
  memberType,
  not,
  openMemberWithPoints,
  pointAccounts,
  subusersOf,
  tally,
} from '../../test-support/upgrade-kit.ts';

/** Demo cards checked by SMS to 09022220001 or 09022220202 (config/demo-cards.json). */
const UNACTIVATED = { cardnumber: '4541000000000201', cvc: '123', mobile: '09022220001', esid: 'ES0000000201' };
const NO_POINTS = { cardnumber: '3528000000000203', cvc: '123', mobile: '09022220001', esid: 'ES0000000203' };
const HOUSE = { cardnumber: '0300000000000204', cvc: '', mobile: '09022220001', esid: 'ES0000000204' };
const MOBILE_4M = { cardnumber: '5252000000000202', cvc: '123', mobile: '09022220202', esid: 'ES0000000202' };

describe.each(DIALECTS)('upgrade: /api/auth/upgrade/sc (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const register = async (access: string, card: { cardnumber: string; cvc: string }) => {
    const res = await call(t, '/api/auth/register', access, cardFields(card));
    expect(res.statusCode, res.body).toBe(200);
    return upgradeRegisterResponseSchema.parse(res.json()).register_token;
  };
  const confirm = (payload: Record<string, unknown>) => post(t, '/api/auth/upgrade/sc', payload);

  it('adds the card of an open member by the SMS code: an open member still, and a card member too (decision 0016)', async () => {
    await freeCards(t, 'ES1000000001', 'ES1000000002');
    const member = await openMemberWithPoints(t, 1500);
    expect(await attributeOf(t, member.access_token)).toMatchObject({ is_user_open: true, is_user_saison_card: false });
    const before = await pointAccounts(t, member.id);
    const token = await register(member.access_token, CARDS.sms);
    const code = await codeFor(t, CARDS.sms.mobile);
    expect((await confirm({ register_token: token, onetime_password: not(code) })).json()).toEqual(ANSWER.otpWrong);
    const body = expectCardResult(await confirm({ register_token: token, onetime_password: code }), 'ES1000000001');
    expect(body).toMatchObject({ status: 'active', member_div_code: '01', card_name: 'メンバーズ ゴールドカード（VISA）' });

    expect(await attributeOf(t, member.access_token)).toMatchObject({ is_user_open: true, is_user_saison_card: true, is_user_saison_aqf: true });
    expect(await pointAccounts(t, member.id)).toEqual(before);
    expect(await memberType(t, member.id)).toBe('open');
    expect(await subusersOf(t, member.id)).toEqual([
      expect.objectContaining({ id: body.subuser_id, esid: 'ES1000000001', holder_id: 'H1000001', point_capable: 1, mail_digital: null }),
    ]);
    expect((await eventsOf(t, member.id)).filter((e) => e === 'upgraded')).toHaveLength(1);
    // Used up: the same answer again is 300; the member, an open member still, adds a further card the same way.
    expect((await confirm({ register_token: token, onetime_password: code })).json()).toEqual(ANSWER.expired);
    const second = await register(member.access_token, CARDS.mail);
    expectCardResult(await confirm({ register_token: second, onetime_password: await codeFor(t, member.email) }), 'ES1000000002');
    expect(await subusersOf(t, member.id)).toHaveLength(2);
  });

  it('lets the open member move the open points to the card just added (SPEC.md section 6: open members merge points)', async () => {
    await freeCards(t, 'ES1000000001');
    const member = await openMemberWithPoints(t, 1500);
    const token = await register(member.access_token, CARDS.sms);
    const card = expectCardResult(await confirm({ register_token: token, onetime_password: await codeFor(t, CARDS.sms.mobile) }), 'ES1000000001');
    expect((await call(t, '/api/user/aqf', member.access_token)).json()).toMatchObject({ is_open_point: true, is_na_point: true, aqf_point_open: 1500 });
    const selected = await call(t, '/api/aqf/transfer/open/select', member.access_token, { subuser_id: card.subuser_id });
    expect(selected.json()).toMatchObject({ result_code: 0, destination_to: 'sms' });
    const moved = await call(t, '/api/aqf/transfer/open/otp', member.access_token, {
      register_token: (selected.json() as { register_token: string }).register_token,
      onetime_password: await codeFor(t, CARDS.sms.mobile),
    });
    expect(moved.json()).toMatchObject({ result_code: 0, moved_points: 1500, aqf_point_open: 0, aqf_point_na: 1500 });
    // Still an open member: the profile stays theirs to change (SPEC.md section 2).
    expect((await call(t, '/api/user', member.access_token)).json()).toHaveProperty('user_profile');
  });

  it('lets an open member holding a card add the holder\'s waiting cards, but a card by number only through the holder check', async () => {
    await freeCards(t, UNACTIVATED.esid, NO_POINTS.esid);
    const member = await loggedInMember(t);
    const token = await register(member.access_token, UNACTIVATED);
    expectCardResult(await confirm({ register_token: token, onetime_password: await codeFor(t, UNACTIVATED.mobile) }), UNACTIVATED.esid);
    const waiting = (await call(t, '/api/subuser/card/tokens', member.access_token)).json() as { card_tokens: { card_token: string }[] };
    // The card token is the card's esid (decision 0006).
    expect(waiting.card_tokens.map((c) => c.card_token)).toContain(NO_POINTS.esid);
    expectCardResult(await call(t, '/api/subuser/card/add', member.access_token, { card_token: NO_POINTS.esid }), NO_POINTS.esid);
    expect((await call(t, '/api/subuser/card/add', member.access_token, cardFields(HOUSE))).json()).toEqual(ANSWER.upgradeFirst);
    expect(await subusersOf(t, member.id)).toHaveLength(2);
  });

  it('upgrades by the code mailed to the member, and by the PIN alone', async () => {
    await freeCards(t, 'ES1000000002');
    const a = await loggedInMember(t);
    const tokenA = await register(a.access_token, CARDS.mail);
    expectCardResult(await confirm({ register_token: tokenA, onetime_password: await codeFor(t, a.email) }), 'ES1000000002');
    const b = await loggedInMember(t);
    const tokenB = await register(b.access_token, CARDS.pinBank);
    expectCardResult(await confirm({ register_token: tokenB, pin: CARDS.pinBank.pin }), 'ES1000000004');
    expect([await memberType(t, a.id), await memberType(t, b.id)]).toEqual(['open', 'open']);
    expect(await attributeOf(t, b.access_token)).toMatchObject({ is_user_open: true, is_user_saison_card: true });
  });

  it('links a card with the card master\'s status (an unactivated card stays to be activated)', async () => {
    await freeCards(t, UNACTIVATED.esid);
    const member = await loggedInMember(t);
    const token = await register(member.access_token, UNACTIVATED);
    const body = expectCardResult(await confirm({ register_token: token, onetime_password: await codeFor(t, UNACTIVATED.mobile) }), UNACTIVATED.esid);
    expect(body.status).toBe('unactivated');
    expect((await subusersOf(t, member.id))[0]).toMatchObject({ status: 'unactivated' });
  });

  it('asks for the secret the flow expects: 901 naming pin or onetime_password, no try used', async () => {
    const member = await loggedInMember(t);
    const token = await register(member.access_token, CARDS.pin);
    expect((await confirm({ register_token: token, onetime_password: '123456' })).json()).toMatchObject({
      result_code: 901,
      validation_errors: [{ key: 'pin', message: '暗証番号を4桁の半角数字で入力してください' }],
    });
    const other = await loggedInMember(t);
    const smsToken = await register(other.access_token, HOUSE);
    expect((await confirm({ register_token: smsToken, pin: '1234' })).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'onetime_password' }] });
    expect(await subusersOf(t, member.id)).toEqual([]);
  });

  it('counts wrong PINs on the card\'s sign-up lock: guesses at sign-up and upgrade share one bound of 5', async () => {
    const signup = await startSignup(t, CARDS.pin, newEmail());
    for (let i = 0; i < 3; i++) expect((await post(t, '/api/signup/pin', { register_token: signup.token, pin: '0000' })).json().result_code).toBe(902);
    const member = await loggedInMember(t);
    const token = await register(member.access_token, CARDS.pin);
    expect((await confirm({ register_token: token, pin: '0000' })).json()).toEqual(ANSWER.pinWrong);
    expect((await confirm({ register_token: token, pin: '0000' })).json()).toEqual(ANSWER.cardLocked);
    expect((await confirm({ register_token: token, pin: CARDS.pin.pin })).json()).toEqual(ANSWER.cardLocked);
    // Locked for the sign-up and for a new register of the card too.
    expect((await post(t, '/api/signup/card', cardBody(CARDS.pin, newEmail()))).json()).toEqual(ANSWER.cardLocked);
    expect((await call(t, '/api/auth/register', member.access_token, cardFields(CARDS.pin))).json()).toEqual(ANSWER.cardLocked);
    expect(await memberType(t, member.id)).toBe('open');
  });

  it('upgrades exactly once for parallel right answers', async () => {
    const member = await loggedInMember(t);
    const token = await register(member.access_token, HOUSE);
    const code = await codeFor(t, HOUSE.mobile);
    const answers = await Promise.all(Array.from({ length: 6 }, () => confirm({ register_token: token, onetime_password: code })));
    // One goes on; the others find the flow finished (300) or, counted on the card's lock while the
    // winner had not yet cleared it, a momentary lock (203).
    const counts = tally(answers);
    expect(counts[0]).toBe(1);
    expect(Object.keys(counts).every((c) => ['0', '300', '203'].includes(c))).toBe(true);
    expect(await subusersOf(t, member.id)).toHaveLength(1);
    expect((await eventsOf(t, member.id)).filter((e) => e === 'upgraded')).toHaveLength(1);
  });

  it('bounds parallel wrong answers by the card\'s lock', async () => {
    const member = await loggedInMember(t);
    const token = await register(member.access_token, MOBILE_4M);
    const code = await codeFor(t, MOBILE_4M.mobile);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm({ register_token: token, onetime_password: not(code) })));
    const counts = tally(answers);
    expect(counts[902] ?? 0).toBeLessThanOrEqual(4);
    expect(counts[203]).toBeGreaterThanOrEqual(1);
    expect(Object.keys(counts).every((c) => ['902', '203', '300'].includes(c))).toBe(true);
    expect((await confirm({ register_token: token, onetime_password: code })).json()).toEqual(ANSWER.cardLocked);
    expect(await memberType(t, member.id)).toBe('open');
  });

  it('answers 902 when the card was registered by someone else in the meantime, and ends the flow', async () => {
    await freeCards(t, NO_POINTS.esid);
    const a = await loggedInMember(t);
    const b = await loggedInMember(t);
    const tokenA = await register(a.access_token, NO_POINTS);
    const codeA = await codeFor(t, NO_POINTS.mobile);
    const tokenB = await register(b.access_token, NO_POINTS);
    const codeB = await codeFor(t, NO_POINTS.mobile);
    expectCardResult(await confirm({ register_token: tokenA, onetime_password: codeA }), NO_POINTS.esid);
    expect((await confirm({ register_token: tokenB, onetime_password: not(codeB) })).json()).toEqual(ANSWER.otpWrong);
    expect((await confirm({ register_token: tokenB, onetime_password: codeB })).json()).toEqual(ANSWER.linked);
    expect((await confirm({ register_token: tokenB, onetime_password: codeB })).json()).toEqual(ANSWER.expired);
    expect(await memberType(t, b.id)).toBe('open');
    expect((await subusersOf(t, a.id))[0]).toMatchObject({ point_capable: 0 });
  });

  it('answers 300 for an expired code or flow, a replaced flow, an unknown token and a withdrawn member', async () => {
    const member = await loggedInMember(t);
    const first = await register(member.access_token, CARDS.pin);
    const second = await register(member.access_token, CARDS.pin);
    expect((await confirm({ register_token: first, pin: CARDS.pin.pin })).json()).toEqual(ANSWER.expired);
    t.clock.advance(LIMITS.memberFlowTtlMs);
    expect((await confirm({ register_token: second, pin: CARDS.pin.pin })).json()).toEqual(ANSWER.expired);
    const sms = await register(member.access_token, CARDS.house);
    t.clock.advance(LIMITS.otpTtlMs);
    expect((await confirm({ register_token: sms, onetime_password: await codeFor(t, CARDS.house.mobile) })).json()).toEqual(ANSWER.expired);
    expect((await confirm({ register_token: 'unknown', onetime_password: '123456' })).json()).toEqual(ANSWER.expired);

    const leaving = await loggedInMember(t);
    const token = await register(leaving.access_token, CARDS.house);
    const code = await codeFor(t, CARDS.house.mobile);
    expect((await call(t, '/api/auth/cancel', leaving.access_token)).json().result_code).toBe(0);
    expect((await confirm({ register_token: token, onetime_password: code })).json()).toEqual(ANSWER.expired);
    expect(await subusersOf(t, leaving.id)).toEqual([]);
  });

  it('answers 901 for malformed bodies, never 500', async () => {
    const bad = [
      [{}, 'register_token'],
      [{ register_token: '', onetime_password: '123456' }, 'register_token'],
      [{ register_token: 'x', onetime_password: '12a456' }, 'onetime_password'],
      [{ register_token: 'x', onetime_password: 123456 }, 'onetime_password'],
      [{ register_token: 'x', pin: '123' }, 'pin'],
      [{ register_token: ['x'], pin: '1234' }, 'register_token'],
    ] as const;
    for (const [payload, key] of bad) expect((await confirm(payload)).json(), key).toMatchObject({ result_code: 901, validation_errors: [{ key }] });
    for (const payload of ['not json', '[]', 'null', '1']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/upgrade/sc', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, payload).toBe(400);
    }
  });
});
