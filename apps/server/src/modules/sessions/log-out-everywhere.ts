import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { securityEvent } from '../../lib/security-events.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import { endMemberSessions } from './end-sessions.ts';

/**
 * POST /api/user/sessions/end_all, すべての端末からログアウト (docs/decisions/0026-sso-session.md, "Log
 * out everywhere"): every browser's SSO session and every service's session of the member end, the
 * caller's own too, by the session-ending kernel (end-sessions.ts), so that nothing that could still
 * act for the member is left: codes not yet exchanged, login tickets and direct-login tokens in
 * flight with them, and each partner with a back-channel logout URI is told. Logged to the member
 * (`sessions_ended_everywhere`) and as the security event `sessions.ended` (`member_everywhere`),
 * written once the ending has committed.
 *
 * No fresh proof (decision 0012): the guard protects changes that let a stolen session keep or take
 * the account (the e-mail, the login mobile number, the passkeys, a withdrawal). Ending sessions is
 * the opposite: whoever holds this session loses it too, and the member gets back in with the
 * password; the list's own ログアウト of one browser or service asks none either. Asking for the
 * password here would only stand in the way of a member who fears their account is in other hands,
 * and of one who signs in by passkey alone.
 */
export async function logOutEverywhere(deps: { db: Kysely<Database>; clock: Clock }, call: MemberCall<unknown>): Promise<BaseResponse> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await endMemberSessions(trx, call.user.id, now);
    await logActivity(trx, { userId: call.user.id, event: 'sessions_ended_everywhere', device: call.device, at: now });
  });
  securityEvent({ event: 'sessions.ended', memberId: call.user.id, reason: 'member_everywhere' });
  return OK_RESPONSE;
}
