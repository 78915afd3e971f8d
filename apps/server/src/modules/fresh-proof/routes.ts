import type { FastifyInstance } from 'fastify';
import { memberPost } from '../oauth/member-post.ts';
import type { TokenDeps } from '../oauth/token-service.ts';
import { reauthenticate } from './reauth-service.ts';

/** The step-up of a session before a sensitive change (decision 0012; RFC 9470): only for the clients that may make one (decision 0010). */
export function registerFreshProofRoutes(app: FastifyInstance, deps: TokenDeps): void {
  memberPost(app, deps, 'POST /api/auth/reauth', (call) => reauthenticate(deps, call));
}
