import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock.ts';
import { purgeExpired } from '../../db/maintenance.ts';
import { createMigratedTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { DevMailbox } from './dev-mailbox.ts';
import { smtpTransport, withWaits } from './mail-transport.ts';
import { silentSmtp } from '../../test-support/silent-smtp.ts';
import { OUTBOX, outboxNotifier, retryDelay } from './outbox.ts';
import { findMessage } from './outbox-repo.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

/** A port nothing listens on (yet): connections to it are refused until a sink takes it. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const quietLog = () => {
  const lines: string[] = [];
  return { lines, warn: (_o: object, m: string) => lines.push(`warn ${m}`), error: (_o: object, m: string) => lines.push(`error ${m}`) };
};

describe.each(DIALECTS)('outbox over real SMTP (%s)', (dialect) => {
  let testDb: TestDb;
  const sinks: SmtpSink[] = [];
  beforeAll(async () => {
    testDb = await createMigratedTestDb(dialect);
  });
  afterAll(async () => {
    for (const s of sinks) await s.close();
    await testDb.drop();
  });

  it('keeps a message the SMTP server could not take, and delivers it on a later retry', async () => {
    const db = testDb.db.kysely;
    const clock = new ManualClock();
    const port = await closedPort();
    const mail = smtpTransport(`smtp://127.0.0.1:${port}`, 'sso@example.com');
    const log = quietLog();
    const notifier = outboxNotifier({ db, clock, log, deliver: (m) => mail.send(m.to, m.subject ?? '', m.text, m.html) });

    // The step that sends is not failed by the delivery failure.
    const message = { kind: 'mail', to: 'member@example.com', subject: '確認コード', text: 'コード 123456', html: '<p>コード 123456</p>' } as const;
    await expect(notifier.send(message)).resolves.toBeUndefined();
    const pending = await db.selectFrom('outbox').selectAll().where('recipient', '=', 'member@example.com').executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, body: 'コード 123456', html: '<p>コード 123456</p>' });
    expect(pending.last_error).toBeTruthy();
    expect(pending.next_attempt_at).toBe(clock.now() + retryDelay(1));
    expect(log.lines).toEqual(['warn message not delivered; it will be retried']);

    // Not due yet: nothing is tried.
    expect(await notifier.drain()).toBe(0);

    // The mail server comes back; the retry delivers the message once, and its body is emptied.
    const mailbox = new DevMailbox();
    sinks.push(await startSmtpSink(mailbox, port));
    clock.advance(retryDelay(1));
    const [a, b] = await Promise.all([notifier.drain(), notifier.drain()]);
    expect(a + b).toBe(1);
    expect(mailbox.list()).toEqual([
      expect.objectContaining({ kind: 'mail', to: 'member@example.com', subject: '確認コード', text: 'コード 123456', html: '<p>コード 123456</p>' }),
    ]);
    const sent = await findMessage(db, pending.id);
    expect(sent).toMatchObject({ body: '', html: null, attempts: 1 });
    expect(sent?.sent_at).toBe(clock.now());
    expect(await notifier.drain()).toBe(0);
    mail.close();

    // The hourly purge keeps a delivered message a day.
    await purgeExpired(db, clock.now() + 23 * 3600_000);
    expect(await findMessage(db, pending.id)).toBeDefined();
    await purgeExpired(db, clock.now() + 25 * 3600_000);
    expect(await findMessage(db, pending.id)).toBeUndefined();
  });

  it('gives a message up after the last attempt and logs it as an error', async () => {
    const db = testDb.db.kysely;
    const clock = new ManualClock();
    const log = quietLog();
    const notifier = outboxNotifier({ db, clock, log, deliver: () => Promise.reject(new Error('gateway down')) });
    await notifier.send({ kind: 'sms', to: '09011119999', text: 'code 654321' });
    for (let i = 1; i < OUTBOX.maxAttempts; i++) {
      clock.advance(OUTBOX.maxRetryMs);
      expect(await notifier.drain()).toBe(0);
    }
    const row = await db.selectFrom('outbox').selectAll().where('recipient', '=', '09011119999').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: OUTBOX.maxAttempts, failed_at: clock.now(), body: '', last_error: 'gateway down' });
    expect(log.lines.at(-1)).toBe('error message given up after the last retry');
    clock.advance(OUTBOX.maxRetryMs);
    expect(await notifier.drain()).toBe(0);

    // A given-up message is kept a week, then purged.
    await purgeExpired(db, clock.now() + 6 * 24 * 3600_000);
    expect(await findMessage(db, row.id)).toBeDefined();
    await purgeExpired(db, clock.now() + 8 * 24 * 3600_000);
    expect(await findMessage(db, row.id)).toBeUndefined();
  });

  it('leaves a message claimed by a send to that send, until its lease runs out', async () => {
    const db = testDb.db.kysely;
    const clock = new ManualClock();
    let release: () => void = () => undefined;
    const delivered: string[] = [];
    let calls = 0;
    const notifier = outboxNotifier({
      db,
      clock,
      log: quietLog(),
      deliver: async (m) => {
        calls++;
        if (calls === 1) await new Promise<void>((r) => (release = r));
        delivered.push(m.to);
      },
    });
    const sending = notifier.send({ kind: 'sms', to: '09011118888', text: 'code 111111' });
    await new Promise((r) => setTimeout(r, 50));
    // The worker runs while the first delivery is still under way: it does not deliver it again.
    expect(await notifier.drain()).toBe(0);
    release();
    await sending;
    expect(delivered).toEqual(['09011118888']);
  });
});

describe('development SMTP sink', () => {
  it('stores what it receives, newest first, and refuses a port in use with a clear message', async () => {
    const mailbox = new DevMailbox();
    const sink = await startSmtpSink(mailbox, 0);
    const mail = smtpTransport(`smtp://127.0.0.1:${sink.port}`, '"メンバーID" <no-reply@example.com>');
    await mail.send('a@example.com', '件名A', '本文A\nhttps://example.com/a');
    await mail.send('b@example.com', '件名B', '本文B', '<p>本文<b>B</b></p>');
    expect(mailbox.list().map((m) => [m.to, m.subject, m.text])).toEqual([
      ['b@example.com', '件名B', '本文B'],
      ['a@example.com', '件名A', '本文A\nhttps://example.com/a'],
    ]);
    expect(mailbox.list().map((m) => m.html)).toEqual(['<p>本文<b>B</b></p>', undefined]);
    await expect(startSmtpSink(new DevMailbox(), sink.port)).rejects.toThrow(/SMTP_SINK_PORT or SMTP_URL/);
    mail.close();
    await sink.close();
  });
});

describe('SMTP waits', () => {
  it('keeps the operator\'s own waits and adds the defaults as URL parameters nodemailer reads', () => {
    expect(withWaits('smtps://u:p%40ss@mail.example.com:465?greetingTimeout=9000')).toBe(
      'smtps://u:p%40ss@mail.example.com:465?greetingTimeout=9000&connectionTimeout=5000&socketTimeout=10000',
    );
  });

  it('gives up on a mail server that never greets after the greeting wait, not nodemailer\'s 30 s', async () => {
    const smtp = await silentSmtp();
    const mail = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, 'sso@example.com', { greetingTimeout: 300 });
    await expect(mail.send('x@example.com', 's', 't')).rejects.toThrow(/greeting/i);
    mail.close();
    await smtp.close();
  });
});
