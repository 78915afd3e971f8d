import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withMigratedDb } from '../../test-support/vitest.ts';
import { AUDIT_PAGE_MAX, exportAuditJsonLines, purgeAudit, readAudit, recordAudit, InvalidAuditCursor, type AuditEntry } from './audit.ts';
import { purgeAuditBefore } from './audit-repo.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  operatorId: 'op-support',
  operatorRole: 'support',
  action: 'member.view',
  memberId: 'member-1',
  reason: '本人からの問い合わせ',
  ticket: 'INC-1',
  address: '192.0.2.1',
  requestId: 'req-1',
  ...over,
});

/** The append-only audit log (migration 0022; docs/operations.md "The audit log"). */
describe.each(DIALECTS)('the audit log (%s)', (dialect) => {
  const db = withMigratedDb(dialect);
  const count = async () => Number((await db().selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('records every field and reads it back, the detail parsed, the time in ISO 8601', async () => {
    const id = await recordAudit(db(), entry({ memberId: 'm-fields', detail: { field: 'email' }, action: 'member.reveal' }), T0);
    const { records } = await readAudit(db(), { memberId: 'm-fields' });
    expect(records).toEqual([
      {
        id,
        at: T0,
        time: '2026-01-01T00:00:00.000Z',
        operator_id: 'op-support',
        operator_role: 'support',
        action: 'member.reveal',
        member_id: 'm-fields',
        client_id: null,
        reason: '本人からの問い合わせ',
        ticket: 'INC-1',
        address: '192.0.2.1',
        request_id: 'req-1',
        detail: { field: 'email' },
      },
    ]);
  });

  it('refuses every UPDATE and DELETE of a row, in the database itself', async () => {
    await recordAudit(db(), entry({ memberId: 'm-locked' }), T0);
    const before = await count();
    await expect(db().updateTable('audit_log').set({ reason: 'changed' }).where('member_id', '=', 'm-locked').execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom('audit_log').where('member_id', '=', 'm-locked').execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    if (dialect === 'postgres') await expect(sql`TRUNCATE audit_log`.execute(db())).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
    const [row] = (await readAudit(db(), { memberId: 'm-locked' })).records;
    expect(row?.reason).toBe('本人からの問い合わせ');
  });

  it('filters by operator, member, client, action and time range, newest first', async () => {
    const base = T0 + 10 * DAY;
    await recordAudit(db(), entry({ operatorId: 'op-f1', memberId: 'm-f1', action: 'member.unlock' }), base);
    await recordAudit(db(), entry({ operatorId: 'op-f1', memberId: 'm-f2', action: 'member.suspend' }), base + 1000);
    await recordAudit(db(), entry({ operatorId: 'op-f2', memberId: null, clientId: 'SIAP-F', action: 'client.disable' }), base + 2000);
    const ids = async (f: Parameters<typeof readAudit>[1]) => (await readAudit(db(), f)).records.map((r) => [r.operator_id, r.member_id ?? r.client_id, r.at - base]);
    expect(await ids({ operatorId: 'op-f1' })).toEqual([['op-f1', 'm-f2', 1000], ['op-f1', 'm-f1', 0]]);
    expect(await ids({ memberId: 'm-f1' })).toEqual([['op-f1', 'm-f1', 0]]);
    expect(await ids({ clientId: 'SIAP-F' })).toEqual([['op-f2', 'SIAP-F', 2000]]);
    expect(await ids({ action: 'member.suspend', from: base })).toEqual([['op-f1', 'm-f2', 1000]]);
    expect(await ids({ from: base + 1000, to: base + 2000 })).toEqual([['op-f1', 'm-f2', 1000]]);
    expect(await ids({ operatorId: 'nobody' })).toEqual([]);
  });

  it('pages with a cursor, rows of the same millisecond neither repeated nor skipped', async () => {
    const at = T0 + 20 * DAY;
    const written = [];
    for (let i = 0; i < 7; i++) written.push(await recordAudit(db(), entry({ operatorId: 'op-page', memberId: `m-page-${i}` }), at + (i < 4 ? 0 : i)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await readAudit(db(), { operatorId: 'op-page', limit: 3, cursor });
      expect(page.records.length).toBeLessThanOrEqual(3);
      seen.push(...page.records.map((r) => r.id));
      cursor = page.next ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual([...written].sort());
    // Newest first: the three later rows come first.
    const first = await readAudit(db(), { operatorId: 'op-page', limit: 3 });
    expect(first.records.map((r) => r.member_id)).toEqual(['m-page-6', 'm-page-5', 'm-page-4']);
  });

  it('refuses a cursor it did not make, and caps the page', async () => {
    await expect(readAudit(db(), { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidAuditCursor);
    await expect(readAudit(db(), { cursor: Buffer.from('["x",1]').toString('base64url') })).rejects.toBeInstanceOf(InvalidAuditCursor);
    for (let i = 0; i < AUDIT_PAGE_MAX + 5; i++) await recordAudit(db(), entry({ operatorId: 'op-cap' }), T0 + 30 * DAY + i);
    const page = await readAudit(db(), { operatorId: 'op-cap', limit: 10_000 });
    expect(page.records).toHaveLength(AUDIT_PAGE_MAX);
    expect(page.next).not.toBeNull();
  });

  it('exports every matching row as JSON Lines, across export steps', async () => {
    for (let i = 0; i < 1_203; i++) await recordAudit(db(), entry({ operatorId: 'op-export', memberId: `m-${i}` }), T0 + 40 * DAY + i);
    const lines: string[] = [];
    for await (const line of exportAuditJsonLines(db(), { operatorId: 'op-export' })) lines.push(line);
    expect(lines).toHaveLength(1_203);
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    const parsed = lines.map((l) => JSON.parse(l) as { member_id: string; operator_role: string });
    expect(parsed[0]?.member_id).toBe('m-1202');
    expect(parsed.at(-1)?.member_id).toBe('m-0');
    expect(new Set(parsed.map((p) => p.member_id)).size).toBe(1_203);
    const none: string[] = [];
    for await (const line of exportAuditJsonLines(db(), { operatorId: 'nobody' })) none.push(line);
    expect(none).toEqual([]);
  }, 60_000);

  it('the retention purge deletes only rows older than the retention, and is the only delete that passes', async () => {
    const now = T0 + 3000 * DAY;
    await recordAudit(db(), entry({ operatorId: 'op-retention', memberId: 'old' }), now - 2556 * DAY);
    await recordAudit(db(), entry({ operatorId: 'op-retention', memberId: 'kept' }), now - 2554 * DAY);
    const deleted = await purgeAudit(db(), now, 2555);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect((await readAudit(db(), { operatorId: 'op-retention' })).records.map((r) => r.member_id)).toEqual(['kept']);
    // The window closed with the purge: a plain delete is refused again.
    expect(await db().selectFrom('audit_purge_window').selectAll().execute()).toEqual([]);
    await expect(db().deleteFrom('audit_log').where('operator_id', '=', 'op-retention').execute()).rejects.toThrow(/append-only/);
    // Nothing is old enough: the purge deletes nothing.
    expect(await purgeAuditBefore(db(), 0)).toBe(0);
  });

  it('an open window lets only the rows before it go, never an update', async () => {
    await recordAudit(db(), entry({ operatorId: 'op-window', memberId: 'young' }), T0 + 50 * DAY);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('audit_purge_window').values({ purge_before: T0 + 50 * DAY }).execute();
          await trx.updateTable('audit_log').set({ reason: 'x' }).where('operator_id', '=', 'op-window').execute();
        }),
    ).rejects.toThrow(/append-only/);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('audit_purge_window').values({ purge_before: T0 + 50 * DAY }).execute();
          await trx.deleteFrom('audit_log').where('operator_id', '=', 'op-window').execute();
        }),
    ).rejects.toThrow(/append-only/);
    expect((await readAudit(db(), { operatorId: 'op-window' })).records).toHaveLength(1);
  });
});
