import type { Kysely } from 'kysely';
import { isCardholdersOnly } from '@sso/contracts/client-origin';
import { SERVICE_MESSAGES } from '@sso/contracts/messages';
import type { Database } from '../../db/schema.ts';
import { deniedWith } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { revokeUserClientFamilies } from './token-repo.ts';
import { queueBackchannelLogout } from '../oidc/backchannel-logout.ts';
import { hasCards } from '../cards/card-repo.ts';

/**
 * The one rule of SPEC.md section 6, "Only cardholders of the card company can use the
 * chat-account service": a member who holds no card is refused a cardholders-only client
 * (isCardholdersOnly in the contracts' client-origin.ts) at every door that could let them in: the login step and both
 * authorize endpoints (every code), the partner terms, the direct-login issue, its hand-off URL and
 * its redemption. Holding a card is what counts, not how the member signed up: an open member who
 * adds a card may use the service (SPEC.md section 4: it ends when all card memberships lapse).
 * Decision 0015.
 */
export async function refusesMember(db: Kysely<Database>, userId: string, clientId: string): Promise<boolean> {
  return isCardholdersOnly(clientId) && !(await hasCards(db, userId));
}

/** 300 access denied (SPEC.md section 8) with the message the member reads and the way on. */
export const cardholdersOnlyError = () => deniedWith(SERVICE_MESSAGES.cardholdersOnly);

/** Throws cardholdersOnlyError when the rule refuses the member the client. */
export async function requireCardholder(db: Kysely<Database>, userId: string, clientId: string): Promise<void> {
  if (await refusesMember(db, userId, clientId)) throw cardholdersOnlyError();
}

/**
 * Ends the member's sessions of the cardholders-only clients among clientIds, each logged to the
 * member's activity log: SPEC.md section 4, the chat-account service "ends automatically when all card
 * memberships lapse". The card removal calls it, in its transaction, when the last card has gone; a
 * refresh, when it finds the member without a card (cards gone another way, such as a withdrawal of
 * the card membership at the card master). Decision 0015. The service is told by back-channel logout
 * when it takes one (modules/oidc/backchannel-logout.ts).
 */
export async function endCardholdersOnlySessions(
  db: Kysely<Database>,
  /** `address` null: the request's address is not the member's (oauth/caller-seen.ts). */
  p: { userId: string; clientIds: readonly string[]; device?: string | null; address?: null; at: number },
): Promise<void> {
  const clientIds = p.clientIds.filter(isCardholdersOnly);
  await queueBackchannelLogout(db, { userId: p.userId, sessionIds: 'all', clientIds, at: p.at });
  const ended = await revokeUserClientFamilies(db, p.userId, clientIds, p.at);
  for (const clientId of new Set(ended)) {
    await logActivity(db, { userId: p.userId, event: 'session_revoked', clientId, device: p.device ?? null, ...(p.address === null ? { address: null } : {}), at: p.at });
  }
}
