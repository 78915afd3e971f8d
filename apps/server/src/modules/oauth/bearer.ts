import type { FastifyRequest } from 'fastify';
import type { Scope } from '@sso/contracts/scopes';
import { insufficientScopeError, unauthorizedError } from '../../lib/app-error.ts';
import { API_AUDIENCE } from './audience.ts';
import { currentNonce, DpopError, DPOP_ALGS, requestProof } from './dpop.ts';
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

/** The token of an Authorization header and its scheme (RFC 6750 section 2.1, RFC 9449 section 7.1; b64token either way). */
const PRESENTED = /^(Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/;

/** A refusal under the DPoP scheme (RFC 9449 section 7.1), naming the algorithms a proof may use; with the nonce to use when that is what failed. */
function dpopRefusal(error: string, description: string, nonce?: string) {
  return unauthorizedError(`DPoP error="${error}", error_description="${description}", algs="${DPOP_ALGS.join(' ')}"`, nonce ? { 'DPoP-Nonce': nonce } : undefined);
}

/**
 * RFC 9449 section 7.1: a DPoP-bound token is taken under the DPoP scheme only, with a proof of its key
 * over this request and the token (`ath`); a token that is not bound is taken under Bearer only. A
 * token stolen without its key, or presented as Bearer, is refused as invalid.
 */
async function checkSenderConstraint(deps: TokenDeps, request: FastifyRequest, scheme: string, accessToken: string, token: BearerToken): Promise<void> {
  if (scheme === 'Bearer') {
    if (token.jkt !== null) throw dpopRefusal('invalid_token', 'the access token is DPoP-bound: present it with the DPoP scheme and a proof');
    return;
  }
  if (token.jkt === null) throw dpopRefusal('invalid_token', 'the access token is not DPoP-bound');
  let jkt: string | undefined;
  try {
    jkt = await requestProof(deps, request, accessToken);
  } catch (failure) {
    if (!(failure instanceof DpopError)) throw failure;
    throw dpopRefusal(failure.error, failure.description, failure.error === 'use_dpop_nonce' ? currentNonce(deps.dpop, deps.clock.now()) : undefined);
  }
  if (jkt === undefined) throw dpopRefusal('invalid_dpop_proof', 'a DPoP proof is required');
  if (jkt !== token.jkt) throw dpopRefusal('invalid_token', 'the DPoP proof is of another key than the access token is bound to');
}

/**
 * The live access token of the request (RFC 6750; RFC 9449 for a DPoP-bound one), for this API (its
 * audience) and holding every scope the route declares. No or a bad token answers 401, a DPoP-bound
 * one without a proof of its key too (checkSenderConstraint); a token without one 403 with
 * `insufficient_scope` (RFC 6750 section 3.1). Scope, audience and key are read off the token's
 * row, fetched anyway: no extra query.
 */
export async function requireMember(deps: TokenDeps, request: FastifyRequest): Promise<BearerToken> {
  const needed = declaredScopes(request);
  const header = request.headers.authorization;
  if (!header) throw unauthorizedError(NO_TOKEN);
  const match = PRESENTED.exec(header);
  const [scheme, presented] = [match?.[1] ?? 'Bearer', match?.[2]];
  const token = presented ? await authenticateAccessToken(deps, presented) : undefined;
  if (!presented || !token || !token.audience.includes(API_AUDIENCE)) throw scheme === 'DPoP' ? dpopRefusal('invalid_token', 'the access token is invalid') : unauthorizedError(BAD_TOKEN);
  await checkSenderConstraint(deps, request, scheme, presented, token);
  // RFC 6750 section 3: the challenge's scope lists every scope the request needs.
  if (!needed.every((scope) => token.scopes.includes(scope))) throw insufficientScopeError(needed.join(' '));
  return token;
}
