import { authorizeQuerySchema } from '@sso/contracts/auth';
import { LIMITS } from '@sso/contracts/constants';
import { hitRateLimit } from '../../db/rate-limit-repo.ts';
import type { BodyOf } from '../../http/route.ts';
import { addressDigest } from '../../lib/address-bucket.ts';
import { OAuthError } from '../../lib/app-error.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { checkAuthorizeQuery, type AuthorizeDeps } from './authorize-service.ts';
import { storePushedRequest } from './pushed-request.ts';

const AUTHORIZE_PARAMETERS = new Set(Object.keys(authorizeQuerySchema.shape));

/**
 * POST /api/auth/par (RFC 9126 section 2; decision 0036): the authenticated client's authorization
 * request, checked as the authorize endpoint checks one (its redirect URI registered and matched
 * exactly, then checkAuthorizeQuery), is stored and answered with its request_uri. A request_uri in
 * it is refused (section 2.1); every failure is an RFC 6749 section 5.2 body (section 2.3).
 * `proofKey`: the key of the push's DPoP proof (RFC 9449 section 10.1), which binds the code as a
 * `dpop_jkt` does, and must be the key a `dpop_jkt` sent with it names.
 */
export async function pushAuthorizationRequest(
  deps: Pick<AuthorizeDeps, 'db' | 'clock' | 'clients'>,
  client: OAuthClient,
  form: BodyOf<'POST /api/auth/par'>,
  proofKey?: string,
): Promise<{ request_uri: string; expires_in: number }> {
  const { request_uri: requestUri, ...asked } = form;
  if (requestUri !== undefined) throw new OAuthError('invalid_request', 'request_uri is not allowed in a pushed authorization request');
  // Only the authorization request's own parameters are kept: never the client's credentials (a secret, an assertion).
  const params: Record<string, string> = { client_id: client.client_id };
  for (const [key, value] of Object.entries(asked)) if (typeof value === 'string' && key !== 'client_id' && AUTHORIZE_PARAMETERS.has(key)) params[key] = value;
  if (proofKey !== undefined) {
    if (params.dpop_jkt !== undefined && params.dpop_jkt !== proofKey) throw new OAuthError('invalid_dpop_proof', 'dpop_jkt does not name the key of the DPoP proof');
    params.dpop_jkt = proofKey;
  }
  if (!deps.clients.isRegisteredRedirect(client, params.redirect_uri ?? '')) throw new OAuthError('invalid_request', 'redirect_uri is not registered for this client');
  const checked = checkAuthorizeQuery(client, params);
  if (!checked.ok) throw new OAuthError(checked.error, checked.description);
  return { request_uri: await storePushedRequest(deps, client.client_id, params), expires_in: LIMITS.pushedRequestTtlMs / 1000 };
}

/**
 * Counts a public client's push on its network address (an IPv6 address by its /64,
 * lib/address-bucket.ts) in a fixed window, in the one atomic upsert of the rate counters
 * (db/rate-limit-repo.ts, shared by every node); past LIMITS.pushedRequestsPerAddress in
 * LIMITS.pushedRequestWindowMs, 429 `temporarily_unavailable` with Retry-After, as decision 0038's
 * limit answers, before any proof is verified or row written (decision 0036). A public client has
 * nothing to authenticate, so without this anyone could fill pushed_authorization_requests. An
 * authenticated client's pushes are not counted: a partner's server pushes for all its members from
 * few addresses, and what it writes is bounded by its own behaviour under its credentials.
 */
export async function countPublicPush(deps: Pick<AuthorizeDeps, 'db' | 'clock'>, client: OAuthClient, address: string): Promise<void> {
  if (client.type !== 'public') return;
  const window = LIMITS.pushedRequestWindowMs;
  const pushes = await hitRateLimit(deps.db, `par-address:${addressDigest(address)}`, deps.clock.now(), window);
  if (pushes > LIMITS.pushedRequestsPerAddress) {
    throw new OAuthError('temporarily_unavailable', 'too many pushed authorization requests from this address; retry later', 429, window / 1000);
  }
}
