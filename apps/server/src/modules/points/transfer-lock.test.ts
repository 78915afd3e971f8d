import { describe, expect, it } from 'vitest';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { aqf, confirm, eventRows, OK, OTP_WRONG, pointMember, select, startTransfer, TRANSFER_LOCKED, wrongCode } from '../../test-support/points-kit.ts';

const MINUTE = 60_000;

describe.each(DIALECTS)('point transfer codes are bounded (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('locks the member\'s transfers for 30 minutes at the fifth wrong code, and logs it', async () => {
    const member = await pointMember(t, { openPoints: 600, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 4; i++) expect((await confirm(t, member.access_token, body.register_token, wrongCode(code))).json()).toEqual(OTP_WRONG);
    expect((await confirm(t, member.access_token, body.register_token, wrongCode(code))).json()).toEqual(TRANSFER_LOCKED);
    // Locked: the right code and a new select are refused too.
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toEqual(TRANSFER_LOCKED);
    expect((await select(t, member.access_token, member.subuserIds[0])).json()).toEqual(TRANSFER_LOCKED);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 600, aqf_point_na: 0 });
    expect(await eventRows(t, member.id, 'point_transfer_locked')).toEqual([
      { event: 'point_transfer_locked', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) },
    ]);
    expect(await eventRows(t, member.id, 'points_transferred')).toEqual([]);

    t.clock.advance(30 * MINUTE + 1);
    const again = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    expect((await confirm(t, member.access_token, again.body.register_token, again.code)).json()).toMatchObject({ moved_points: 600 });
  });

  it('counts wrong codes across the member\'s flows', async () => {
    const member = await pointMember(t, { openPoints: 60, cards: [{}] });
    const first = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 3; i++) expect((await confirm(t, member.access_token, first.body.register_token, wrongCode(first.code))).json()).toEqual(OTP_WRONG);
    const second = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    expect((await confirm(t, member.access_token, second.body.register_token, wrongCode(second.code))).json()).toEqual(OTP_WRONG);
    expect((await confirm(t, member.access_token, second.body.register_token, wrongCode(second.code))).json()).toEqual(TRANSFER_LOCKED);
  });

  it('a right code clears the run of wrong ones', async () => {
    const member = await pointMember(t, { openPoints: 70, cards: [{}] });
    const first = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 4; i++) await confirm(t, member.access_token, first.body.register_token, wrongCode(first.code));
    expect((await confirm(t, member.access_token, first.body.register_token, first.code)).json()).toMatchObject({ moved_points: 70 });
    await t.testDb.db.kysely.updateTable('point_accounts').set({ points: 5 }).where('user_id', '=', member.id).where('kind', '=', 'open').execute();
    const second = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 4; i++) expect((await confirm(t, member.access_token, second.body.register_token, wrongCode(second.code))).json()).toEqual(OTP_WRONG);
  });

  it('parallel wrong guesses cannot exceed the limit', async () => {
    const member = await pointMember(t, { openPoints: 80, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    const guesses = Array.from({ length: 10 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => confirm(t, member.access_token, body.register_token, g)));
    const codes = answers.map((a) => a.json().result_code as number);
    expect(codes.filter((c) => c === 902).length).toBeLessThanOrEqual(4);
    // The rest find the member locked (203) or the code's tries used up (300); none moves anything.
    expect(codes.filter((c) => ![902, 203, 300].includes(c))).toEqual([]);
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toEqual(TRANSFER_LOCKED);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 80 });
  });

  it('a double submission is no guess: ten parallel right answers all answer the transfer, which moves once, and nothing is counted', async () => {
    const member = await pointMember(t, { openPoints: 90, cards: [{}] });
    // Two wrong codes before: the parallel right ones must neither add to them nor lock the member.
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 2; i++) expect((await confirm(t, member.access_token, body.register_token, wrongCode(code))).json()).toEqual(OTP_WRONG);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(t, member.access_token, body.register_token, code)));
    const moved = { ...OK, moved_points: 90, aqf_point_open: 0, aqf_point_na: 90 };
    for (const a of answers) expect([a.statusCode, a.json()], a.body).toEqual([200, moved]);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 0, aqf_point_na: 90 });
    expect(await eventRows(t, member.id, 'points_transferred')).toHaveLength(1);
    expect(await eventRows(t, member.id, 'point_transfer_locked')).toEqual([]);
    // The right answer cleared the run of wrong ones, and the duplicates added none.
    const throttle = await t.testDb.db.kysely.selectFrom('login_throttle').selectAll().where('key', '=', `point-transfer:${member.id}`).executeTakeFirst();
    expect(throttle?.failed_count ?? 0).toBe(0);
    expect(throttle?.locked_until ?? null).toBeNull();
    // A wrong code for the finished transfer answers its result, as a retry does.
    expect((await confirm(t, member.access_token, body.register_token, wrongCode(code))).json()).toEqual(moved);
    // The next transfer still has all its tries: four wrong codes answer 902, the fifth locks.
    await t.testDb.db.kysely.updateTable('point_accounts').set({ points: 5 }).where('user_id', '=', member.id).where('kind', '=', 'open').execute();
    const next = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    for (let i = 0; i < 4; i++) expect((await confirm(t, member.access_token, next.body.register_token, wrongCode(next.code))).json()).toEqual(OTP_WRONG);
    expect((await confirm(t, member.access_token, next.body.register_token, wrongCode(next.code))).json()).toEqual(TRANSFER_LOCKED);
  });

  it('parallel answers of one code, right and wrong mixed: the points move once, at most four wrong ones answer 902, and the right ones answer the transfer', async () => {
    const member = await pointMember(t, { openPoints: 95, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    const sent = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? code : wrongCode(code)));
    const answers = await Promise.all(sent.map((c) => confirm(t, member.access_token, body.register_token, c)));
    const codes = answers.map((a) => a.json().result_code as number);
    expect(codes.filter((c) => c === 902).length).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => ![0, 902, 203, 300].includes(c))).toEqual([]);
    expect(await eventRows(t, member.id, 'points_transferred')).toHaveLength(codes.includes(0) ? 1 : 0);
  });

  it('takes over a check left by a stopped process once it is stale', async () => {
    const member = await pointMember(t, { openPoints: 40, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    // A process stopped between taking the check and giving it back, eleven seconds ago.
    await t.testDb.db.kysely.updateTable('member_flows').set({ state: 'checking', updated_at: t.clock.now() - 11_000 }).where('user_id', '=', member.id).execute();
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toMatchObject({ result_code: 0, moved_points: 40 });
  });
});
