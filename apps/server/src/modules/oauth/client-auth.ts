import { decodeJwt } from 'jose';
import { LIMITS } from '@sso/contracts/constants';
import { preparedQuery } from '../../db/prepared-query.ts';
import { counterValues, countersOfTwo, countsOf, hitRateLimit } from '../../db/rate-limit-repo.ts';
import { addressDigest } from '../../lib/address-bucket.ts';
import { OAuthError } from '../../lib/app-error.ts';
import { enabledFlagAsCounter } from '../clients/client-repo.ts';
import { authMethodOf, type ClientRegistry, type OAuthClient } from '../clients/clients.ts';
import { JWT_BEARER_ASSERTION, verifyClientAssertion, type AssertionDeps } from './client-assertion.ts';

const invalidClient = () => new OAuthError('invalid_client', 'client authentication failed', 401);

export interface ClientAuthDeps extends AssertionDeps {
  clients: ClientRegistry;
}

/** The form's client authentication fields (oauth-endpoints.ts clientFields). */
export interface ClientCredentialsForm {
  client_id?: string | undefined;
  client_secret?: string | undefined;
  client_assertion_type?: string | undefined;
  client_assertion?: string | undefined;
}

/** What the request presents: who it says it is, and its secret (Basic or the form's) or its assertion. */
interface Presented {
  id: string | undefined;
  secret: string | undefined;
  basic: boolean;
  assertion: string | undefined;
}

/** Reads the client's credentials from the Basic header and the form; malformed ones are refused. */
function presented(authorization: string | undefined, body: ClientCredentialsForm): Presented {
  const p: Presented = { id: body.client_id, secret: body.client_secret, basic: false, assertion: undefined };
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    if (sep < 0) throw invalidClient();
    try {
      p.id = decodeURIComponent(decoded.slice(0, sep).replace(/\+/g, ' '));
      p.secret = decodeURIComponent(decoded.slice(sep + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient();
    }
    if (body.client_id !== undefined && body.client_id !== p.id) throw invalidClient();
    p.basic = true;
  }
  if (body.client_assertion_type !== undefined || body.client_assertion !== undefined) {
    // One method a request (RFC 6749 section 2.3): an assertion with a secret is refused.
    if (body.client_assertion_type !== JWT_BEARER_ASSERTION || !body.client_assertion || p.basic || p.secret !== undefined) throw invalidClient();
    p.assertion = body.client_assertion;
    // client_id is optional beside an assertion (RFC 7523 section 3.1): its sub names the client, and
    // the verification checks that iss and sub are the client_id.
    if (p.id === undefined) {
      try {
        const sub = decodeJwt(p.assertion).sub;
        p.id = typeof sub === 'string' ? sub : undefined;
      } catch {
        throw invalidClient();
      }
    }
  }
  return p;
}

/** Whether the credentials are the client's, by its one method (RFC 7591 section 2; decision 0038). */
async function verified(deps: ClientAuthDeps, client: OAuthClient, p: Presented): Promise<boolean> {
  const method = authMethodOf(client);
  if (method === 'private_key_jwt') return p.assertion !== undefined && verifyClientAssertion(deps, client, p.assertion);
  if (p.assertion !== undefined) return false;
  if ((method === 'client_secret_basic' && !p.basic) || (method === 'client_secret_post' && p.basic)) return false;
  return deps.clients.authenticate(client, p.secret);
}

/**
 * The failure counters and the client's enabled flag in one statement (UNION ALL of the two owners'
 * parts, db/rate-limit-repo.ts and modules/clients/client-repo.ts): the counters are read before any
 * verification (decision 0038), and the flag that client-route.ts reads after it (decision 0031)
 * comes with them instead of in a statement of its own. The flag's row is keyed by the client id,
 * which no counter's key can be (`client-auth-...`).
 */
const countersAndEnabled = preparedQuery((db, p: { first: string; second: string; lapsed: number; clientId: string }) =>
  countersOfTwo(db, p).unionAll(enabledFlagAsCounter(db, p)),
);

/** The counters a failed authentication is counted on: the network address's, and the client's when it names one. */
function failureKeys(address: string, client: OAuthClient | undefined): [string] | [string, string] {
  const byAddress = `client-auth-address:${addressDigest(address)}`;
  return client ? [byAddress, `client-auth-client:${client.client_id}`] : [byAddress];
}

/**
 * An authenticated client, and whether it is enabled in the database (decision 0031) when that was
 * read with its failure counters: undefined for a public client, which has no counters read.
 */
export interface AuthenticatedClient {
  client: OAuthClient;
  enabled: boolean | undefined;
}

/**
 * Client authentication at the token, revocation and introspection endpoints: HTTP Basic or
 * client_id/client_secret in the form (RFC 6749 section 2.3.1), or a signed JWT assertion (RFC 7523
 * section 2.2, private_key_jwt; client-assertion.ts), by the client's one method. Public clients
 * name themselves only, at no cost beyond today's and without a counter (they have nothing to guess).
 * Every other attempt is first checked against its counters of failures (decision 0038): past
 * LIMITS.clientAuthFailuresPerClient for the client or LIMITS.clientAuthFailuresPerAddress for the
 * address, in LIMITS.clientAuthFailureWindowMs, it is answered 429 with Retry-After before any
 * secret is hashed or signature verified. A failure is counted on both; a success counts nothing.
 */
export async function authenticateClient(
  deps: ClientAuthDeps,
  request: { authorization: string | undefined; address: string },
  body: ClientCredentialsForm,
  opts: { requireConfidential?: boolean } = {},
): Promise<AuthenticatedClient> {
  const p = presented(request.authorization, body);
  const client = p.id ? deps.clients.get(p.id) : undefined;
  if (client?.type === 'public' && p.assertion === undefined) {
    if (opts.requireConfidential) throw invalidClient();
    return { client, enabled: undefined };
  }
  const keys = failureKeys(request.address, client);
  const now = deps.clock.now();
  const window = LIMITS.clientAuthFailureWindowMs;
  const limits = [LIMITS.clientAuthFailuresPerAddress, LIMITS.clientAuthFailuresPerClient];
  // An unknown client's id is no row to read: '' matches no client.
  const rows = (await countersAndEnabled(deps.db, { ...counterValues(keys, now, window), clientId: client?.client_id ?? '' })).rows;
  const counts = countsOf(keys, rows);
  if (counts.some((n, i) => n >= (limits[i] as number))) {
    throw new OAuthError('temporarily_unavailable', 'too many failed client authentications; retry later', 429, window / 1000);
  }
  if (client && !(opts.requireConfidential && client.type !== 'confidential') && (await verified(deps, client, p))) {
    return { client, enabled: Number(rows.find((r) => r.key === client.client_id)?.count ?? 0) === 1 };
  }
  for (const k of keys) await hitRateLimit(deps.db, k, now, window);
  throw invalidClient();
}
