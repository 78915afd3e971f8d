import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { numberlessResponseSchema } from '@sso/contracts/upgrade';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, loggedInMember } from '../../test-support/account-change-kit.ts';
import { codeFor } from '../../test-support/signup-kit.ts';
import {
  ANSWER,
  attributeOf,
  cardMemberTokens,
  eventsOf,
  expectCardResult,
  memberType,
  messagesTo,
  not,
  NUMBERLESS,
  pointAccounts,
  openMemberWithPoints,
  subusersOf,
  tally,
} from '../../test-support/upgrade-kit.ts';

/** A mobile number that holds no numberless card. */
const NO_CARD_TEL = '09044440402';

describe.each(DIALECTS)('numberless card (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const start = (access: string | undefined, tel: unknown) => call(t, '/api/auth/numberless', access, { tel });
  const confirm = (access: string | undefined, register_token: string, onetime_password: string) =>
    call(t, '/api/auth/numberless/otp', access, { register_token, onetime_password });
  const answer = async (access: string, tel: string) => {
    const res = await start(access, tel);
    expect(res.statusCode, res.body).toBe(200);
    return numberlessResponseSchema.parse(res.json());
  };
  /** Starts a flow for the holder's number and waits for the SMS, which goes out after the answer. */
  const started = async (access: string) => {
    const before = await messagesTo(t, NUMBERLESS.tel);
    const body = await answer(access, NUMBERLESS.tel);
    await expect.poll(() => messagesTo(t, NUMBERLESS.tel)).toBe(before + 1);
    return { register_token: body.register_token, code: await codeFor(t, NUMBERLESS.tel) };
  };
  /** Frees the numberless card again, as a removal would, so that each test can link it. */
  const unlink = () => t.testDb.db.kysely.deleteFrom('sub_users').where('esid', '=', NUMBERLESS.esid).execute();

  it('answers a holder\'s and a non-holder\'s number alike, and sends the code only to the holder', async () => {
    await unlink();
    const member = await loggedInMember(t);
    const [heldBefore, noneBefore] = [await messagesTo(t, NUMBERLESS.tel), await messagesTo(t, NO_CARD_TEL)];
    const none = await answer(member.access_token, NO_CARD_TEL);
    const holder = await answer(member.access_token, NUMBERLESS.tel);
    const shape = (b: Record<string, unknown>) => ({ ...b, register_token: typeof b.register_token, tel: String(b.tel).replace(/\d{4}$/, '') });
    expect(shape(holder)).toEqual(shape(none));
    expect(holder).toMatchObject({ result_code: 0, result_message: '正常に処理しました。', destination_to: 'sms', tel: NUMBERLESS.masked });
    expect(none.tel).toBe('090-****-0402');
    expect(Object.keys(holder).sort()).toEqual(Object.keys(none).sort());
    expect(holder.register_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(none.register_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code goes out after the answer; by the time it has, nothing went to the other number.
    await expect.poll(() => messagesTo(t, NUMBERLESS.tel)).toBe(heldBefore + 1);
    expect(await messagesTo(t, NO_CARD_TEL)).toBe(noneBefore);
    // A flow was made either way (the newer replaced the older); the register_token is stored only as its hash.
    const flows = await t.testDb.db.kysely.selectFrom('member_flows').selectAll().where('user_id', '=', member.id).execute();
    expect(flows.map((f) => `${f.kind}:${f.state}`).sort()).toEqual(['numberless:otp', 'numberless:replaced']);
    expect(JSON.stringify(flows)).not.toContain(holder.register_token);
  });

  it('links the card for the right code: a card member stays one, the card has the card master\'s status and holder', async () => {
    await unlink();
    const tokens = await cardMemberTokens(t);
    const { register_token, code } = await started(tokens.access_token);
    const body = expectCardResult(await confirm(tokens.access_token, register_token, code), NUMBERLESS.esid);
    expect(body).toMatchObject({ status: 'active', card_name: 'メンバーズ ナンバーレスカード（VISA）', member_div_code: '06' });
    const row = (await subusersOf(t, 'demo-card-member')).find((s) => s.esid === NUMBERLESS.esid);
    expect(row).toMatchObject({ id: body.subuser_id, status: 'active', holder_id: 'H0000003', point_capable: 1, card_number_mask: '4541-****-****-0301' });
    const events = await eventsOf(t, 'demo-card-member');
    expect(events).toContain('numberless_added');
    expect(events).not.toContain('upgraded');
    // The code is used up with the flow.
    expect((await confirm(tokens.access_token, register_token, code)).json()).toEqual(ANSWER.expired);
  });

  it('adds the card of an open member who holds it: an open member still, and a card member too, keeping the open points (decision 0016)', async () => {
    await unlink();
    const member = await openMemberWithPoints(t, 800);
    const before = await pointAccounts(t, member.id);
    const { register_token, code } = await started(member.access_token);
    expectCardResult(await confirm(member.access_token, register_token, code), NUMBERLESS.esid);
    expect(await memberType(t, member.id)).toBe('open');
    expect(await attributeOf(t, member.access_token)).toMatchObject({ is_user_open: true, is_user_saison_card: true });
    expect(await pointAccounts(t, member.id)).toEqual(before);
    expect(await eventsOf(t, member.id)).toEqual(expect.arrayContaining(['upgraded', 'numberless_added']));
  });

  it('answers 902 for a card registered already (only after the right code), and ends the flow', async () => {
    // The card is linked to the member of the test before; another member holds the phone now.
    const other = await loggedInMember(t);
    const { register_token, code } = await started(other.access_token);
    expect((await confirm(other.access_token, register_token, not(code))).json()).toEqual(ANSWER.otpWrong);
    expect((await confirm(other.access_token, register_token, code)).json()).toEqual(ANSWER.linked);
    expect((await confirm(other.access_token, register_token, code)).json()).toEqual(ANSWER.expired);
    expect(await subusersOf(t, other.id)).toEqual([]);
    expect(await memberType(t, other.id)).toBe('open');
  });

  it('never accepts a code for a number without a card: wrong 4 times, then 203 for 30 minutes', async () => {
    const member = await loggedInMember(t);
    const { register_token } = await answer(member.access_token, NO_CARD_TEL);
    for (let i = 0; i < 4; i++) expect((await confirm(member.access_token, register_token, String(i).repeat(6))).json()).toEqual(ANSWER.otpWrong);
    expect((await confirm(member.access_token, register_token, '999999')).json()).toEqual(ANSWER.memberLocked);
    // The lock is the member's: a new start and a holder's flow are locked too, and nothing is sent.
    const sent = await messagesTo(t, NUMBERLESS.tel);
    expect((await start(member.access_token, NUMBERLESS.tel)).json()).toEqual(ANSWER.memberLocked);
    expect(await messagesTo(t, NUMBERLESS.tel)).toBe(sent);
    t.clock.advance(LIMITS.signupLockMs);
    expect((await start(member.access_token, NO_CARD_TEL)).json().result_code).toBe(0);
  });

  it('bounds parallel wrong codes by the member\'s lock', async () => {
    await unlink();
    const member = await loggedInMember(t);
    const { register_token, code } = await started(member.access_token);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(member.access_token, register_token, not(code))));
    const counts = tally(answers);
    expect(counts[902] ?? 0).toBeLessThanOrEqual(4);
    expect(counts[203]).toBeGreaterThanOrEqual(1);
    expect(Object.keys(counts).every((c) => ['902', '203', '300'].includes(c))).toBe(true);
    expect((await confirm(member.access_token, register_token, code)).json()).toEqual(ANSWER.memberLocked);
    expect(await subusersOf(t, member.id)).toEqual([]);
  });

  it('links the card once for parallel right codes', async () => {
    await unlink();
    const member = await loggedInMember(t);
    const { register_token, code } = await started(member.access_token);
    const counts = tally(await Promise.all(Array.from({ length: 5 }, () => confirm(member.access_token, register_token, code))));
    expect(counts[0]).toBe(1);
    expect(Object.keys(counts).every((c) => ['0', '300', '203'].includes(c))).toBe(true);
    expect(await subusersOf(t, member.id)).toHaveLength(1);
    expect((await eventsOf(t, member.id)).filter((e) => e === 'numberless_added')).toHaveLength(1);
  });

  it('refuses another member\'s flow with 300, without using the owner\'s tries', async () => {
    await unlink();
    const owner = await loggedInMember(t);
    const intruder = await loggedInMember(t);
    const { register_token, code } = await started(owner.access_token);
    for (let i = 0; i < 6; i++) expect((await confirm(intruder.access_token, register_token, code)).json()).toEqual(ANSWER.expired);
    expect(await subusersOf(t, intruder.id)).toEqual([]);
    expectCardResult(await confirm(owner.access_token, register_token, code), NUMBERLESS.esid);
  });

  it('replaces a waiting flow with the member\'s newer one', async () => {
    await unlink();
    const member = await loggedInMember(t);
    const first = await started(member.access_token);
    const second = await started(member.access_token);
    expect((await confirm(member.access_token, first.register_token, first.code)).json()).toEqual(ANSWER.expired);
    expectCardResult(await confirm(member.access_token, second.register_token, second.code), NUMBERLESS.esid);
  });

  it('expires the code after 10 minutes and the flow after 30', async () => {
    await unlink();
    const member = await loggedInMember(t);
    const a = await started(member.access_token);
    t.clock.advance(LIMITS.otpTtlMs);
    expect((await confirm(member.access_token, a.register_token, a.code)).json()).toEqual(ANSWER.expired);
    const b = await started(member.access_token);
    t.clock.advance(LIMITS.memberFlowTtlMs);
    expect((await confirm(member.access_token, b.register_token, b.code)).json()).toEqual(ANSWER.expired);
  });

  it('keeps within the recipient\'s message limit alike for a holder and a non-holder, and bounds a member\'s starts', async () => {
    for (const tel of [NUMBERLESS.tel, '09055550505']) {
      const sent = await messagesTo(t, tel);
      const a = await loggedInMember(t);
      const b = await loggedInMember(t);
      for (let i = 0; i < 3; i++) expect((await start(a.access_token, tel)).json().result_code).toBe(0);
      for (let i = 0; i < 2; i++) expect((await start(b.access_token, tel)).json().result_code).toBe(0);
      expect((await start(b.access_token, tel)).json()).toEqual(ANSWER.limit);
      await expect.poll(() => messagesTo(t, tel)).toBe(tel === NUMBERLESS.tel ? sent + 5 : sent);
    }
    const member = await loggedInMember(t);
    for (let i = 0; i < 5; i++) expect((await start(member.access_token, `0906666000${i}`)).json().result_code).toBe(0);
    expect((await start(member.access_token, '09066660009')).json()).toEqual(ANSWER.limit);
  });

  it('answers 401 without a Bearer token, and 901 for malformed bodies, never 500', async () => {
    for (const url of ['/api/auth/numberless', '/api/auth/numberless/otp']) {
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Basic abc' }]) {
        const res = await t.app.inject({ method: 'POST', url, headers, payload: {} });
        expect(res.statusCode, url).toBe(401);
        expect(res.json().result_code).toBe(300);
      }
    }
    const member = await loggedInMember(t);
    for (const tel of ['090333303', '090-3333-0301', '０９０３３３３０３０１', 9033330301, null, '0'.repeat(100)]) {
      expect((await start(member.access_token, tel)).json(), String(tel)).toMatchObject({ result_code: 901, validation_errors: [{ key: 'tel' }] });
    }
    const bad = [
      [{ register_token: 'x', onetime_password: '12345' }, 'onetime_password'],
      [{ register_token: 'x', onetime_password: 123456 }, 'onetime_password'],
      [{ onetime_password: '123456' }, 'register_token'],
      [{ register_token: 'x'.repeat(257), onetime_password: '123456' }, 'register_token'],
    ] as const;
    for (const [payload, key] of bad) {
      const res = await call(t, '/api/auth/numberless/otp', member.access_token, payload);
      expect(res.json(), key).toMatchObject({ result_code: 901, validation_errors: [{ key }] });
    }
    for (const url of ['/api/auth/numberless', '/api/auth/numberless/otp']) {
      for (const payload of ['not json', '[]', '"text"']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${member.access_token}`, 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, `${url} ${payload}`).toBe(400);
      }
    }
  });
});
