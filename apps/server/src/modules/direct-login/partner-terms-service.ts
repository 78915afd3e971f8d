import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { directLoginTermsAcceptRequestSchema } from '@sso/contracts/direct-login';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { DIRECT_LOGIN_MESSAGES } from '@sso/contracts/screen-messages';
import { RESULT } from '@sso/contracts/result-codes';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import { AppError, retryable, validationError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { requireCardholder } from '../oauth/cardholders-only.ts';
import { outstandingTerms } from '../account/credentials-service.ts';
import { recordTermAcceptance } from '../account/user-repo.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';

export interface PartnerTermsDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
}

/**
 * A member is handed to a service by a one-time token only once they accept its terms, as at
 * authorize (decision 0013): otherwise 902 termsRequired naming the outstanding term keys, which
 * the SPA shows and has accepted (/api/subuser/direct_login/terms_accept) before it tries again.
 */
export async function requireAcceptedTerms(db: Kysely<Database>, userId: string, client: OAuthClient): Promise<void> {
  const terms = await outstandingTerms(db, userId, client);
  if (terms.length > 0) throw new AppError(RESULT.RETRYABLE, DIRECT_LOGIN_MESSAGES.termsRequired, 400, undefined, { details: { terms } });
}

/**
 * POST /api/subuser/direct_login/terms_accept (Bearer): records the member's acceptance of the
 * current version of each listed term of a registered client, logs it, and answers the terms of
 * that client still outstanding. A key that is not one of the client's terms is refused (901).
 */
export async function acceptPartnerTerms(
  deps: PartnerTermsDeps,
  userId: string,
  input: z.infer<typeof directLoginTermsAcceptRequestSchema>,
): Promise<{ result_code: number; result_message: string; terms: string[] }> {
  const client = deps.clients.get(input.client_id);
  if (!client) throw retryable(DIRECT_LOGIN_MESSAGES.serviceUnavailable);
  // No terms of a service the member may not use are recorded (SPEC.md section 6): 300.
  await requireCardholder(deps.db, userId, client.client_id);
  const keys = [...new Set(input.terms)];
  if (keys.some((k) => !isTermKey(k) || !client.terms.includes(k))) throw validationError([{ key: 'terms', message: SERVER_MESSAGES.validation }]);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    for (const key of keys) if (isTermKey(key)) await recordTermAcceptance(trx, userId, key, TERM_VERSIONS[key], now);
    await logActivity(trx, { userId, event: 'terms_accepted', clientId: client.client_id, at: now });
  });
  return { ...OK_RESPONSE, terms: await outstandingTerms(deps.db, userId, client) };
}
