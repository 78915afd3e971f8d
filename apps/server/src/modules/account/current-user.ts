import type { FastifyRequest } from 'fastify';
import { requireMember } from '../../http/bearer.ts';
import { unauthorizedError } from '../../http/app-error.ts';
import type { TokenDeps } from '../oauth/token-service.ts';
import { findActiveUserById, type UserRow } from './user-repo.ts';

/**
 * The active member behind the request's Bearer token (SPEC.md section 7): a missing, expired or
 * revoked token, or a member no longer active, answers 401 with result 300.
 */
export async function currentUser(deps: TokenDeps, request: FastifyRequest): Promise<UserRow> {
  const member = await requireMember(deps, request);
  const user = await findActiveUserById(deps.db, member.userId);
  if (!user) throw unauthorizedError();
  return user;
}
