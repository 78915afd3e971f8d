import { jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { useJtiOnce } from '../../db/used-jti-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import type { OAuthClient } from '../clients/clients.ts';
import type { ClientKeySets } from './client-keys.ts';

/** RFC 7523 section 2.2: the client_assertion_type of a JWT client assertion. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The signature algorithms an assertion may use (FAPI 2.0 Security Profile section 5.4): never HS*, never none. */
export const ASSERTION_ALGS = ['RS256', 'PS256', 'ES256'];

/** How far ahead an assertion's exp may be: an assertion is made for one request, not kept (decision 0038). */
export const ASSERTION_MAX_LIFETIME_S = 5 * 60;
/** The clock difference allowed between the client and this server. */
const SKEW_S = 30;

export interface AssertionDeps {
  db: Kysely<Database>;
  clock: Clock;
  issuer: string;
  clientKeys: ClientKeySets;
}

/**
 * Whether `assertion` authenticates `client` (RFC 7523 section 3, OpenID Connect Core 1.0 section
 * 9): signed with one of the client's keys by an allowed algorithm; iss and sub the client_id; every
 * aud this server's issuer identifier (FAPI 2.0), its token endpoint or its PAR endpoint; exp present and at most
 * five minutes ahead; iat and nbf not in the future; and its jti not seen before, on any node
 * (db/used-jti-repo.ts), recorded last, so that an assertion refused for another reason does not
 * use it up.
 */
export async function verifyClientAssertion(deps: AssertionDeps, client: OAuthClient, assertion: string): Promise<boolean> {
  const keys = deps.clientKeys.keysOf(client);
  if (!keys) return false;
  // RFC 9126 section 2: the pushed authorization request endpoint's URL is a valid audience too.
  const audiences = new Set([deps.issuer, `${deps.issuer}/api/auth/token`, `${deps.issuer}/api/auth/par`]);
  const now = deps.clock.now() / 1000;
  let payload;
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      algorithms: ASSERTION_ALGS,
      issuer: client.client_id,
      subject: client.client_id,
      currentDate: new Date(deps.clock.now()),
      clockTolerance: SKEW_S,
      requiredClaims: ['exp', 'jti'],
    }));
  } catch {
    return false;
  }
  const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  if (aud.length === 0 || !aud.every((a) => audiences.has(a))) return false;
  if (payload.exp === undefined || payload.exp > now + ASSERTION_MAX_LIFETIME_S + SKEW_S) return false;
  if (payload.iat !== undefined && payload.iat > now + SKEW_S) return false;
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) return false;
  // Kept until the assertion is refused by its exp anyway, the skew included.
  return useJtiOnce(deps.db, 'client_assertion', client.client_id, payload.jti, (payload.exp + SKEW_S) * 1000);
}
