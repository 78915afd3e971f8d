import { describe, expect, it } from 'vitest';
import { QUICK_MS, timed } from '../../test-support/silent-smtp.ts';
import { withSilentSmtpApp } from '../../test-support/vitest.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { forgot, newMember } from '../../test-support/recover-kit.ts';

describe.each(DIALECTS)('forgot does not wait for its mail (%s)', (dialect) => {
  const { t, smtp } = withSilentSmtpApp(dialect);
  const outbox = (recipient: string) => t.testDb.db.kysely.selectFrom('outbox').select(['sent_at']).where('recipient', '=', recipient).execute();

  it('answers a member and an unknown address at once and alike, while the mail is still under way', async () => {
    const member = await newMember(t);
    const unknown = `nobody.${member.id}@example.com`;
    await forgot(t, `warm-up.${member.id}@example.com`);
    const a = await timed(() => forgot(t, member.email));
    const b = await timed(() => forgot(t, unknown));
    expect(a.result.body).toBe(b.result.body);
    expect(a.result.json()).toEqual({ result_code: 0, result_message: '正常に処理しました。' });
    expect(a.ms).toBeLessThan(QUICK_MS);
    expect(b.ms).toBeLessThan(QUICK_MS);
    expect(Math.abs(a.ms - b.ms)).toBeLessThan(QUICK_MS / 2);
    // The member's mail did go to the mail server, which has not answered it yet.
    await expect.poll(() => smtp.sockets.length, { timeout: 5000 }).toBe(1);
    expect(await outbox(member.email)).toEqual([{ sent_at: null }]);
    expect(await outbox(unknown)).toEqual([]);
  });
});
