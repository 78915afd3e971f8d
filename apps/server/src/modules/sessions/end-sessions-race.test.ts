import { describe, expect, it } from 'vitest';
import { holdMember } from '../account/member-hold-repo.ts';
import { setPasswordHash } from '../account/member-repo.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { call, expectSessionDead, loggedInMember, OK } from '../../test-support/account-change-kit.ts';
import { insertFamily } from '../oauth/token-repo.ts';
import { issuePair } from '../oauth/tokens.ts';
import { bearer, postAuthorize, withTestApp } from '../../test-support/test-app.ts';
import { newId } from '../../lib/secrets.ts';
import { endMemberSessions } from './end-sessions.ts';
import { LoginBrowser, memberWithPasskey } from '../../test-support/passkey-kit.ts';
import { memberPasskeys } from '../passkeys/passkey-repo.ts';
import { removePasskey } from '../passkeys/manage-service.ts';

/** A promise and the function that settles it: one side of a race waits on the other. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const stillWaiting = async (p: Promise<unknown>) => (await Promise.race([p.then(() => 'done'), new Promise((r) => setTimeout(r, 300, 'waiting'))])) === 'waiting';

/**
 * An ending event and a step that starts a session for the member at the same moment, on
 * PostgreSQL, where they really run at once (member-hold-repo.ts; docs/security.md "Ending a
 * member's sessions"). On SQLite a node runs one transaction at a time: there is no such moment.
 */
describe('ending sessions while one starts (postgres)', () => {
  const t = withTestApp('postgres');
  const db = () => t.testDb.db.kysely;

  it('a password change waits for a session being created under the member row, then ends it too', async () => {
    const member = await loggedInMember(t);
    const created = latch();
    const commit = latch();
    let access = '';
    // A step that starts a session (a code exchange, a direct-login redemption) holds the member's row first.
    const starting = db().transaction().execute(async (trx) => {
      await holdMember(trx, member.id);
      const familyId = newId();
      await insertFamily(trx, {
        id: familyId, user_id: member.id, client_id: 'SIAP009', terminal_id: null, scope: 'openid user:read',
        audience: 'member-api', created_at: t.clock.now(), revoked_at: null, proved_at: null, auth_time: null, amr: null, sso_session_id: null, subject: null,
      });
      access = (await issuePair(trx, familyId, null, 'openid user:read', t.clock.now())).access_token;
      created.open();
      await commit.opened;
    });
    await created.opened;
    const change = call(t, '/api/auth/password/change', member.access_token, { current_password: member.password, password: 'Changed2026x', password_check: 'Changed2026x' });
    expect(await stillWaiting(change), 'the change waits for the member row').toBe(true);
    commit.open();
    await starting;
    expect((await change).json()).toEqual(OK);
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode).toBe(401);
    await expectSessionDead(t, member);
  });

  it('a login whose password was checked just before a reset gets no code once the reset is in', async () => {
    const member = await loggedInMember(t);
    const held = latch();
    const commit = latch();
    const newHash = await hashPassword('Reset2026xx');
    // The reset's transaction: the new password and the kernel, not yet committed.
    const reset = db().transaction().execute(async (trx) => {
      await setPasswordHash(trx, member.id, newHash, t.clock.now());
      await endMemberSessions(trx, member.id, t.clock.now());
      held.open();
      await commit.opened;
    });
    await held.opened;
    // The old password still checks against the committed row; the code's issue waits for the reset.
    const login = postAuthorize(t.app, { user: member.email, password: member.password });
    expect(await stillWaiting(login)).toBe(true);
    commit.open();
    await reset;
    const location = new URL((await login).headers.location as string);
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('login_result')).toBe('credentials');
  });

  it('a passkey sign-in whose ticket was redeemed just before its passkey was deleted in the settings gets no code once the deletion is in', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const ticket = (await new LoginBrowser().signIn(t, authenticator)).json().login_ticket as string;
    const [passkey] = await memberPasskeys(db(), member.id);
    const held = latch();
    const commit = latch();
    // The settings' deletion (manage-service.ts), not yet committed: the passkey is still there for anyone else to read.
    const deletion = db().transaction().execute(async (trx) => {
      expect(await removePasskey(trx, member.id, passkey!.id, t.clock.now())).toBe(true);
      held.open();
      await commit.opened;
    });
    await held.opened;
    // The ticket is redeemed against the committed rows; the code's issue waits for the deletion.
    const login = postAuthorize(t.app, { user: member.email, password: '', ticket, recaptcha: '' });
    expect(await stillWaiting(login)).toBe(true);
    commit.open();
    await deletion;
    const location = new URL((await login).headers.location as string);
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('login_result')).toBe('credentials');
  });
});
