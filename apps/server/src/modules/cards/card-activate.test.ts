import { describe, expect, it } from 'vitest';
import { cardResultResponseSchema, cardsResponseSchema } from '@sso/contracts/cards';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { cardMember, eventCount, memberCards, ok, refused, testCardMaster, type CardMasterCalls, type CardMember } from '../../test-support/cards-kit.ts';

const ACTIVATE = '/api/subuser/card/activate';
const MOBILE = '/api/subuser/sc/activate/mobile';
const WRONG = { result_code: 902, result_message: '認証キーが正しくありません。もう一度ご入力ください。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間カードを有効化できません。時間をおいて再度お試しください。' };
const NOT_ACTIVATABLE = { result_code: 902, result_message: 'このカードは有効化の必要がありません。' };
const LOCK_MS = 30 * 60_000;

type Kind = 'unactivated' | 'unactivated4Z' | 'unactivated4M';

/** Adds the member's waiting card of that kind and answers its sub-user id. */
async function added(t: TestApp, m: CardMember, kind: Kind): Promise<string> {
  return (await ok(t, '/api/subuser/card/add', m.access_token, { card_token: m.holder[kind].esid }, cardResultResponseSchema)).subuser_id;
}

describe.each(DIALECTS)('card activation (%s)', (dialect) => {
  const calls: CardMasterCalls = { lookups: 0, activations: 0 };
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster(calls) });

  it.each([
    ['unactivated', 'the last 6 digits of the card number'],
    ['unactivated4Z', 'the last 6 digits of the inquiry number'],
    ['unactivated4M', 'the last 6 digits of the holder\'s mobile'],
  ] as const)('activates an %s card with %s, logs it, and the list shows it active', async (kind, _key) => {
    const m = await cardMember(t);
    const id = await added(t, m, kind);
    const res = await ok(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder[kind].key }, cardResultResponseSchema);
    expect(res).toMatchObject({ result_code: 0, subuser_id: id, esid: m.holder[kind].esid, status: 'active' });
    const list = await ok(t, '/api/subuser/cards', m.access_token, {}, cardsResponseSchema);
    expect(list.saison_subusers.find((c) => c.subuser_id === id)?.status).toBe('active');
    expect(await eventCount(t, m.id, 'card_activated')).toBe(1);
    // Active now: nothing to activate.
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder[kind].key })).toEqual(NOT_ACTIVATABLE);
  });

  it('activates an unactivated4M card by the holder\'s whole mobile number', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated4M');
    expect(await refused(t, MOBILE, m.access_token, { subuser_id: id, tel: '08099999999' })).toEqual(WRONG);
    const res = await ok(t, MOBILE, m.access_token, { subuser_id: id, tel: m.holder.mobile }, cardResultResponseSchema);
    expect(res).toMatchObject({ subuser_id: id, status: 'active' });
    expect((await memberCards(t, m.id)).find((r) => r.id === id)?.status).toBe('active');
    expect(await eventCount(t, m.id, 'card_activated')).toBe(1);
  });

  it('asks each status for its own key: another variant\'s key is wrong', async () => {
    const m = await cardMember(t);
    const z = await added(t, m, 'unactivated4Z');
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: z, activation_key: m.holder.unactivated4Z.number.slice(-6) })).toEqual(WRONG);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: z, activation_key: m.holder.mobile.slice(-6) })).toEqual(WRONG);
    // By mobile only for unactivated4M cards; refused before anything is counted or checked.
    const before = calls.activations;
    expect(await refused(t, MOBILE, m.access_token, { subuser_id: z, tel: m.holder.mobile })).toEqual(NOT_ACTIVATABLE);
    expect(calls.activations).toBe(before);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: m.subuserId, activation_key: '123456' })).toEqual(NOT_ACTIVATABLE);
    await ok(t, ACTIVATE, m.access_token, { subuser_id: z, activation_key: m.holder.unactivated4Z.key }, cardResultResponseSchema);
  });

  it('locks a card\'s activation at the 5th wrong key, holds the lock against the right key, logs it once, lifts it after 30 minutes', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated');
    for (let i = 0; i < 4; i++) expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: `00000${i}` })).toEqual(WRONG);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: '000009' })).toEqual(LOCKED);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated.key })).toEqual(LOCKED);
    expect(await eventCount(t, m.id, 'card_activation_locked')).toBe(1);
    expect((await memberCards(t, m.id)).find((r) => r.id === id)?.status).toBe('unactivated');
    t.clock.advance(LOCK_MS - 1);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated.key })).toEqual(LOCKED);
    t.clock.advance(2);
    await ok(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated.key }, cardResultResponseSchema);
    expect(await eventCount(t, m.id, 'card_activated')).toBe(1);
  });

  it('counts wrong keys and wrong mobiles on one lock; a right key clears the run', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated4M');
    for (let i = 0; i < 2; i++) expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: `11111${i}` })).toEqual(WRONG);
    for (let i = 0; i < 2; i++) expect(await refused(t, MOBILE, m.access_token, { subuser_id: id, tel: `0801111111${i}` })).toEqual(WRONG);
    expect(await refused(t, MOBILE, m.access_token, { subuser_id: id, tel: '08011111119' })).toEqual(LOCKED);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated4M.key })).toEqual(LOCKED);

    const other = await cardMember(t);
    const z = await added(t, other, 'unactivated4Z');
    for (let i = 0; i < 4; i++) await refused(t, ACTIVATE, other.access_token, { subuser_id: z, activation_key: `22222${i}` });
    const y = await added(t, other, 'unactivated');
    // Each card has its own lock: four wrong keys of z leave y's activation open.
    await ok(t, ACTIVATE, other.access_token, { subuser_id: y, activation_key: other.holder.unactivated.key }, cardResultResponseSchema);
    await ok(t, ACTIVATE, other.access_token, { subuser_id: z, activation_key: other.holder.unactivated4Z.key }, cardResultResponseSchema);
  });

  it('parallel wrong guesses cannot exceed the limit: at most 5 reach the card master', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated4Z');
    const before = calls.activations;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: String(900000 + i) })),
    );
    expect(answers.filter((a) => a.result_code === 902)).toHaveLength(4);
    expect(answers.filter((a) => a.result_code === 203)).toHaveLength(8);
    expect(calls.activations - before).toBeLessThanOrEqual(5);
    expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated4Z.key })).toEqual(LOCKED);
    expect(await eventCount(t, m.id, 'card_activation_locked')).toBe(1);
  });

  it('activates once under parallel right keys', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated');
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => t.app.inject({ method: 'POST', url: ACTIVATE, headers: { authorization: `Bearer ${m.access_token}` }, payload: { subuser_id: id, activation_key: m.holder.unactivated.key } })),
    );
    expect(answers.map((r) => r.json().result_code as number).filter((c) => c === 0)).toHaveLength(1);
    expect(await eventCount(t, m.id, 'card_activated')).toBe(1);
    expect((await memberCards(t, m.id)).find((r) => r.id === id)?.status).toBe('active');
  });

  it('refuses malformed keys with 901 and counts nothing', async () => {
    const m = await cardMember(t);
    const id = await added(t, m, 'unactivated');
    for (const key of ['12345', '1234567', 'abcdef', '１２３４５６', '']) {
      const res = await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: key });
      expect(res.result_code, key).toBe(901);
      expect(res.validation_errors?.[0]?.key).toBe('activation_key');
    }
    for (let i = 0; i < 4; i++) expect(await refused(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: `33333${i}` })).toEqual(WRONG);
    await ok(t, ACTIVATE, m.access_token, { subuser_id: id, activation_key: m.holder.unactivated.key }, cardResultResponseSchema);
  });
});
