import type { FastifyRequest } from 'fastify';
import type { Scope } from '@sso/contracts/scopes';
import { insufficientScopeError, unauthorizedError } from '../../lib/app-error.ts';
import { API_AUDIENCE } from './audience.ts';
import { authenticateAccessToken, type BearerToken, type TokenDeps } from './token-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a Bearer endpoint needs (docs/decisions/0010-scopes-and-audience.md), declared in the
     * route's line of the API catalogue (`bearer`) and set here when http/route.ts registers the route.
     */
    scope?: Scope | readonly Scope[];
  }
}

// RFC 6750 section 3: a request without a token gets the bare challenge, a bad token `invalid_token`.
const NO_TOKEN = 'Bearer';
const BAD_TOKEN = 'Bearer error="invalid_token"';

/** The scopes the request's route declares, all needed; a route that reads a Bearer token without one is a defect, never an open door. */
function declaredScopes(request: FastifyRequest): readonly Scope[] {
  const scope = request.routeOptions.config?.scope;
  const scopes = scope === undefined ? [] : typeof scope === 'string' ? [scope] : scope;
  if (scopes.length === 0) throw new Error(`${request.routeOptions.url ?? 'route'} reads a Bearer token but declares no scope`);
  return scopes;
}

/**
 * The live access token of the request (RFC 6750), for this API (its audience) and holding every scope
 * the route declares. No or a bad token answers 401; a token without one 403 with
 * `insufficient_scope` (RFC 6750 section 3.1). Scope and audience are read off the token's row,
 * fetched anyway: no extra query.
 */
export async function requireMember(deps: TokenDeps, request: FastifyRequest): Promise<BearerToken> {
  const needed = declaredScopes(request);
  const header = request.headers.authorization;
  if (!header) throw unauthorizedError(NO_TOKEN);
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header);
  const token = match?.[1] ? await authenticateAccessToken(deps, match[1]) : undefined;
  if (!token || !token.audience.includes(API_AUDIENCE)) throw unauthorizedError(BAD_TOKEN);
  // RFC 6750 section 3: the challenge's scope lists every scope the request needs.
  if (!needed.every((scope) => token.scopes.includes(scope))) throw insufficientScopeError(needed.join(' '));
  return token;
}
