import { describe, expect, it } from 'vitest';
import { QUICK_MS, timed } from '../../test-support/silent-smtp.ts';
import { withSilentSmtpApp } from '../../test-support/vitest.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newOpenEmail, openBody, registerOpen } from '../../test-support/open-signup-kit.ts';

describe.each(DIALECTS)('the open register does not wait for its mail (%s)', (dialect) => {
  const { t, smtp } = withSilentSmtpApp(dialect);

  it("answers a member's address and a new one at once and alike, while both mails are still under way", async () => {
    const member = 'demo.open@example.com';
    const fresh = newOpenEmail();
    await registerOpen(t, openBody(newOpenEmail(), { dry_run: 1 }));
    const a = await timed(() => registerOpen(t, openBody(member)));
    const b = await timed(() => registerOpen(t, openBody(fresh)));
    expect(a.result.json().result_code).toBe(0);
    expect(a.result.body.replace(member, '<email>')).toBe(b.result.body.replace(fresh, '<email>'));
    expect(a.ms).toBeLessThan(QUICK_MS);
    expect(b.ms).toBeLessThan(QUICK_MS);
    expect(Math.abs(a.ms - b.ms)).toBeLessThan(QUICK_MS / 2);
    await expect.poll(() => smtp.sockets.length, { timeout: 5000 }).toBe(2);
    const outbox = await t.testDb.db.kysely.selectFrom('outbox').select(['recipient', 'subject', 'sent_at']).orderBy('recipient').execute();
    expect(outbox).toEqual([
      { recipient: member, subject: '【メンバーID】ご登録済みのメールアドレスです', sent_at: null },
      { recipient: fresh, subject: '【メンバーID】仮登録のご案内', sent_at: null },
    ]);
  });
});
