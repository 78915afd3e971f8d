import { describe, expect, it } from 'vitest';
import { baseResponseSchema } from '@sso/contracts/common';
import { cardResultResponseSchema, cardTokensResponseSchema } from '@sso/contracts/cards';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { cardMember, eventCount, memberCards, ok, refused, testCardMaster, type CardMember } from '../../test-support/cards-kit.ts';

const DELETE = '/api/subuser/delete';
const OK = { result_code: 0, result_message: '正常に処理しました。' };
const NOT_REMOVABLE = { result_code: 902, result_message: 'ご利用中のカードのみ削除できます。' };
const NOT_FOUND = { result_code: 902, result_message: '対象のカードが見つかりません。カード一覧からやり直してください。' };

const add = async (t: TestApp, m: CardMember, token: string) =>
  (await ok(t, '/api/subuser/card/add', m.access_token, { card_token: token }, cardResultResponseSchema)).subuser_id;

describe.each(DIALECTS)('card removal (%s)', (dialect) => {
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster() });

  it('removes the member\'s active cards, logs each, and the removed card waits to be added again', async () => {
    const m = await cardMember(t);
    const house = await add(t, m, m.holder.house.esid);
    const noPoints = await add(t, m, m.holder.noPoints.esid);
    expect(await ok(t, DELETE, m.access_token, { subuser_ids: [house, noPoints] }, baseResponseSchema)).toEqual(OK);
    expect((await memberCards(t, m.id)).map((r) => r.id)).toEqual([m.subuserId]);
    const waiting = await ok(t, '/api/subuser/card/tokens', m.access_token, {}, cardTokensResponseSchema);
    expect(waiting.card_tokens.map((c) => c.card_token)).toEqual(expect.arrayContaining([m.holder.house.esid, m.holder.noPoints.esid]));
    expect(await eventCount(t, m.id, 'card_removed')).toBe(2);
  });

  it('refuses the whole removal when one card is not active, and removes nothing', async () => {
    const m = await cardMember(t);
    const unactivated = await add(t, m, m.holder.unactivated.esid);
    expect(await refused(t, DELETE, m.access_token, { subuser_ids: [m.subuserId, unactivated] })).toEqual(NOT_REMOVABLE);
    expect(await refused(t, DELETE, m.access_token, { subuser_ids: [unactivated] })).toEqual(NOT_REMOVABLE);
    expect((await memberCards(t, m.id)).map((r) => r.id).sort()).toEqual([m.subuserId, unactivated].sort());
    expect(await eventCount(t, m.id, 'card_removed')).toBe(0);
  });

  it('refuses the whole removal when one id is unknown, and removes nothing', async () => {
    const m = await cardMember(t);
    expect(await refused(t, DELETE, m.access_token, { subuser_ids: [m.subuserId, 'no-such-card'] })).toEqual(NOT_FOUND);
    expect(await memberCards(t, m.id)).toHaveLength(1);
  });

  it('treats a repeated id as one card', async () => {
    const m = await cardMember(t);
    expect(await ok(t, DELETE, m.access_token, { subuser_ids: [m.subuserId, m.subuserId] }, baseResponseSchema)).toEqual(OK);
    expect(await eventCount(t, m.id, 'card_removed')).toBe(1);
  });

  it('removes once under parallel requests; the others find no card', async () => {
    const m = await cardMember(t);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => t.app.inject({ method: 'POST', url: DELETE, headers: { authorization: `Bearer ${m.access_token}` }, payload: { subuser_ids: [m.subuserId] } })),
    );
    const bodies = answers.map((r) => r.json() as { result_code: number });
    expect(bodies.filter((b) => b.result_code === 0)).toHaveLength(1);
    expect(bodies.filter((b) => b.result_code !== 0)).toEqual([NOT_FOUND, NOT_FOUND]);
    expect(await eventCount(t, m.id, 'card_removed')).toBe(1);
  });

  it('requires at least one card (901)', async () => {
    const m = await cardMember(t);
    expect(await refused(t, DELETE, m.access_token, { subuser_ids: [] })).toEqual({
      result_code: 901,
      result_message: '入力内容をご確認ください。',
      validation_errors: [{ key: 'subuser_ids', message: 'カードを選択してください' }],
    });
  });
});
