import type { Kysely } from 'kysely';
import { isPortalClient } from '@sso/contracts/client-origin';
import type { Database } from '../../db/schema.ts';
import { newestActiveEsid } from '../cards/card-repo.ts';

/**
 * The extra parameters of an authorization response to a portal app (SPEC.md section 4: the return
 * to a portal app carries client_id, state and esid, "the form posted to the card portal carries
 * the same"; RFC 6749 section 4.1.2 lets a response carry more than code and state). The card is
 * the one a sign-up just registered, else the member's most recently registered active card, else
 * empty (decision 0020). No other client gets them: a partner never learns a card's esid.
 */
export async function portalReturnParams(
  db: Kysely<Database>,
  p: { clientId: string; userId: string; registeredEsid?: string },
): Promise<Record<string, string>> {
  if (!isPortalClient(p.clientId)) return {};
  const esid = p.registeredEsid ?? (await newestActiveEsid(db, p.userId)) ?? '';
  return { client_id: p.clientId, esid };
}
