import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { findPushedRequest, insertPushedRequest, startPushedRequest } from './pushed-request-repo.ts';

/** RFC 9126 section 2.2: the request_uri a pushed request is answered, this URN and a random part. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

interface PushedRequestDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
}

/**
 * Stores a pushed authorization request already checked (modules/oauth/par.ts) and answers its
 * request_uri: 256 random bits, kept only as their SHA-256 (decision 0036).
 */
export async function storePushedRequest(deps: Omit<PushedRequestDeps, 'clients'>, clientId: string, params: Record<string, string>): Promise<string> {
  const secret = randomToken();
  const now = deps.clock.now();
  await insertPushedRequest(deps.db, {
    uri_hash: sha256(secret),
    client_id: clientId,
    params: JSON.stringify(params),
    created_at: now,
    started_at: null,
    expires_at: now + LIMITS.pushedRequestTtlMs,
    consumed_at: null,
  });
  return `${REQUEST_URI_PREFIX}${secret}`;
}

/**
 * An authorization request as the authorize endpoints read it: its parameters, and for a pushed one
 * the request's key (`pushed`), which the code's issue uses up (issueCodeRedirect).
 */
export interface AuthorizationRequest {
  query: Record<string, unknown>;
  pushed?: string | undefined;
}

/**
 * The authorization request an authorize endpoint (GET and POST /api/auth/authorize, the SPA's
 * check, the card sign-up's end) was given. With `request_uri`: ONLY the pushed request's parameters
 * (RFC 9126 section 4), when the request_uri is live, unused and the client_id named beside it is the
 * one that pushed it; the first read starts the authorization process's lifetime. Without one: the
 * query as it came, unless its client requires pushed requests (RFC 9126 section 5). Undefined for a
 * request refused outright, which is never redirected: nothing in it is the client's word.
 */
export async function readAuthorizationRequest(deps: PushedRequestDeps, rawQuery: Record<string, unknown>): Promise<AuthorizationRequest | undefined> {
  const uri = rawQuery.request_uri;
  const clientId = typeof rawQuery.client_id === 'string' ? rawQuery.client_id : '';
  if (uri === undefined) return deps.clients.get(clientId)?.require_pushed_authorization_requests ? undefined : { query: rawQuery };
  if (typeof uri !== 'string' || !uri.startsWith(REQUEST_URI_PREFIX) || !clientId) return undefined;
  const pushed = sha256(uri.slice(REQUEST_URI_PREFIX.length));
  const now = deps.clock.now();
  const row = await findPushedRequest(deps.db, pushed);
  if (!row || row.client_id !== clientId || row.consumed_at !== null || row.expires_at <= now) return undefined;
  if (row.started_at === null) await startPushedRequest(deps.db, pushed, now, now + LIMITS.pushedRequestProcessTtlMs);
  const params = JSON.parse(row.params) as Record<string, string>;
  return { query: { ...params, client_id: row.client_id }, pushed };
}
