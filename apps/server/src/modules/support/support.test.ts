import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { REPO_ROOT } from '../../config.ts';
import { newId } from '../../lib/secrets.ts';
import { loadCardMasterSimulator } from '../../ports/card-master-simulator.ts';
import { DEMO } from '../../seed.ts';
import { readAudit } from '../audit/audit.ts';
import { insertMember, markSuspended, markWithdrawn } from '../account/member-repo.ts';
import { insertMemberCard } from '../cards/card-repo.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';
import { loggedInMember } from '../../test-support/account-change-kit.ts';
import { activate, ACTIVATE_PATH, linkToken, newOpenEmail, registerForToken } from '../../test-support/open-signup-kit.ts';
import { LoginBrowser, memberWithPasskey } from '../../test-support/passkey-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';
import { onetimeToken, redeem } from '../../test-support/direct-login-kit.ts';
import { bearer, loginTokens, TEST_ORIGIN, tokenRequest, WEB_REDIRECT, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { findMembers, SEARCH_LIMIT } from './find-members.ts';
import {
  endMemberSessionsBySupport,
  removeMemberPasskey,
  resendActivation,
  restoreMember,
  sendPasswordReset,
  suspendMember,
  unlockMember,
} from './member-actions.ts';
import { memberOverview, revealField } from './member-overview.ts';
import { SupportError, type OperatorAction, type OperatorContext, type SupportDeps, type SupportRefusal } from './support-deps.ts';

const SUPPORT: OperatorContext = { operatorId: 'op-support-1', role: 'support', address: '192.0.2.10', requestId: 'req-support' };
const SECURITY: OperatorContext = { operatorId: 'op-security-1', role: 'security', address: '192.0.2.11', requestId: 'req-security' };
const ADMIN: OperatorContext = { operatorId: 'op-admin-1', role: 'admin', address: '192.0.2.12', requestId: 'req-admin' };
const because = (ctx: OperatorContext, reason = '本人からの電話', ticket: string | undefined = 'INC-42'): OperatorAction => ({ ...ctx, reason, ticket });

/** The mails the services sent, as the app's notifier would have queued them. */
function recorder() {
  const sent: OutgoingMessage[] = [];
  return { sent, notifier: { send: async (m: OutgoingMessage) => void sent.push(m) } };
}

const refusal = async (p: Promise<unknown>, expected: SupportRefusal) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SupportError);
  expect((err as SupportError).refusal).toBe(expected);
};

const login = (t: TestApp, id: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } });
const refresh = (t: TestApp, refresh_token: string) =>
  tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id: 'terminal-1' });
