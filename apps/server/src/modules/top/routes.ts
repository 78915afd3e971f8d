import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { TopSummaryResponse } from '@sso/contracts/top';
import type { Clock } from '../../lib/clock.ts';
import { memberPost } from '../oauth/member-post.ts';
import { topSummary, type TopDeps } from './top-service.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface TopRouteDeps extends TopDeps {
  clock: Clock;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
}

/** POST /api/user/top (Bearer; SPEC.md section 2, Top): Top's one request, the member's record and attributes, name, cards, points and previous login. */
export function registerTopRoutes(app: FastifyInstance, deps: TopRouteDeps): void {
  memberPost(app, deps, 'POST /api/user/top', async ({ user }): Promise<TopSummaryResponse> => {
    const { summary, ledger } = await topSummary(deps, user);
    if (!ledger.ok) {
      app.log.warn({ reason: ledger.reason, ...(ledger.reason === 'failed' ? { err: ledger.error } : {}) }, 'point ledger unavailable for Top: answered without the points');
    }
    return { ...OK_RESPONSE, ...summary };
  });
}
