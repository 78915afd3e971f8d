import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ADMIN_MEMBER_MESSAGES, auditReadResponseSchema, auditRecordSchema, memberSearchResponseSchema, memberViewResponseSchema } from '@sso/contracts/admin-members';
import { API, API_KEYS, type ApiKey } from '@sso/contracts/api-catalogue';
import type { ApiRoute } from '@sso/contracts/api-route';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { OPERATOR_MESSAGES, roleAllows, type OperatorRole } from '@sso/contracts/operators';
import { REPO_ROOT } from '../../config.ts';
import { newId } from '../../lib/secrets.ts';
import { readAudit, recordAudit } from '../audit/audit.ts';
import { OPERATOR_LIMITS } from '../operators/limits.ts';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { nonConformance, servedDocument } from '../../test-support/openapi-kit.ts';
import { activate, ACTIVATE_PATH, linkToken, newOpenEmail, registerForToken } from '../../test-support/open-signup-kit.ts';
import { adminCall, staff, stepUp } from '../../test-support/operator-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { introspectToken, loginTokens, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const run = promisify(execFile);
const WHY = { reason: '本人からの電話', ticket: 'INC-7' };

/** The operator API's member support and audit: the catalogue's keys under /api/admin/members and /api/admin/audit. */
const SUPPORT_KEYS = API_KEYS.filter((k) => /^POST \/api\/admin\/(members|audit)/.test(k));
const pathOf = (key: ApiKey) => API[key].path;

/** A body each route reads as valid, about nobody: the guard is what is tested, and nothing changes. */
const NOBODY: Record<string, unknown> = {
  '/api/admin/members/search': { email: 'nobody@example.com' },
  '/api/admin/members/view': { member_id: 'no-such-member' },
  '/api/admin/members/reveal': { member_id: 'no-such-member', field: 'tel' },
  '/api/admin/members/resend-activation': { email: 'nobody@example.com', ...WHY },
  '/api/admin/members/passkeys/remove': { member_id: 'no-such-member', passkey_id: 'none', ...WHY },
  '/api/admin/audit': {},
  '/api/admin/audit/export': {},
};
const bodyOf = (key: ApiKey) => NOBODY[pathOf(key)] ?? { member_id: 'no-such-member', ...WHY };

const login = (t: TestApp, id: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } });

/**
 * The operator API of member support and the audit (docs/operations.md, "Operators"; decision 0032):
 * each route's role from the API catalogue, the actions' effects end to end, the audit's who, when
 * and why, and the break-glass commands on the host.
 */
