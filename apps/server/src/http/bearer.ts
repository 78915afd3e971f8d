import type { FastifyRequest } from 'fastify';
import { unauthorizedError } from './app-error.ts';
import { authenticateAccessToken, type TokenDeps } from '../modules/oauth/token-service.ts';

/** The member behind the request's Bearer access token (RFC 6750); anything else answers 401. */
export async function requireMember(deps: TokenDeps, request: FastifyRequest) {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header);
  const member = match?.[1] ? await authenticateAccessToken(deps, match[1]) : undefined;
  if (!member) throw unauthorizedError();
  return member;
}
