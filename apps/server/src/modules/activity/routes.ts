import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { memberPost } from '../oauth/member-post.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { activityPage } from './activity-service.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface ActivityDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
}

/** POST /api/user/activities {page} (Bearer; SPEC.md sections 1 and 7): the member's own activity log. */
export function registerActivityRoutes(app: FastifyInstance, deps: ActivityDeps): void {
  memberPost(app, deps, 'POST /api/user/activities', async ({ user, input }) => ({
    ...OK_RESPONSE,
    ...(await activityPage(deps, user.id, input.page)),
  }));
}
