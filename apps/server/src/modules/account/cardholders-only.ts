import type { Kysely } from 'kysely';
import { isCardholdersOnly } from '@sso/contracts/client-origin';
import { SERVICE_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { hasCards } from './user-repo.ts';

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
export const cardholdersOnlyError = () => new AppError(RESULT.ACCESS_DENIED, SERVICE_MESSAGES.cardholdersOnly);

/** Throws cardholdersOnlyError when the rule refuses the member the client. */
export async function requireCardholder(db: Kysely<Database>, userId: string, clientId: string): Promise<void> {
  if (await refusesMember(db, userId, clientId)) throw cardholdersOnlyError();
}
