import { describe, expect, it } from 'vitest';
import { cardsResponseSchema } from '@sso/contracts/cards';
import { baseResponseSchema } from '@sso/contracts/common';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { cardMember, eventCount, memberCards, NA_PASSWORD, nextHolder, ok, refused, testCardMaster, testNetAnswer, type CardMember } from '../../test-support/cards-kit.ts';

const NA_ADD = '/api/subuser/na/add';
const WRONG = { result_code: 902, result_message: 'Net AnswerのIDまたはパスワードが正しくありません。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間Net Answerと連携できません。時間をおいて再度お試しください。' };
const LOCK_MS = 30 * 60_000;

const right = (m: CardMember) => ({ subuser_id: m.subuserId, na_id: `na-${m.holder.holderId}`, na_password: NA_PASSWORD });

describe.each(DIALECTS)('Net Answer link (%s)', (dialect) => {
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster(), netAnswer: testNetAnswer() });

  it('links the card to the Net Answer account covering it, logs it, and the list says so', async () => {
    const m = await cardMember(t);
    expect((await ok(t, '/api/subuser/cards', m.access_token, {}, cardsResponseSchema)).saison_subusers[0]?.na_linked).toBe(false);
    expect(await ok(t, NA_ADD, m.access_token, right(m), baseResponseSchema)).toEqual({ result_code: 0, result_message: '正常に処理しました。' });
    expect((await ok(t, '/api/subuser/cards', m.access_token, {}, cardsResponseSchema)).saison_subusers[0]?.na_linked).toBe(true);
    expect((await memberCards(t, m.id))[0]?.na_id).toBe(`na-${m.holder.holderId}`);
    expect(await eventCount(t, m.id, 'na_linked')).toBe(1);
  });

  it('answers one message for a wrong password, an unknown id and an account that does not cover the card', async () => {
    const m = await cardMember(t);
    const other = nextHolder();
    expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_password: 'Wrong-1234' })).toEqual(WRONG);
    expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_id: 'na-nobody' })).toEqual(WRONG);
    expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_id: `na-${other.holderId}` })).toEqual(WRONG);
    expect((await memberCards(t, m.id))[0]?.na_id).toBeNull();
    expect(await eventCount(t, m.id, 'na_linked')).toBe(0);
  });

  it('locks the member\'s Net Answer linking at the 5th failure, logs it once, and lifts it after 30 minutes', async () => {
    const m = await cardMember(t);
    for (let i = 0; i < 4; i++) expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_password: `Wrong-${i}` })).toEqual(WRONG);
    expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_password: 'Wrong-9' })).toEqual(LOCKED);
    expect(await refused(t, NA_ADD, m.access_token, right(m))).toEqual(LOCKED);
    expect(await eventCount(t, m.id, 'na_link_locked')).toBe(1);
    // Another member is not locked.
    const other = await cardMember(t);
    await ok(t, NA_ADD, other.access_token, right(other), baseResponseSchema);
    t.clock.advance(LOCK_MS + 1);
    await ok(t, NA_ADD, m.access_token, right(m), baseResponseSchema);
  });

  it('parallel wrong pairs cannot exceed the limit', async () => {
    const m = await cardMember(t);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => refused(t, NA_ADD, m.access_token, { ...right(m), na_password: `Para-${i}` })));
    expect(answers.filter((a) => a.result_code === 902)).toHaveLength(4);
    expect(answers.filter((a) => a.result_code === 203)).toHaveLength(6);
    expect(await refused(t, NA_ADD, m.access_token, right(m))).toEqual(LOCKED);
  });

  it('requires the Net Answer id and password (901) and counts nothing', async () => {
    const m = await cardMember(t);
    const res = await refused(t, NA_ADD, m.access_token, { subuser_id: m.subuserId, na_id: '', na_password: '' });
    expect(res).toEqual({
      result_code: 901,
      result_message: '入力内容をご確認ください。',
      validation_errors: [
        { key: 'na_id', message: '入力してください' },
        { key: 'na_password', message: '入力してください' },
      ],
    });
    // Over-length has its own message (SPEC.md section 5), not "入力してください".
    expect(await refused(t, NA_ADD, m.access_token, { subuser_id: m.subuserId, na_id: 'a'.repeat(65), na_password: 'a'.repeat(129) })).toEqual({
      result_code: 901,
      result_message: '入力内容をご確認ください。',
      validation_errors: [
        { key: 'na_id', message: '64文字以内で入力してください' },
        { key: 'na_password', message: '128文字以内で入力してください' },
      ],
    });
    for (let i = 0; i < 4; i++) expect(await refused(t, NA_ADD, m.access_token, { ...right(m), na_password: `Wrong-${i}` })).toEqual(WRONG);
    await ok(t, NA_ADD, m.access_token, right(m), baseResponseSchema);
  });
});
