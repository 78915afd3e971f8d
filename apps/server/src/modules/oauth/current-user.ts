import type { FastifyRequest } from 'fastify';
import { requireMember } from './bearer.ts';
import { unauthorizedError } from '../../lib/app-error.ts';
import type { BearerToken, TokenDeps } from './token-service.ts';
import { findActiveUserById, type UserRow } from '../account/user-repo.ts';

/**
 * The active member behind the request's Bearer token (SPEC.md section 7), and the token itself:
 * the client it was issued to, its session (token family) and its scope. A missing, expired or
 * revoked token, or a member no longer active, answers 401 with result 300; a token without the
 * scope the route declares (its config's `scope`, oauth/bearer.ts) 403.
 */
export async function currentMember(deps: TokenDeps, request: FastifyRequest): Promise<{ user: UserRow; clientId: string; token: BearerToken }> {
  const token = await requireMember(deps, request);
  const user = await findActiveUserById(deps.db, token.userId);
  if (!user) throw unauthorizedError();
  return { user, clientId: token.clientId, token };
}

/** The active member behind the request's Bearer token, as currentMember. */
export const currentUser = async (deps: TokenDeps, request: FastifyRequest): Promise<UserRow> => (await currentMember(deps, request)).user;
