import { describe, expect, it } from 'vitest';
import { cardResultResponseSchema } from '@sso/contracts/cards';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call } from '../../test-support/account-change-kit.ts';
import { cardMember, ok, testCardMaster, type CardMember } from '../../test-support/cards-kit.ts';

/** Everything that a card call could change: the card rows, the locks and the activity log. */
async function snapshot(t: TestApp) {
  const db = t.testDb.db.kysely;
  return {
    cards: await db.selectFrom('sub_users').selectAll().orderBy('id').execute(),
    locks: await db.selectFrom('login_throttle').selectAll().orderBy('key').execute(),
    log: (await db.selectFrom('activity_log').select(['user_id', 'event']).orderBy('id').execute()).length,
  };
}

/** The answer to a call as a client sees it: status and body. */
const answer = async (t: TestApp, url: string, access: string, payload: unknown) => {
  const res = await call(t, url, access, payload);
  return { status: res.statusCode, body: res.json() as unknown };
};

describe.each(DIALECTS)('card ownership (%s)', (dialect) => {
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster() });

  /** b holds an active card and an unactivated4M card, and its holder's inactive card waits for b; a is another member. */
  async function twoMembers(): Promise<{ a: CardMember; b: CardMember; bUnactivated: string }> {
    const a = await cardMember(t);
    const b = await cardMember(t);
    const bUnactivated = (await ok(t, '/api/subuser/card/add', b.access_token, { card_token: b.holder.unactivated4M.esid }, cardResultResponseSchema)).subuser_id;
    return { a, b, bUnactivated };
  }

  it('answers another member\'s card exactly as an unknown one on every endpoint that names a card, and changes nothing', async () => {
    const { a, b, bUnactivated } = await twoMembers();
    const cases: [string, (id: string) => unknown, string[]][] = [
      // Endpoints naming a registered card by subuser_id: b's cards, then an id nobody has.
      ['/api/subuser/card/activate', (id) => ({ subuser_id: id, activation_key: b.holder.unactivated4M.key }), [bUnactivated, b.subuserId]],
      ['/api/subuser/sc/activate/mobile', (id) => ({ subuser_id: id, tel: b.holder.mobile }), [bUnactivated]],
      ['/api/subuser/delete', (id) => ({ subuser_ids: [id] }), [b.subuserId]],
      ['/api/subuser/delete', (id) => ({ subuser_ids: [a.subuserId, id] }), [b.subuserId]],
      ['/api/subuser/na/add', (id) => ({ subuser_id: id, na_id: 'demo-na-card', na_password: 'NaDemo1234' }), [b.subuserId]],
      // Endpoints naming a waiting card by card_token: b's waiting cards and b's registered card.
      ['/api/subuser/card/add', (token) => ({ card_token: token }), [b.holder.inactive.esid, b.holder.house.esid, b.holder.active.esid]],
      ['/api/subuser/card/enable', (token) => ({ card_token: token }), [b.holder.inactive.esid, b.holder.active.esid]],
    ];
    const before = await snapshot(t);
    for (const [url, body, others] of cases) {
      const unknown = await answer(t, url, a.access_token, body('TE-unknown-id'));
      expect(unknown, url).toEqual({
        status: 400,
        body: { result_code: 902, result_message: '対象のカードが見つかりません。カード一覧からやり直してください。' },
      });
      // Repeated past any lock's limit: still the same answer, so no lock of b's card was touched either.
      for (const id of others) for (let i = 0; i < 6; i++) expect(await answer(t, url, a.access_token, body(id)), `${url} ${id}`).toEqual(unknown);
    }
    expect(await snapshot(t)).toEqual(before);
    // b's cards are as they were: the unactivated card activates with its key on the first try, the inactive one still waits inactive.
    await ok(t, '/api/subuser/card/activate', b.access_token, { subuser_id: bUnactivated, activation_key: b.holder.unactivated4M.key }, cardResultResponseSchema);
    const enable = await answer(t, '/api/subuser/card/enable', b.access_token, { card_token: b.holder.inactive.esid });
    expect(enable).toEqual({ status: 200, body: { result_code: 0, result_message: '正常に処理しました。' } });
  });

  it('never lists another member\'s cards', async () => {
    const { a, b } = await twoMembers();
    const list = await answer(t, '/api/subuser/cards', a.access_token, {});
    expect(JSON.stringify(list.body)).not.toContain(b.holder.holderId);
    expect(JSON.stringify(list.body)).not.toContain(b.subuserId);
    const waiting = await answer(t, '/api/subuser/card/tokens', a.access_token, {});
    expect(JSON.stringify(waiting.body)).not.toContain(`TE${b.holder.holderId.slice(2)}`);
    const refreshed = await answer(t, '/api/subuser/card/update_relevant_tokens', a.access_token, {});
    expect(JSON.stringify(refreshed.body)).not.toContain(b.subuserId);
  });
});
