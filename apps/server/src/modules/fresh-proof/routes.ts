import type { FastifyInstance } from 'fastify';
import { reauthRequestSchema } from '@sso/contracts/account';
import { SCOPES } from '@sso/contracts/scopes';
import { memberPost } from '../account/member-post.ts';
import type { TokenDeps } from '../oauth/token-service.ts';
import { reauthenticate } from './reauth-service.ts';

/** The step-up of a session before a sensitive change (decision 0012; RFC 9470): only for the clients that may make one (decision 0010). */
export function registerFreshProofRoutes(app: FastifyInstance, deps: TokenDeps): void {
  memberPost(app, deps, '/api/auth/reauth', SCOPES.accountWrite, reauthRequestSchema, (call) => reauthenticate(deps, call));
}
