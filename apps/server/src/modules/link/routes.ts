import type { FastifyInstance } from 'fastify';
import { japanDate } from '@sso/contracts/open-signup';
import { linkOpenRequestSchema } from '@sso/contracts/points';
import { memberPost } from '../oauth/member-post.ts';
import { parseOr901 } from '../../http/parse.ts';
import { linkOpenAccount, type LinkDeps } from './link-service.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

export type { LinkDeps };

/**
 * The open-account link (SPEC.md sections 3 and 7; decision 0006). The Bearer token is checked
 * before the body; the birthday rule depends on today's date in Japan.
 */
export function registerLinkRoutes(app: FastifyInstance, deps: LinkDeps & Pick<TokenDeps, 'clients' | 'dpop'>): void {
  const readLink = (body: unknown) => parseOr901(linkOpenRequestSchema(japanDate(deps.clock.now())), body);
  memberPost(app, deps, 'POST /api/link/open', ({ user, clientId, input, device, address }) =>
    linkOpenAccount(deps, user, input, { clientId, device, address }), readLink,
  );
}
