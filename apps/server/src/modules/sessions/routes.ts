import type { FastifyInstance } from 'fastify';
import { memberPost } from '../oauth/member-post.ts';
import type { TokenDeps } from '../oauth/token-service.ts';
import { logOutEverywhere } from './log-out-everywhere.ts';

/**
 * The member's ending of every session at once (/user/sessions, すべての端末からログアウト): Bearer,
 * `account:write` like the list beside it (modules/sso/routes.ts), never a partner's (decision 0010).
 */
export function registerSessionsRoutes(app: FastifyInstance, deps: TokenDeps): void {
  memberPost(app, deps, 'POST /api/user/sessions/end_all', (call) => logOutEverywhere(deps, call));
}
