import { describe, expect, it } from 'vitest';
import { signupTermKeys } from '@sso/contracts/signup-terms';
import { userAttributeResponseSchema } from '@sso/contracts/user';
import { REPO_ROOT } from '../../config.ts';
import { purgeExpired } from '../../db/maintenance.ts';
import { loadClients } from '../clients/clients.ts';
import { sha256 } from '../../lib/secrets.ts';
import { insertMember, NO_PROFILE } from '../account/member-repo.ts';
import { loginCheck } from '../../test-support/account-change-kit.ts';
import { bearer, loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import {
  ACTIVATE_PATH,
  OPEN_PASSWORD,
  activate,
  countRows,
  linkToken,
  newOpenEmail,
  newTel,
  openBody,
  registerForToken,
  registerOpen,
} from '../../test-support/open-signup-kit.ts';

const OK = { result_code: 0, result_message: '正常に処理しました。' };
const LINK_INVALID = { result_code: 902, result_message: 'URLの有効期限が切れているか、既に使用されています。お手数ですが、もう一度お手続きください。' };
const MINUTE = 60_000;

describe.each(DIALECTS)('open sign-up: register and activate (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  it('dry-runs without storing or sending anything', async () => {
    const email = newOpenEmail();
    const res = await registerOpen(t, openBody(email.toUpperCase(), { dry_run: 1 }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ ...OK, email, links: [] });
    // A real register after it is mailed; by then the dry run would have been too.
    const other = newOpenEmail();
    await registerForToken(t, other);
    expect(await mailsTo(t.app, email)).toEqual([]);
    expect(await countRows(t, 'open_signups', email)).toBe(0);
    expect(await countRows(t, 'users', email)).toBe(0);
  });

  it('mails the activation link, creates the open member from it once, and logs them in', async () => {
    const email = newOpenEmail();
    const tel = newTel();
    const res = await registerOpen(t, openBody(email, { tel, email_flg: true, sex: '2' }));
    expect(res.json()).toEqual({ ...OK, email, links: [] });
    const [mail, ...more] = await waitForMails(t.app, email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('【メンバーID】仮登録のご案内');
    const token = linkToken(mail!.text, ACTIVATE_PATH)!;
    expect(token).toBeTruthy();
    const url = `http://sso.test${ACTIVATE_PATH}?onetime_token=${token}`;
    for (const part of [mail!.text, mail!.html!]) {
      expect(part).toContain('メンバーID');
      expect(part).toContain('60分');
    }
    expect(mail!.html).toContain(`<a href="${url}">`);
    // The token travels only by mail, and is stored only as its SHA-256.
    expect(res.body).not.toContain(token);
    const secret = await db().selectFrom('verifications').selectAll().where('purpose', '=', 'open_activation').where('secret_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(secret.expires_at - secret.created_at).toBe(60 * MINUTE);
    expect(await db().selectFrom('verifications').select('id').where('secret_hash', '=', token).execute()).toEqual([]);
    const pending = await db().selectFrom('open_signups').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(pending.id).toBe(secret.subject);
    expect(pending.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(pending)).not.toContain(token);
    expect(await countRows(t, 'users', email)).toBe(0);

    const activated = await activate(t, token);
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toEqual({ ...OK, email, links: [] });
    const user = await db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      member_type: 'open',
      status: 'active',
      // The phone entered is the profile's; it is no login id until an SMS code proves it (decision 0014).
      tel: null,
      profile_tel: tel,
      last_name: '山田',
      first_name: '太郎',
      last_name_kana: 'ヤマダ',
      first_name_kana: 'タロウ',
      sex: '2',
      birthday: '20000101',
      postal_code: '1700013',
      email_flg: 1,
    });
    const terms = await db().selectFrom('term_acceptances').select('term_key').where('user_id', '=', user.id).orderBy('term_key').execute();
    expect(terms.map((r) => r.term_key)).toEqual(['PersonalInfoOnMemberId', 'ServiceOnMemberId']);
    expect(await db().selectFrom('point_accounts').select(['kind', 'points']).where('user_id', '=', user.id).execute()).toEqual([{ kind: 'open', points: 0 }]);
    expect(await db().selectFrom('activity_log').select(['event', 'client_id']).where('user_id', '=', user.id).execute()).toEqual([{ event: 'signup', client_id: 'SIAP009' }]);
    expect(await countRows(t, 'open_signups', email)).toBe(0);

    // The link is used up.
    expect((await activate(t, token)).json()).toEqual(LINK_INVALID);
    // The new member logs in with the e-mail, as an open member; the unproven mobile number logs nobody in.
    const { access_token } = await loginTokens(t.app, { user: email, password: OPEN_PASSWORD });
    const attr = await t.app.inject({ method: 'POST', url: '/api/user/attribute', headers: bearer(access_token) });
    expect(userAttributeResponseSchema.parse(attr.json())).toMatchObject({ result_code: 0, is_user_open: true, is_user_saison_card: false });
    expect(await loginCheck(t, tel, OPEN_PASSWORD)).toBe(200);
  });

  it('answers the services to return to: none for the web, one partner, several', async () => {
    const cases = [
      ['SIAP009', []],
      ['SIAP002', [{ name: 'LINE公式アカウントサービス', client_id: 'SIAP002' }]],
      [
        'SIAP002,SIAP004',
        [
          { name: 'LINE公式アカウントサービス', client_id: 'SIAP002' },
          { name: 'Net Answer', client_id: 'SIAP004' },
        ],
      ],
    ] as const;
    for (const [client_id, links] of cases) {
      const email = newOpenEmail();
      const token = await registerForToken(t, email, { client_id });
      expect((await activate(t, token)).json(), client_id).toEqual({ ...OK, email, links });
    }
  });

  it('records the terms the form showed: the line answer\'s with a sign-up from it, the ID\'s alone from the web (SPEC.md section 3)', async () => {
    for (const client_id of ['SIAP002', 'SIAP009', 'SIAP002,SIAP004']) {
      const email = newOpenEmail();
      await activate(t, await registerForToken(t, email, { client_id }));
      const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const terms = await db().selectFrom('term_acceptances').select('term_key').where('user_id', '=', user.id).execute();
      expect(terms.map((r) => r.term_key).sort(), client_id).toEqual([...signupTermKeys(client_id)].sort());
    }
  });

  it('shows on the form exactly the terms the client registry lists for each client (signup-terms.ts and config/clients.json alike)', () => {
    for (const client of loadClients(`${REPO_ROOT}config/clients.json`, 'http://sso.test').all()) {
      expect(signupTermKeys(client.client_id), client.client_id).toEqual(client.terms);
    }
  });

  it('replaces the first link when the same e-mail registers again before activating', async () => {
    const email = newOpenEmail();
    const first = await registerForToken(t, email, { password: 'First-pass1', password_check: 'First-pass1' });
    const second = await registerForToken(t, email, { password: 'Second-pass2', password_check: 'Second-pass2' }, 2);
    expect(second).not.toBe(first);
    expect(await countRows(t, 'open_signups', email)).toBe(1);
    expect((await activate(t, first)).json()).toEqual(LINK_INVALID);
    expect((await activate(t, second)).json()).toEqual({ ...OK, email, links: [] });
    await expect(loginTokens(t.app, { user: email, password: 'First-pass1' })).rejects.toThrow();
    await loginTokens(t.app, { user: email, password: 'Second-pass2' });
  });

  it('keeps a link 60 minutes: just before it works, just after it answers 902', async () => {
    const [early, late] = [newOpenEmail(), newOpenEmail()];
    const earlyToken = await registerForToken(t, early);
    const lateToken = await registerForToken(t, late);
    t.clock.advance(60 * MINUTE - 1000);
    expect((await activate(t, earlyToken)).json().result_code).toBe(0);
    t.clock.advance(1000);
    expect((await activate(t, lateToken)).json()).toEqual(LINK_INVALID);
    expect(await countRows(t, 'users', late)).toBe(0);
    // The hourly purge drops the lapsed registration.
    expect(await countRows(t, 'open_signups', late)).toBe(1);
    await purgeExpired(db(), t.clock.now() + 1);
    expect(await countRows(t, 'open_signups', late)).toBe(0);
  });

  it('creates exactly one member from parallel activations of one link', async () => {
    const email = newOpenEmail();
    const token = await registerForToken(t, email);
    const answers = (await Promise.all(Array.from({ length: 8 }, () => activate(t, token)))).map((r) => r.json());
    expect(answers.filter((a) => a.result_code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.result_code === 902)).toHaveLength(7);
    expect(await countRows(t, 'users', email)).toBe(1);
  });

  it('answers 902 for an unknown or malformed token, and 901 for none', async () => {
    expect((await activate(t, 'x'.repeat(43))).json()).toEqual(LINK_INVALID);
    expect((await activate(t, '')).json().validation_errors).toEqual([{ key: 'onetime_token', message: '入力してください' }]);
    expect((await activate(t, 'y'.repeat(300))).json().result_code).toBe(901);
  });

  it("answers a member's address exactly like a new one, stores nothing and tells the owner by mail", async () => {
    const member = 'demo.open@example.com';
    const fresh = newOpenEmail();
    const a = await registerOpen(t, openBody(member));
    const b = await registerOpen(t, openBody(fresh));
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.body.replace(member, '<email>')).toBe(b.body.replace(fresh, '<email>'));
    const [mail, ...more] = await waitForMails(t.app, member);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('【メンバーID】ご登録済みのメールアドレスです');
    for (const part of [mail!.text, mail!.html!]) {
      expect(part).toContain('http://sso.test/content/recover/mail');
      expect(part).toContain('http://sso.test/content/');
      expect(part).not.toContain('onetime_token');
    }
    await waitForMails(t.app, fresh);
    expect(await countRows(t, 'open_signups', member)).toBe(0);
    await loginTokens(t.app, { user: member, password: 'Demo1234' });
  });

  it("takes another member's login number as the profile's phone only, and answers as for any number", async () => {
    const email = newOpenEmail();
    const token = await registerForToken(t, email, { tel: '09000000002' });
    const res = await activate(t, token);
    expect(res.json()).toEqual({ ...OK, email, links: [] });
    const user = await db().selectFrom('users').select(['tel', 'profile_tel', 'member_type']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toEqual({ tel: null, profile_tel: '09000000002', member_type: 'open' });
    // The number still logs in its owner, and only them.
    const owner = await loginTokens(t.app, { user: '09000000002', password: 'Demo1234' });
    const me = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(owner.access_token) });
    expect(me.json().email).toBe('demo.open@example.com');
    expect(await loginCheck(t, '09000000002', OPEN_PASSWORD)).toBe(200);
  });

  it('answers 902 when the e-mail became a member\'s between the register and the activation', async () => {
    const email = newOpenEmail();
    const token = await registerForToken(t, email);
    // A card sign-up for the same address finishes in the meantime.
    await insertMember(
      db(),
      {
        id: `card-${email}`,
        email,
        tel: null,
        password_hash: 'x',
        member_type: 'card',
        ...NO_PROFILE,
      },
      t.clock.now(),
    );
    expect((await activate(t, token)).json()).toEqual(LINK_INVALID);
    expect(await db().selectFrom('users').select('member_type').where('email', '=', email).execute()).toEqual([{ member_type: 'card' }]);
    expect(await countRows(t, 'open_signups', email)).toBe(0);
    expect((await activate(t, token)).json()).toEqual(LINK_INVALID);
  });

  it('mails one address at most 5 times in 30 minutes, answering the same beyond', async () => {
    const email = newOpenEmail();
    const tokens: string[] = [];
    for (let i = 1; i <= 5; i++) tokens.push(await registerForToken(t, email, {}, i));
    const sixth = await registerOpen(t, openBody(email));
    expect(sixth.json()).toEqual({ ...OK, email, links: [] });
    // A later register elsewhere is mailed; the sixth, which started first, would have been by then.
    await registerForToken(t, newOpenEmail());
    expect(await mailsTo(t.app, email)).toHaveLength(5);
    // Nothing was replaced by the refused register: the fifth link still works.
    expect((await activate(t, tokens[4]!)).json().result_code).toBe(0);
  });
});