const userStatus = async (t: TestApp, access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode;

describe.each(DIALECTS)('member support services (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const mails = recorder();
  const cardMaster = loadCardMasterSimulator(resolve(REPO_ROOT, 'config/demo-cards.json'));
  const deps = (): SupportDeps => ({ db: t.testDb.db.kysely, clock: t.clock, issuer: TEST_ORIGIN, notifier: mails.notifier, cardMaster });
  const audit = async (memberId: string) => (await readAudit(t.testDb.db.kysely, { memberId })).records;
  const events = async (memberId: string) =>
    (await t.testDb.db.kysely.selectFrom('activity_log').select('event').where('user_id', '=', memberId).orderBy('created_at').orderBy('id').execute()).map((r) => r.event);

  describe('findMembers', () => {
    it('finds by e-mail as the login reads it (case, full-width), masked, and audits the kind of search only', async () => {
      const m = await newMember(t);
      const wide = m.email.toUpperCase().replace('@', '＠');
      const found = await findMembers(deps(), SUPPORT, { email: wide });
      expect(found).toEqual([{ member_id: m.id, member_type: 'open', status: 'active', email: `r***@example.com`, tel: `${m.tel.slice(0, 3)}-****-${m.tel.slice(-4)}`, created_at: expect.any(Number) }]);
      const [row] = (await readAudit(t.testDb.db.kysely, { operatorId: SUPPORT.operatorId, action: 'member.search' })).records;
      expect(row).toMatchObject({ operator_role: 'support', address: '192.0.2.10', request_id: 'req-support', detail: { by: 'email', found: 1 } });
      expect(JSON.stringify(row)).not.toContain(m.email);
    });

    it('finds by a mobile number in the forgiving forms of the member forms: hyphens, full-width digits, the long vowel mark', async () => {
      const m = await newMember(t);
      const hyphenated = `${m.tel.slice(0, 3)}-${m.tel.slice(3, 7)}-${m.tel.slice(7)}`;
      const fullWidth = m.tel.replace(/\d/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
      const longVowel = `${m.tel.slice(0, 3)}ー${m.tel.slice(3, 7)}ー${m.tel.slice(7)}`;
      for (const tel of [m.tel, hyphenated, fullWidth, longVowel, ` ${hyphenated} `]) {
        expect((await findMembers(deps(), SUPPORT, { tel })).map((r) => r.member_id), tel).toEqual([m.id]);
      }
    });

    it('finds by member id, withdrawn members too; an unknown id finds nobody', async () => {
      const m = await newMember(t);
      await markWithdrawn(t.testDb.db.kysely, m.id, t.clock.now());
      expect(await findMembers(deps(), SUPPORT, { memberId: m.id })).toEqual([expect.objectContaining({ member_id: m.id, status: 'withdrawn', email: '', tel: null })]);
      expect(await findMembers(deps(), SECURITY, { memberId: newId() })).toEqual([]);
    });

    it("finds by a card's last four digits with the birth date, and not with another date", async () => {
      const m = await newMember(t);
      await insertMemberCard(
        t.testDb.db.kysely,
        m.id,
        {
          id: newId(),
          esid: `ES-${newId()}`,
          status: 'active',
          member_div_code: '01',
          card_name: 'テストカード',
          card_image_url: '/content/cards/visa-gold.svg',
          card_brand: 'VISA',
          card_number_mask: '4541-****-****-7731',
          holder_id: null,
          point_capable: 0,
          na_id: null,
          mail_digital: null,
        },
        t.clock.now(),
      );
      expect((await findMembers(deps(), SUPPORT, { cardLastFour: '7731', birthday: '1990/1/1' })).map((r) => r.member_id)).toEqual([m.id]);
      expect((await findMembers(deps(), SUPPORT, { cardLastFour: '７７３１', birthday: '19900101' })).map((r) => r.member_id)).toEqual([m.id]);
      expect(await findMembers(deps(), SUPPORT, { cardLastFour: '7731', birthday: '19900102' })).toEqual([]);
      expect(await findMembers(deps(), SUPPORT, { cardLastFour: '7732', birthday: '19900101' })).toEqual([]);
    });

    it("finds a card member by the card's last four digits with the birth date the card master holds for the card's holder (docs/demo.md)", async () => {
      expect((await findMembers(deps(), SUPPORT, { cardLastFour: '0101', birthday: '1985/6/15' })).map((r) => r.member_id)).toEqual([DEMO.card.id]);
      expect(await findMembers(deps(), SUPPORT, { cardLastFour: '0101', birthday: '19850616' })).toEqual([]);
      // Another card's holder's birth date does not find the member either.
      expect(await findMembers(deps(), SUPPORT, { cardLastFour: '0101', birthday: '19860707' })).toEqual([]);
    });

    it('finds the card member the card master names however many card members share the last four, and asks it once', async () => {
      // Sixty card members holding a card ending in 5150; the card master's holder born on 1970/3/3 holds the oldest one's card.
      const esids: string[] = [];
      for (let i = 0; i < 60; i++) {
        const member = newId();
        await insertMember(
          t.testDb.db.kysely,
          { id: member, email: `holder.${i}.${Date.now()}@example.com`, tel: null, password_hash: 'x', member_type: 'card', last_name: null, first_name: null, last_name_kana: null, first_name_kana: null, sex: null, birthday: null, postal_code: null, email_flg: 0, profile_tel: null },
          t.clock.now() + i,
        );
        const esid = `ES-${newId()}`;
        esids.push(esid);
        await insertMemberCard(t.testDb.db.kysely, member, { id: newId(), esid, status: 'active', member_div_code: '01', card_name: 'テストカード', card_image_url: '/content/cards/visa-gold.svg', card_brand: 'VISA', card_number_mask: '4541-****-****-5150', holder_id: null, point_capable: 0, na_id: null, mail_digital: null }, t.clock.now() + i);
      }
      const asked: string[][] = [];
      const desk = { cardsByEndingAndBirthday: async (lastFour: string, birthday: string) => (asked.push([lastFour, birthday]), birthday === '19700303' ? [esids[0]!] : []) };
      const found = await findMembers({ ...deps(), cardMaster: desk }, SUPPORT, { cardLastFour: '5150', birthday: '1970-03-03' });
      expect(found.map((r) => r.member_type)).toEqual(['card']);
      expect(asked).toEqual([['5150', '19700303']]);
      expect(await findMembers({ ...deps(), cardMaster: desk }, SUPPORT, { cardLastFour: '5150', birthday: '19700304' })).toEqual([]);
    });

    it('says the card master did not answer, never that nobody was found, and audits the search that failed', async () => {
      const down = { cardsByEndingAndBirthday: () => Promise.reject(new Error('connect ECONNREFUSED')) };
      const ctx = { ...SUPPORT, operatorId: 'op-support-card-master-down' };
      await refusal(findMembers({ ...deps(), cardMaster: down }, ctx, { cardLastFour: '0101', birthday: '19850615' }), 'card_master_unavailable');
      const [row] = (await readAudit(t.testDb.db.kysely, { operatorId: ctx.operatorId, action: 'member.search' })).records;
      expect(row).toMatchObject({ detail: { by: 'cardLastFour+birthday', found: null } });
    });

    it('never answers more than a small page', async () => {
      const shared = '09099998888';
      for (let i = 0; i < SEARCH_LIMIT + 3; i++) {
        await insertMember(
          t.testDb.db.kysely,
          { id: newId(), email: `many.${i}.${Date.now()}@example.com`, tel: null, password_hash: 'x', member_type: 'open', last_name: null, first_name: null, last_name_kana: null, first_name_kana: null, sex: null, birthday: null, postal_code: null, email_flg: 0, profile_tel: shared },
          t.clock.now(),
        );
      }
      expect(await findMembers(deps(), SUPPORT, { tel: shared })).toHaveLength(SEARCH_LIMIT);
    });

    it('refuses a malformed query; an administrator holds every right of support (decision 0032)', async () => {
      await refusal(findMembers(deps(), SUPPORT, { tel: 'abc' }), 'invalid_request');
      await refusal(findMembers(deps(), SUPPORT, { email: 'no-at-sign' }), 'invalid_request');
      await refusal(findMembers(deps(), SUPPORT, { cardLastFour: '12', birthday: '19900101' }), 'invalid_request');
      expect(await findMembers(deps(), ADMIN, { memberId: 'x' })).toEqual([]);
    });
  });

  describe('memberOverview and revealField', () => {
    it("shows the member's page masked, with sessions, passkeys and the activity log, and audits the view", async () => {
      const { member } = await memberWithPasskey(t);
      const page = await memberOverview(deps(), SUPPORT, member.id);
      expect(page).toMatchObject({ member_id: member.id, member_type: 'open', status: 'active', suspended_at: null, lock: { locked: false, until: null } });
      expect(page.personal).toEqual({
        email: 'r***@example.com',
        tel: `${member.tel.slice(0, 3)}-****-${member.tel.slice(-4)}`,
        profile_tel: `${member.tel.slice(0, 3)}-****-${member.tel.slice(-4)}`,
        name: '佐＊\u3000花＊',
        name_kana: 'サ＊＊\u3000ハ＊＊',
        birthday: '1990****',
        postal_code: '170****',
      });
      expect(JSON.stringify(page)).not.toContain(member.email);
      expect(page.passkeys).toEqual([expect.objectContaining({ name: 'テストのパスキー', created_at: expect.any(Number) })]);
      // inject() comes from 127.0.0.1: the login's address, on the session and its log row.
      expect(page.sso_sessions).toEqual([expect.objectContaining({ address: '127.0.0.1', last_used_at: expect.any(Number), last_client_id: 'SIAP009' })]);
      expect(page.partner_sessions).toEqual(
        expect.arrayContaining([expect.objectContaining({ client_id: 'SIAP009', last_used_at: expect.any(Number), address: '127.0.0.1', sso_session_id: page.sso_sessions[0]?.sid })]),
      );
      expect(page.activities.map((a) => a.event)).toEqual(expect.arrayContaining(['login', 'passkey_added']));
      expect(page.activities.find((a) => a.event === 'login')).toMatchObject({ address: '127.0.0.1', client_id: 'SIAP009' });
      expect(await audit(member.id)).toEqual([expect.objectContaining({ action: 'member.view', operator_id: SUPPORT.operatorId, reason: null })]);
    });

    it('reveals one field unmasked and audits which field, never its value', async () => {
      const m = await newMember(t);
      expect(await revealField(deps(), SUPPORT, m.id, 'email')).toBe(m.email);
      t.clock.advance(1);
      expect(await revealField(deps(), SECURITY, m.id, 'birthday')).toBe('19900101');
      const rows = await audit(m.id);
      expect(rows.map((r) => [r.action, r.detail])).toEqual([
        ['member.reveal', { field: 'birthday' }],
        ['member.reveal', { field: 'email' }],
      ]);
      expect(JSON.stringify(rows)).not.toContain(m.email);
      await refusal(revealField(deps(), SUPPORT, m.id, 'password_hash' as 'email'), 'invalid_request');
    });

    it('an unknown member is member_not_found, and nothing is audited of it', async () => {
      const unknown = newId();
      await refusal(memberOverview(deps(), SUPPORT, unknown), 'member_not_found');
      await refusal(revealField(deps(), SUPPORT, unknown, 'email'), 'member_not_found');
      expect(await audit(unknown)).toEqual([]);
    });
  });

  describe('unlockMember', () => {
    it('shows the lock with the time left and why, clears it on the server, and the member logs in', async () => {
      const m = await newMember(t);
      for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, m.email, 'Wrong-pass9');
      expect((await login(t, m.email, m.password)).json().result_code).toBe(203);
      const page = await memberOverview(deps(), SUPPORT, m.id);
      expect(page.status).toBe('locked');
      expect(page.lock).toMatchObject({ locked: true, reason: 'login_failures', failures: expect.any(Number) });
      expect(page.lock.remaining_ms).toBeGreaterThan(0);
      expect(page.lock.remaining_ms).toBeLessThanOrEqual(LIMITS.loginLockMs);

      await unlockMember(deps(), because(SUPPORT), m.id);
      expect((await login(t, m.email, m.password)).json().result_code).toBe(0);
      expect((await memberOverview(deps(), SUPPORT, m.id)).status).toBe('active');
      expect(await events(m.id)).toContain('support_unlocked');
      expect((await audit(m.id)).find((r) => r.action === 'member.unlock')).toMatchObject({ reason: '本人からの電話', ticket: 'INC-42', operator_role: 'support' });
    });

    it('the lock by the mobile number is cleared too', async () => {
      const m = await newMember(t);
      for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, m.tel, 'Wrong-pass9');
      expect((await login(t, m.email, m.password)).json().result_code).toBe(203);
      await unlockMember(deps(), because(SUPPORT), m.id);
      expect((await login(t, m.tel, m.password)).json().result_code).toBe(0);
    });

    it('refuses a member not locked, an unknown member, and an action without a reason', async () => {
      const m = await newMember(t);
      await refusal(unlockMember(deps(), because(SUPPORT), m.id), 'not_locked');
      await refusal(unlockMember(deps(), because(SUPPORT), newId()), 'member_not_found');
      await refusal(unlockMember(deps(), because(SUPPORT, '  '), m.id), 'invalid_request');
      expect((await audit(m.id)).filter((r) => r.action === 'member.unlock')).toEqual([]);
    });
  });

  describe('endMemberSessionsBySupport', () => {
    it("ends every session by the kernel: the access token is refused, the refresh token is invalid_grant", async () => {
      const m = await loggedInMember(t);
      expect(await userStatus(t, m.access_token)).toBe(200);
      const ended = await endMemberSessionsBySupport(deps(), because(SUPPORT), m.id);
      expect(ended.sessions).toBeGreaterThanOrEqual(1);
      expect(await userStatus(t, m.access_token)).toBe(401);
      expect((await refresh(t, m.refresh_token)).json().error).toBe('invalid_grant');
      expect(await events(m.id)).toContain('support_sessions_ended');
      expect((await audit(m.id)).find((r) => r.action === 'member.end_sessions')?.detail).toMatchObject({ sessions: ended.sessions });
    });

    it('refuses an unknown and a withdrawn member', async () => {
      await refusal(endMemberSessionsBySupport(deps(), because(SUPPORT), newId()), 'member_not_found');
      const m = await newMember(t);
      await markWithdrawn(t.testDb.db.kysely, m.id, t.clock.now());
      await refusal(endMemberSessionsBySupport(deps(), because(SUPPORT), m.id), 'not_active');
    });
  });

  describe('sendPasswordReset and resendActivation', () => {
    it("mails the recover flow's reset link to an active member", async () => {
      const m = await newMember(t);
      const before = mails.sent.length;
      await sendPasswordReset(deps(), because(SUPPORT), m.id);
      const mail = mails.sent.slice(before).find((x) => x.to === m.email);
      expect(mail?.text).toContain(`${TEST_ORIGIN}/content/recover/password?onetime_token=`);
      expect(await events(m.id)).toContain('password_reset_requested');
      expect((await audit(m.id)).map((r) => r.action)).toContain('member.password_reset');
    });

    it('refuses a suspended member and an unknown one', async () => {
      const m = await newMember(t);
      await suspendMember(deps(), because(SECURITY), m.id);
      await refusal(sendPasswordReset(deps(), because(SUPPORT), m.id), 'not_active');
      await refusal(sendPasswordReset(deps(), because(SUPPORT), newId()), 'member_not_found');
    });

    it('mails a pending open sign-up a new activation link: the earlier link leads nowhere, the new one activates', async () => {
      const email = newOpenEmail();
      const first = await registerForToken(t, email);
      const before = mails.sent.length;
      await resendActivation(deps(), because(SUPPORT), email.toUpperCase());
      const mail = mails.sent.slice(before).find((x) => x.to === email);
      const second = linkToken(mail?.text ?? '', ACTIVATE_PATH);
      expect(second).toBeDefined();
      expect((await activate(t, first)).json().result_code).not.toBe(0);
      expect((await activate(t, second!)).json().result_code).toBe(0);
      const [row] = (await readAudit(t.testDb.db.kysely, { action: 'member.resend_activation', operatorId: SUPPORT.operatorId })).records;
      expect(row?.detail).toEqual({ email: `${email[0]}***@example.com` });
    });

    it('refuses an address with no pending sign-up (a member, or nobody)', async () => {
      const m = await newMember(t);
      await refusal(resendActivation(deps(), because(SUPPORT), m.email), 'no_pending_activation');
      await refusal(resendActivation(deps(), because(SUPPORT), 'nobody@example.com'), 'no_pending_activation');
    });
  });

  describe('suspendMember and restoreMember', () => {
    it('a suspended member cannot log in (the login says whom to contact), refresh, or call a member API; restored, they log in', async () => {
      const m = await loggedInMember(t);
      const before = mails.sent.length;
      await suspendMember(deps(), because(SECURITY, '不正利用の疑い'), m.id);

      const right = await login(t, m.email, m.password);
      expect(right.json()).toEqual({ result_code: 203, result_message: SERVER_MESSAGES.suspended });
      // A wrong password learns nothing of the suspension.
      expect((await login(t, m.email, 'Wrong-pass9')).json().result_code).toBe(200);
      expect((await refresh(t, m.refresh_token)).json().error).toBe('invalid_grant');
      expect(await userStatus(t, m.access_token)).toBe(401);
      await expect(loginTokens(t.app, { user: m.email, password: m.password })).rejects.toThrow();
      expect(mails.sent.slice(before).map((x) => [x.to, x.subject])).toEqual([[m.email, '【メンバーID】アカウントのご利用停止のお知らせ']]);
      expect((await memberOverview(deps(), SECURITY, m.id)).status).toBe('suspended');

      await restoreMember(deps(), because(SECURITY, '本人確認済み'), m.id);
      expect((await login(t, m.email, m.password)).json().result_code).toBe(0);
      const tokens = await loginTokens(t.app, { user: m.email, password: m.password });
      expect(await userStatus(t, tokens.access_token)).toBe(200);
      expect(mails.sent.slice(before).map((x) => x.subject)).toContain('【メンバーID】アカウントのご利用再開のお知らせ');
      expect(await events(m.id)).toEqual(expect.arrayContaining(['account_suspended', 'account_restored']));
      expect((await audit(m.id)).map((r) => [r.action, r.reason])).toEqual(
        expect.arrayContaining([
          ['member.suspend', '不正利用の疑い'],
          ['member.restore', '本人確認済み'],
        ]),
      );
    });

    // Twice: by the service, which ends every session; and by the member's status alone, as a session
    // made at the very moment of the suspension would outlive it, so that each check is seen on its own.
    for (const [how, suspend] of [
      ['suspendMember', (id: string) => suspendMember(deps(), because(SECURITY), id)],
      ['the status alone', (id: string) => markSuspended(t.testDb.db.kysely, id, t.clock.now())],
    ] as const) {
    it(`a suspended member's one-time direct-login token gives no tokens, at either token endpoint, and the browser's SSO session no code (${how})`, async () => {
      const m = await newMember(t);
      const browser = new TestBrowser();
      const tokens = await webTokens(t, codeOf(await browser.login(t, m)));
      expect(codeOf(await browser.authorize(t))).toBeTruthy();
      const [first, second] = [await onetimeToken(t, tokens.access_token), await onetimeToken(t, tokens.access_token)];
      await suspend(m.id);
      // The direct-login grant (SPEC.md section 7), by its own endpoint and as the token endpoint's password grant.
      expect((await redeem(t, first)).json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      const passwordGrant = await tokenRequest(t.app, { grant_type: 'password', onetime_token: second, client_id: 'SIAP009', terminal_id: 'terminal-dl' });
      expect(passwordGrant.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      // A partner's link with the browser's session: the login page, no code.
      const again = await browser.authorize(t);
      expect(codeOf(again)).toBeNull();
      expect(String(again.headers.location)).toContain('/content/authorize?');
    });
    }

    it("a suspended member's passkey sign-in says whom to contact too, and works again once restored", async () => {
      const { member, authenticator } = await memberWithPasskey(t);
      await suspendMember(deps(), because(SECURITY), member.id);
      expect((await new LoginBrowser().signIn(t, authenticator)).json()).toEqual({ result_code: 203, result_message: SERVER_MESSAGES.suspended });
      await restoreMember(deps(), because(SECURITY), member.id);
      const res = await new LoginBrowser().signIn(t, authenticator);
      expect(res.json().result_code, res.body).toBe(0);
      expect(res.json().login_ticket).toMatch(/^pk\./);
    });

    it('refuses to suspend twice, to restore an active member, a withdrawn or unknown member, and a support operator', async () => {
      const m = await newMember(t);
      await refusal(suspendMember(deps(), because(SUPPORT), m.id), 'forbidden');
      await refusal(restoreMember(deps(), because(SECURITY), m.id), 'not_suspended');
      await suspendMember(deps(), because(SECURITY), m.id);
      await refusal(suspendMember(deps(), because(SECURITY), m.id), 'already_suspended');
      expect((await audit(m.id)).filter((r) => r.action === 'member.suspend')).toHaveLength(1);
      const gone = await newMember(t);
      await markWithdrawn(t.testDb.db.kysely, gone.id, t.clock.now());
      await refusal(suspendMember(deps(), because(SECURITY), gone.id), 'not_active');
      await refusal(restoreMember(deps(), because(SECURITY), gone.id), 'not_suspended');
      await refusal(suspendMember(deps(), because(SECURITY), newId()), 'member_not_found');
    });
  });

  describe('removeMemberPasskey', () => {
    it("removes the member's passkey, mails the member, and a second removal finds none", async () => {
      const { member } = await memberWithPasskey(t);
      const [passkey] = (await memberOverview(deps(), SECURITY, member.id)).passkeys;
      const before = mails.sent.length;
      await removeMemberPasskey(deps(), because(SECURITY), member.id, passkey!.id);
      expect((await memberOverview(deps(), SECURITY, member.id)).passkeys).toEqual([]);
      expect(mails.sent.slice(before).map((x) => [x.to, x.subject])).toEqual([[member.email, '【メンバーID】パスキー削除のお知らせ']]);
      expect(await events(member.id)).toContain('support_passkey_removed');
      await refusal(removeMemberPasskey(deps(), because(SECURITY), member.id, passkey!.id), 'passkey_not_found');
    });

    it("refuses another member's passkey and a support operator", async () => {
      const { member } = await memberWithPasskey(t);
      const other = await newMember(t);
      const [passkey] = (await memberOverview(deps(), SECURITY, member.id)).passkeys;
      await refusal(removeMemberPasskey(deps(), because(SECURITY), other.id, passkey!.id), 'passkey_not_found');
      await refusal(removeMemberPasskey(deps(), because(SUPPORT), member.id, passkey!.id), 'forbidden');
      expect((await memberOverview(deps(), SECURITY, member.id)).passkeys).toHaveLength(1);
    });
  });
});
