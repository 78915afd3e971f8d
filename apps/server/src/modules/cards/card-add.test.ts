import { describe, expect, it } from 'vitest';
import { cardResultResponseSchema, cardTokensResponseSchema } from '@sso/contracts/cards';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { cardBody, newEmail, post } from '../../test-support/signup-kit.ts';
import { byNumber, cardMember, eventCount, memberCards, nextHolder, ok, openMember, refused, testCardMaster, type CardMasterCalls } from '../../test-support/cards-kit.ts';

const ADD = '/api/subuser/card/add';
const ALREADY = { result_code: 902, result_message: 'このカードは既に登録されています。' };
const NOT_FOUND_CARD = {
  result_code: 902,
  result_message: 'ご入力のカード情報ではご登録いただけません。カード番号・有効期限・セキュリティコードをご確認ください。',
};
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間カードを追加できません。時間をおいて再度お試しください。' };
const LOCK_MS = 30 * 60_000;

/** A number with an approved prefix that the card master does not know. */
let unknown = 0;
const unknownCard = () => ({ number: `45418888${String(++unknown).padStart(8, '0')}`, cvc: '123' });

describe.each(DIALECTS)('card add (%s)', (dialect) => {
  const calls: CardMasterCalls = { lookups: 0, activations: 0 };
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster(calls) });

  it('adds a waiting card by its token with the card master\'s status, logs it, and it waits no more', async () => {
    const a = await cardMember(t);
    const res = await ok(t, ADD, a.access_token, { card_token: a.holder.unactivated4Z.esid }, cardResultResponseSchema);
    expect(res).toEqual({
      result_code: 0,
      result_message: '正常に処理しました。',
      subuser_id: expect.any(String),
      esid: a.holder.unactivated4Z.esid,
      status: 'unactivated4Z',
      member_div_code: '01',
      card_name: `テストカード ${a.holder.unactivated4Z.esid}`,
      card_image_url: '/content/cards/visa-gold.svg',
    });
    const rows = await memberCards(t, a.id);
    expect(rows.map((r) => [r.id, r.esid, r.status, r.holder_id])).toEqual([
      [a.subuserId, a.holder.active.esid, 'active', a.holder.holderId],
      [res.subuser_id, a.holder.unactivated4Z.esid, 'unactivated4Z', a.holder.holderId],
    ]);
    expect(await eventCount(t, a.id, 'card_added')).toBe(1);
    const waiting = await ok(t, '/api/subuser/card/tokens', a.access_token, {}, cardTokensResponseSchema);
    expect(waiting.card_tokens.map((c) => c.card_token)).not.toContain(a.holder.unactivated4Z.esid);
  });

  it('adds cards by number, expiry and security code: unactivated, house card without code, no points', async () => {
    const a = await cardMember(t);
    const other = nextHolder();
    const unactivated = await ok(t, ADD, a.access_token, byNumber(other.unactivated), cardResultResponseSchema);
    expect(unactivated).toMatchObject({ esid: other.unactivated.esid, status: 'unactivated' });
    // The list is in the order the cards were added.
    t.clock.advance(1);
    const house = await ok(t, ADD, a.access_token, byNumber(other.house), cardResultResponseSchema);
    expect(house).toMatchObject({ esid: other.house.esid, status: 'active' });
    t.clock.advance(1);
    await ok(t, ADD, a.access_token, byNumber(other.noPoints), cardResultResponseSchema);
    const rows = await memberCards(t, a.id);
    expect(rows.map((r) => [r.esid, r.status, r.point_capable, r.holder_id])).toEqual([
      [a.holder.active.esid, 'active', 1, a.holder.holderId],
      [other.unactivated.esid, 'unactivated', 1, other.holderId],
      [other.house.esid, 'active', 1, other.holderId],
      [other.noPoints.esid, 'active', 0, other.holderId],
    ]);
    expect(await eventCount(t, a.id, 'card_added')).toBe(3);
    // The new holder's other cards now wait for the member too.
    const waiting = await ok(t, '/api/subuser/card/tokens', a.access_token, {}, cardTokensResponseSchema);
    expect(waiting.card_tokens.map((c) => c.card_token)).toContain(other.unactivated4M.esid);
  });

  it('answers 902 already linked for a card registered to anyone, and adds nothing', async () => {
    const a = await cardMember(t);
    const b = await cardMember(t);
    expect(await refused(t, ADD, a.access_token, byNumber(b.holder.active))).toEqual(ALREADY);
    expect(await refused(t, ADD, a.access_token, byNumber(a.holder.active))).toEqual(ALREADY);
    expect(await memberCards(t, a.id)).toHaveLength(1);
    expect(await eventCount(t, a.id, 'card_added')).toBe(0);
  });

  it('adds one waiting card once under parallel requests', async () => {
    const a = await cardMember(t);
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.app.inject({ method: 'POST', url: ADD, headers: { authorization: `Bearer ${a.access_token}` }, payload: { card_token: a.holder.noPoints.esid } })));
    const codes = answers.map((r) => r.json().result_code as number).sort();
    expect(codes[0]).toBe(0);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect((await memberCards(t, a.id)).filter((r) => r.esid === a.holder.noPoints.esid)).toHaveLength(1);
    expect(await eventCount(t, a.id, 'card_added')).toBe(1);
  });

  it('locks a card number after 5 failures across members, shared with the card sign-up, for 30 minutes', async () => {
    const target = nextHolder().unactivated;
    const a = await cardMember(t);
    const b = await cardMember(t);
    // Two failed card sign-ups of the number, then two failed adds by a and one by b: the fifth locks.
    for (let i = 0; i < 2; i++) {
      const signup = await post(t, '/api/signup/card', cardBody({ cardnumber: target.number, cvc: '999' }, newEmail()));
      expect(signup.json().result_code).toBe(902);
    }
    for (let i = 0; i < 2; i++) expect(await refused(t, ADD, a.access_token, byNumber(target, { cvc: '999' }))).toEqual(NOT_FOUND_CARD);
    expect(await refused(t, ADD, b.access_token, byNumber(target, { cvc: '998' }))).toEqual(LOCKED);
    // Locked: the right security code is refused here and at the sign-up.
    expect(await refused(t, ADD, a.access_token, byNumber(target))).toEqual(LOCKED);
    expect((await post(t, '/api/signup/card', cardBody({ cardnumber: target.number, cvc: target.cvc }, newEmail()))).json().result_code).toBe(203);
    // The lock is the card's, not the members': a adds another card meanwhile.
    await ok(t, ADD, a.access_token, byNumber(nextHolder().noPoints), cardResultResponseSchema);
    t.clock.advance(LOCK_MS + 1);
    await ok(t, ADD, b.access_token, byNumber(target), cardResultResponseSchema);
  });

  it('locks a member\'s adds after 5 failures of any cards, logs the lock once, and lifts it after 30 minutes', async () => {
    const a = await cardMember(t);
    const good = nextHolder();
    for (let i = 0; i < 4; i++) expect(await refused(t, ADD, a.access_token, byNumber(unknownCard()))).toEqual(NOT_FOUND_CARD);
    // An already-linked card is a failure too.
    expect(await refused(t, ADD, a.access_token, byNumber(a.holder.active))).toEqual(LOCKED);
    expect(await refused(t, ADD, a.access_token, byNumber(good.active))).toEqual(LOCKED);
    expect(await eventCount(t, a.id, 'card_add_locked')).toBe(1);
    // Another member is not affected.
    const b = await cardMember(t);
    await ok(t, ADD, b.access_token, byNumber(good.noPoints), cardResultResponseSchema);
    t.clock.advance(LOCK_MS - 1);
    expect(await refused(t, ADD, a.access_token, byNumber(good.active))).toEqual(LOCKED);
    t.clock.advance(2);
    await ok(t, ADD, a.access_token, byNumber(good.active), cardResultResponseSchema);
    expect(await memberCards(t, a.id)).toHaveLength(2);
  });

  it('a card added clears the member\'s run of failures', async () => {
    const a = await cardMember(t);
    for (let i = 0; i < 4; i++) await refused(t, ADD, a.access_token, byNumber(unknownCard()));
    await ok(t, ADD, a.access_token, byNumber(nextHolder().house), cardResultResponseSchema);
    for (let i = 0; i < 4; i++) expect(await refused(t, ADD, a.access_token, byNumber(unknownCard()))).toEqual(NOT_FOUND_CARD);
  });

  it('parallel failing adds by one member cannot exceed the limit: at most 5 reach the card master', async () => {
    const a = await cardMember(t);
    const before = calls.lookups;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.app.inject({ method: 'POST', url: ADD, headers: { authorization: `Bearer ${a.access_token}` }, payload: byNumber(unknownCard()) })),
    );
    const codes = answers.map((r) => r.json().result_code as number);
    expect(codes.filter((c) => c === 902)).toHaveLength(4);
    expect(codes.filter((c) => c === 203)).toHaveLength(8);
    expect(calls.lookups - before).toBeLessThanOrEqual(5);
    expect(await refused(t, ADD, a.access_token, byNumber(nextHolder().active))).toEqual(LOCKED);
  });

  it('parallel guesses at one card\'s security code by many members cannot exceed the card\'s limit', async () => {
    const target = nextHolder().active;
    const members = await Promise.all(Array.from({ length: 8 }, () => cardMember(t)));
    const answers = await Promise.all(members.map((m, i) => refused(t, ADD, m.access_token, byNumber(target, { cvc: String(900 + i) }))));
    expect(answers.filter((r) => r.result_code === 902)).toHaveLength(4);
    expect(answers.filter((r) => r.result_code === 203)).toHaveLength(4);
    expect(await refused(t, ADD, members[0]!.access_token, byNumber(target))).toEqual(LOCKED);
  });

  it('refuses an add by number from an open member (who adds a card through the holder check) and passes the card master\'s guides on', async () => {
    const open = await openMember(t);
    expect(await refused(t, ADD, open.access_token, byNumber(nextHolder().active))).toEqual({
      result_code: 902,
      result_message: 'オープン会員の方は、「カードを登録する」からご本人様確認のうえカードをご登録ください。',
    });
    expect(await memberCards(t, open.id)).toEqual([]);
    const a = await cardMember(t);
    expect((await refused(t, ADD, a.access_token, byNumber({ number: '4541000000000903', cvc: '123' }))).result_code).toBe(903);
    expect((await refused(t, ADD, a.access_token, byNumber({ number: '4541000000000904', cvc: '123' }))).result_code).toBe(904);
  });
});