describe.each(DIALECTS)('the operator API: member support and the audit (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('lets each role reach the routes its role allows (403 for the others), refuses a member token (403), none (401) and an expired operator token (401)', async () => {
    const ops = await staff(t);
    const member = (await loginTokens(t.app)).access_token;
    expect(SUPPORT_KEYS).toHaveLength(12);
    for (const key of SUPPORT_KEYS) {
      const needed = (API[key] as ApiRoute).role as OperatorRole;
      for (const role of ['support', 'security', 'admin'] as const) {
        const res = await adminCall(t, pathOf(key), ops[role].token, bodyOf(key));
        if (roleAllows(role, needed)) {
          expect([401, 403], `${key} as ${role}: ${res.body}`).not.toContain(res.statusCode);
        } else {
          expect(res.statusCode, `${key} as ${role}`).toBe(403);
          expect(res.json()).toMatchObject({ result_code: 300 });
          expect(res.headers['www-authenticate']).toContain(`scope="operator:${needed}"`);
        }
      }
      const byMember = await adminCall(t, pathOf(key), member, bodyOf(key));
      expect(byMember.statusCode, key).toBe(403);
      expect(byMember.headers['www-authenticate']).toContain('insufficient_scope');
      const none = await adminCall(t, pathOf(key), undefined, bodyOf(key));
      expect(none.statusCode, key).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
    }
    // Nothing was done to anyone: the unknown member is 404 in Japanese.
    expect((await adminCall(t, '/api/admin/members/unlock', ops.support.token, { member_id: 'no-such-member', ...WHY })).json()).toEqual({ result_code: 902, result_message: ADMIN_MEMBER_MESSAGES.memberNotFound });

    t.clock.advance(OPERATOR_LIMITS.sessionIdleMs + 1);
    for (const key of SUPPORT_KEYS) {
      const expired = await adminCall(t, pathOf(key), ops.admin.token, bodyOf(key));
      expect(expired.statusCode, key).toBe(401);
      expect(expired.headers['www-authenticate']).toContain('invalid_token');
    }
  });

  it('finds a locked member by a hyphenated mobile number, shows the lock, unlocks it with a reason, and the member then logs in', async () => {
    const { support } = await staff(t);
    const m = await newMember(t);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, m.email, 'Wrong-pass9');
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 203 });

    const hyphenated = `${m.tel.slice(0, 3)}-${m.tel.slice(3, 7)}-${m.tel.slice(7)}`;
    const found = memberSearchResponseSchema.parse((await adminCall(t, '/api/admin/members/search', support.token, { tel: hyphenated })).json());
    expect(found.members.map((f) => f.member_id)).toEqual([m.id]);
    expect(found.members[0]!.email).not.toBe(m.email);
    const page = await adminCall(t, '/api/admin/members/view', support.token, { member_id: m.id });
    expect(page.statusCode, page.body).toBe(200);
    const view = memberViewResponseSchema.parse(page.json());
    expect(view.member).toMatchObject({ status: 'locked', lock: { locked: true, reason: 'login_failures' } });
    expect(view.member.lock.failures).toBeGreaterThanOrEqual(LIMITS.loginFailuresBeforeLock);
    expect(view.member.personal.tel).not.toBe(m.tel);
    expect(view.member.activities.map((a) => a.event)).toContain('login_failed');

    // A reason is required: 901 with its field.
    const noReason = await adminCall(t, '/api/admin/members/unlock', support.token, { member_id: m.id });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'reason' }] });

    const unlocked = await adminCall(t, '/api/admin/members/unlock', support.token, { member_id: m.id, ...WHY });
    expect(unlocked.json(), unlocked.body).toEqual({ result_code: 0, result_message: SERVER_MESSAGES.ok });
    // The member's row of the unlock records no address: the request's is the operator's, not the member's.
    const row = await t.testDb.db.kysely.selectFrom('activity_log').select('detail').where('user_id', '=', m.id).where('event', '=', 'support_unlocked').executeTakeFirstOrThrow();
    expect(row.detail).toBeNull();
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 0 });
    const again = await adminCall(t, '/api/admin/members/unlock', support.token, { member_id: m.id, ...WHY });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ result_code: 902, result_message: ADMIN_MEMBER_MESSAGES.notLocked });
  });

  it('reveals one field at a time, each reveal audited with the field (never its value)', async () => {
    const { support } = await staff(t);
    const m = await newMember(t);
    const res = await adminCall(t, '/api/admin/members/reveal', support.token, { member_id: m.id, field: 'tel' });
    expect(res.json()).toEqual({ result_code: 0, result_message: SERVER_MESSAGES.ok, field: 'tel', value: m.tel });
    const rows = (await readAudit(t.testDb.db.kysely, { memberId: m.id, action: 'member.reveal' })).records;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operator_id: support.id, operator_role: 'support', detail: { field: 'tel' } });
    expect(JSON.stringify(rows)).not.toContain(m.tel);
    expect((await adminCall(t, '/api/admin/members/reveal', support.token, { member_id: m.id, field: 'password_hash' })).json()).toMatchObject({ result_code: 901 });
  });

  it('refuses a search by no criterion, by two, or by the last four digits without the birth date (901)', async () => {
    const { support } = await staff(t);
    for (const body of [{}, { email: 'a@example.com', tel: '09000000001' }, { card_last4: '0001' }, { birthday: '19900101' }]) {
      const res = await adminCall(t, '/api/admin/members/search', support.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ message: ADMIN_MEMBER_MESSAGES.searchOne }] });
    }
  });

  it("ends a member's sessions: the member's token then answers inactive at introspection", async () => {
    const { support } = await staff(t);
    const m = await newMember(t);
    const tokens = await loginTokens(t.app, { user: m.email, password: m.password });
    expect(await introspectToken(t.app, tokens.access_token)).toMatchObject({ active: true });
    const res = await adminCall(t, '/api/admin/members/end-sessions', support.token, { member_id: m.id, ...WHY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ended.sessions).toBeGreaterThanOrEqual(1);
    expect(await introspectToken(t.app, tokens.access_token)).toEqual({ active: false });
  });

  it('suspends only with a passkey proof of the last 5 minutes; the suspended member cannot log in; restore brings them back', async () => {
    const { security } = await staff(t);
    const m = await newMember(t);
    t.clock.advance(OPERATOR_LIMITS.freshProofMs + 1);
    const stale = await adminCall(t, '/api/admin/members/suspend', security.token, { member_id: m.id, ...WHY });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ result_code: 300, result_message: OPERATOR_MESSAGES.freshProofNeeded });
    expect(stale.headers['www-authenticate']).toContain('insufficient_user_authentication');
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 0 });
    for (const url of ['/api/admin/members/restore', '/api/admin/members/passkeys/remove']) {
      expect((await adminCall(t, url, security.token, { member_id: m.id, passkey_id: 'x', ...WHY })).statusCode, url).toBe(401);
    }

    expect((await stepUp(t, security.token, security.authenticator)).json()).toMatchObject({ result_code: 0 });
    expect((await adminCall(t, '/api/admin/members/suspend', security.token, { member_id: m.id, ...WHY })).json()).toMatchObject({ result_code: 0 });
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 203, result_message: SERVER_MESSAGES.suspended });
    const twice = await adminCall(t, '/api/admin/members/suspend', security.token, { member_id: m.id, ...WHY });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ result_code: 902, result_message: ADMIN_MEMBER_MESSAGES.alreadySuspended });
    const nopasskey = await adminCall(t, '/api/admin/members/passkeys/remove', security.token, { member_id: m.id, passkey_id: newId(), ...WHY });
    expect(nopasskey.statusCode).toBe(404);
    expect(nopasskey.json()).toEqual({ result_code: 902, result_message: ADMIN_MEMBER_MESSAGES.passkeyNotFound });
    expect((await adminCall(t, '/api/admin/members/restore', security.token, { member_id: m.id, ...WHY })).json()).toMatchObject({ result_code: 0 });
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 0 });
  });

  it('shows in the audit who did what to whom, when and why, a page at a time; sign-ins, enrolments and invites too; the read itself is audited', async () => {
    const { admin, security, support } = await staff(t);
    const m = await newMember(t);
    await adminCall(t, '/api/admin/members/view', support.token, { member_id: m.id });
    // The log is newest first: a second later, so that the order is the time's.
    t.clock.advance(1000);
    const at = t.clock.now();
    await adminCall(t, '/api/admin/members/end-sessions', support.token, { member_id: m.id, reason: '端末の紛失', ticket: 'INC-99' });

    const res = await adminCall(t, '/api/admin/audit', security.token, { member_id: m.id });
    expect(res.statusCode, res.body).toBe(200);
    const page = auditReadResponseSchema.parse(res.json());
    expect(page.records.map((r) => r.action)).toEqual(['member.end_sessions', 'member.view']);
    expect(page.records[0]).toMatchObject({ operator_id: support.id, operator_name: 'サポート 花子', operator_role: 'support', member_id: m.id, reason: '端末の紛失', ticket: 'INC-99', at, time: new Date(at).toISOString() });
    expect(page.records[0]!.request_id).toEqual(expect.any(String));

    // The operators' own events are rows of the same log.
    const adminId = (await adminCall(t, '/api/admin/me', admin.token)).json().operator.id as string;
    const own = auditReadResponseSchema.parse((await adminCall(t, '/api/admin/audit', security.token, { operator_id: adminId })).json()).records;
    expect(own.map((r) => r.action)).toEqual(expect.arrayContaining(['operator.sign_in', 'operator.enrol', 'operator.invite']));
    expect(own.filter((r) => r.action === 'operator.invite').map((r) => r.detail)).toContainEqual({ target_operator_id: support.id });
    // Who, by name as the operators list has it; the bootstrap on the host is no operator, and has none.
    const admins = (await adminCall(t, '/api/admin/operators', admin.token)).json().operators as { id: string; display_name: string }[];
    expect(own.every((r) => r.operator_name === admins.find((o) => o.id === adminId)?.display_name)).toBe(true);
    await recordAudit(t.testDb.db.kysely, { operatorId: 'host', operatorRole: 'host', action: 'member.unlock', memberId: `${m.id}-by-host`, reason: '電話窓口が停止中のため' }, t.clock.now());
    const hostRows = auditReadResponseSchema.parse((await adminCall(t, '/api/admin/audit', security.token, { operator_id: 'host', member_id: `${m.id}-by-host` })).json()).records;
    expect(hostRows.map((r) => [r.action, r.operator_id, r.operator_name])).toEqual([['member.unlock', 'host', null]]);

    // A page at a time, by the cursor.
    const first = auditReadResponseSchema.parse((await adminCall(t, '/api/admin/audit', security.token, { member_id: m.id, limit: 1 })).json());
    expect(first.records.map((r) => r.action)).toEqual(['member.end_sessions']);
    const second = auditReadResponseSchema.parse((await adminCall(t, '/api/admin/audit', security.token, { member_id: m.id, limit: 1, cursor: first.next })).json());
    expect(second.records.map((r) => r.action)).toEqual(['member.view']);
    expect(second.next).toBeNull();
    const forged = await adminCall(t, '/api/admin/audit', security.token, { cursor: 'not-a-cursor' });
    expect(forged.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'cursor', message: ADMIN_MEMBER_MESSAGES.invalidCursor }] });
    expect((await adminCall(t, '/api/admin/audit', security.token, { action: 'member.delete' })).json()).toMatchObject({ result_code: 901 });

    const reads = (await readAudit(t.testDb.db.kysely, { operatorId: security.id, action: 'audit.read' })).records;
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.every((r) => r.operator_role === 'security')).toBe(true);
    expect(reads.map((r) => r.detail)).toContainEqual({ filter: { member_id: m.id } });
  });

  it('exports the audit as JSON Lines: one row per line, every row matching the filter, and the export is audited', async () => {
    const { security, support } = await staff(t);
    const m = await newMember(t);
    for (let i = 0; i < 3; i++) await adminCall(t, '/api/admin/members/view', support.token, { member_id: m.id });
    const res = await adminCall(t, '/api/admin/audit/export', security.token, { member_id: m.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.endsWith('\n')).toBe(true);
    const lines = res.body.trimEnd().split('\n').map((line) => auditRecordSchema.parse(JSON.parse(line)));
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.action === 'member.view' && l.member_id === m.id && l.operator_id === support.id)).toBe(true);
    const exports = (await readAudit(t.testDb.db.kysely, { operatorId: security.id, action: 'audit.export' })).records;
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({ detail: { filter: { member_id: m.id } } });
  });

  it('mails an active member a password-reset link at the support desk\'s request, audited with the reason', async () => {
    const { support } = await staff(t);
    const m = await newMember(t);
    const res = await adminCall(t, '/api/admin/members/password-reset', support.token, { member_id: m.id, ...WHY });
    expect(res.json(), res.body).toEqual({ result_code: 0, result_message: SERVER_MESSAGES.ok });
    const [mail] = await waitForMails(t.app, m.email);
    expect(mail!.text).toContain(`${TEST_ORIGIN}/`);
    expect((await readAudit(t.testDb.db.kysely, { memberId: m.id, action: 'member.password_reset' })).records[0]).toMatchObject({ operator_id: support.id, ...WHY });
  });

  it("resends a pending open sign-up's activation mail to its address, audited with the reason; an active member's address is refused (404, nothing sent)", async () => {
    const { support } = await staff(t);
    const email = newOpenEmail();
    const first = await registerForToken(t, email);
    const res = await adminCall(t, '/api/admin/members/resend-activation', support.token, { email: email.toUpperCase(), ...WHY });
    expect(res.json(), res.body).toEqual({ result_code: 0, result_message: SERVER_MESSAGES.ok });
    // The new link reaches the address of the sign-up (the mailbox is newest first), and only it activates.
    const [resent] = await waitForMails(t.app, email, 2);
    const second = linkToken(resent!.text, ACTIVATE_PATH);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const rows = (await readAudit(t.testDb.db.kysely, { operatorId: support.id, action: 'member.resend_activation' })).records;
    expect(rows).toEqual([expect.objectContaining({ operator_role: 'support', member_id: null, ...WHY, detail: { email: `${email[0]}***@example.com` } })]);
    expect(JSON.stringify(rows)).not.toContain(email);
    expect((await activate(t, first)).json().result_code).not.toBe(0);
    expect((await activate(t, second!)).json().result_code).toBe(0);

    // Now an active member, as is any member already signed up: nothing pending to resend.
    for (const address of [email, (await newMember(t)).email]) {
      const before = (await mailsTo(t.app, address)).length;
      const refused = await adminCall(t, '/api/admin/members/resend-activation', support.token, { email: address, ...WHY });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ result_code: 902, result_message: ADMIN_MEMBER_MESSAGES.noPendingActivation });
      expect(await mailsTo(t.app, address)).toHaveLength(before);
    }
    expect((await readAudit(t.testDb.db.kysely, { operatorId: support.id, action: 'member.resend_activation' })).records).toHaveLength(1);
  });

  it('answers as the OpenAPI document says: JSON answers and refusals, and the export as application/x-ndjson', async () => {
    const doc = await servedDocument(t.app);
    const { security, support } = await staff(t);
    const m = await newMember(t);
    const member = (await loginTokens(t.app)).access_token;
    const wrong: string[] = [];
    const check = async (key: ApiKey, token: string | undefined, body: unknown, status: number) => {
      const res = await adminCall(t, pathOf(key), token, body);
      if (res.statusCode !== status) wrong.push(`${key}: expected ${status}, answered ${res.statusCode} ${res.body.slice(0, 200)}`);
      wrong.push(...nonConformance(doc, key, res));
    };
    await check('POST /api/admin/members/search', support.token, { email: m.email }, 200);
    await check('POST /api/admin/members/search', support.token, {}, 400);
    await check('POST /api/admin/members/view', support.token, { member_id: m.id }, 200);
    await check('POST /api/admin/members/view', support.token, { member_id: 'no-such-member' }, 404);
    await check('POST /api/admin/members/reveal', support.token, { member_id: m.id, field: 'name' }, 200);
    await check('POST /api/admin/members/unlock', support.token, { member_id: m.id, ...WHY }, 409);
    await check('POST /api/admin/members/end-sessions', support.token, { member_id: m.id, ...WHY }, 200);
    await check('POST /api/admin/members/suspend', support.token, { member_id: m.id, ...WHY }, 403);
    await check('POST /api/admin/members/suspend', member, { member_id: m.id, ...WHY }, 403);
    await check('POST /api/admin/audit', security.token, { member_id: m.id }, 200);
    await check('POST /api/admin/audit', undefined, {}, 401);
    await check('POST /api/admin/audit/export', security.token, { member_id: m.id }, 200);
    expect(wrong).toEqual([]);
    expect(Object.keys(doc.paths['/api/admin/audit/export']!.post!.responses['200']!.content!)).toEqual(['application/x-ndjson']);
  });

  it('npm run admin -- unlock and end-sessions: the break-glass commands act on the member by id or e-mail, audited as host, and need a reason', async () => {
    const m = await newMember(t);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, m.email, 'Wrong-pass9');
    const env = { ...process.env, NODE_ENV: 'development', DATABASE_URL: t.testDb.url, PUBLIC_ORIGIN: TEST_ORIGIN, SEED_DEMO: 'false' };
    const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'apps/server/src/admin-cli.ts', ...args], { cwd: REPO_ROOT, env });

    const noReason = await admin('unlock', '--member', m.email).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(noReason?.code).toBe(2);
    expect(noReason?.stderr).toContain('--reason');

    const unlocked = await admin('unlock', '--member', m.email.toUpperCase(), '--reason', '電話窓口が停止中のため', '--ticket', 'INC-1');
    expect(unlocked.stdout).toContain(`unlocked: ${m.id}`);
    expect((await login(t, m.email, m.password)).json()).toMatchObject({ result_code: 0 });

    const tokens = await loginTokens(t.app, { user: m.email, password: m.password });
    const ended = await admin('end-sessions', '--member', m.id, '--reason', '端末の紛失');
    expect(ended.stdout).toContain(`sessions ended: ${m.id}`);
    expect(await introspectToken(t.app, tokens.access_token)).toEqual({ active: false });

    const rows = (await readAudit(t.testDb.db.kysely, { memberId: m.id })).records;
    expect(rows.map((r) => [r.action, r.operator_id, r.operator_role, r.reason])).toEqual([
      ['member.end_sessions', 'host', 'host', '端末の紛失'],
      ['member.unlock', 'host', 'host', '電話窓口が停止中のため'],
    ]);
    expect(rows[1]).toMatchObject({ ticket: 'INC-1' });
  }, 90_000);
});
