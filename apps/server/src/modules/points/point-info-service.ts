import { OK_RESPONSE } from '@sso/contracts/common';
import type { PointInfoResponse } from '@sso/contracts/points';
import type { UserRow } from '../account/user-repo.ts';
import { hasPointCard } from '../cards/card-repo.ts';
import type { PointDeps } from './transfer-service.ts';

/**
 * POST /api/user/aqf (SPEC.md section 3, "Point info"; decision 0006): whether the member has an
 * open account (an open member, or a card member who linked one) and a point-capable card, and the
 * two balances as the point ledger holds them (0 where there is no such account).
 */
export async function pointInfo(deps: Pick<PointDeps, 'db' | 'pointLedger'>, user: UserRow): Promise<PointInfoResponse> {
  const [balances, pointCard] = await Promise.all([deps.pointLedger.balances(user.id), hasPointCard(deps.db, user.id)]);
  return {
    ...OK_RESPONSE,
    is_na_point: pointCard,
    is_open_point: balances.open !== null,
    aqf_point_na: balances.card ?? 0,
    aqf_point_open: balances.open ?? 0,
  };
}
