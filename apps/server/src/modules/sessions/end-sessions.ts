import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockMember } from '../account/member-hold-repo.ts';
import { replacePendingChanges } from '../account-change/member-change-repo.ts';
import { endDirectLogins } from '../direct-login/repo.ts';
import { endWaitingFlows } from '../member-flows/member-flow-repo.ts';
import { useUpMemberCodes } from '../oauth/code-repo.ts';
import { revokeUserFamilies } from '../oauth/token-repo.ts';
import { queueBackchannelLogout } from '../oidc/backchannel-logout.ts';
import { endMemberSignups } from '../signup/flow-repo.ts';
import { endSsoSessions } from '../sso/end-sso-sessions.ts';
import { endPurposeSecrets, endSecrets } from '../verification/one-time-secret.ts';

/** How many live secrets of each kind an ending found (the activity log's detail). */
export interface EndedSecrets {
  sessions: number;
  /** The browsers' SSO sessions (decision 0026), by id: the OpenID Connect `sid` values that ended. */
  ssoSessions: string[];
  codes: number;
  emailChanges: number;
  directLogins: number;
  flows: number;
  signups: number;
  /** Login tickets (a password's and a passkey's) and unused reset links. */
  links: number;
}

/**
 * Ends every live secret that could still act for the member (ARCHITECTURE.md "Ending is
 * complete"; docs/security.md "Ending a member's sessions"), to run inside the caller's
 * transaction so that all of it ends with the event or none of it does: a password reset, a
 * password change, an e-mail change and a withdrawal (and the end of an open member's login once it
 * is linked to a card member).
 *
 * - every token family and grant: access and refresh tokens (SPEC.md section 4, "Token revocation"),
 *   and each client with a back-channel logout URI is told, once it commits (OpenID Connect
 *   Back-Channel Logout 1.0; modules/oidc/backchannel-logout.ts);
 * - every SSO session of the member's browsers (modules/sso/end-sso-sessions.ts, decision 0026): no
 *   browser completes an authorization request without the password afterwards;
 * - authorization codes not yet exchanged;
 * - pending e-mail changes and their codes;
 * - login tickets, a passkey sign-in's (`passkey_ticket`, ten minutes) as a password's, and unused
 *   password-reset links (a reset uses its own link up before this runs);
 * - direct-login one-time tokens in flight;
 * - every waiting member flow of any kind (point transfer, numberless card, upgrade, and any kind
 *   added to member_flows later) with its code;
 * - card sign-ups whose member exists already and whose register_token could still get a code.
 *
 * Each table's rows are ended by the repo of the module that owns it; a new kind of pending secret
 * of a member belongs here. The member's row is taken first (member-hold-repo.ts), so that a step
 * starting a session for the member at the same moment either finishes before and is ended here,
 * or waits and finds the event done.
 */
export async function endMemberSessions(db: Kysely<Database>, userId: string, now: number): Promise<EndedSecrets> {
  await lockMember(db, userId);
  // Read before the revocation: the sessions still live are the ones the clients are told of.
  await queueBackchannelLogout(db, { userId, sessionIds: 'all', at: now });
  const sessions = await revokeUserFamilies(db, userId, now);
  const ssoSessions = await endSsoSessions(db, { userId, at: now });
  const codes = await useUpMemberCodes(db, userId, now);
  const emailChanges = await replacePendingChanges(db, userId, now);
  const directLogins = await endDirectLogins(db, userId, now);
  const flows = await endWaitingFlows(db, userId, now);
  const signups = await endMemberSignups(db, userId, now);
  await endSecrets(db, [...emailChanges, ...directLogins, ...flows, ...signups], now);
  const tickets = await endPurposeSecrets(db, userId, 'login_ticket', now);
  const passkeyTickets = await endPurposeSecrets(db, userId, 'passkey_ticket', now);
  const resets = await endPurposeSecrets(db, userId, 'password_reset', now);
  return {
    sessions,
    ssoSessions,
    codes,
    emailChanges: emailChanges.length,
    directLogins: directLogins.length,
    flows: flows.length,
    signups: signups.length,
    links: tickets + passkeyTickets + resets,
  };
}
