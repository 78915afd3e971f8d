import type { Subuser } from '@sso/contracts/cards';
import { POINT_MESSAGES } from '@sso/contracts/messages';
import type { PointInfoResponse } from '@sso/contracts/points';

/** The cards points may go to (decision 0006): registered, active and point-capable. */
export const transferCards = (cards: readonly Subuser[]) => cards.filter((c) => c.status === 'active' && c.point_capable);

/**
 * Why the member cannot transfer now, in the server's order (SPEC.md section 2, "Point merge
 * summary and transfer screens"): no open account, no eligible card, nothing to move. Undefined when
 * the transfer may start. Exactly one message, or none.
 */
export function transferRefusal(info: PointInfoResponse, cards: readonly Subuser[]): string | undefined {
  if (!info.is_open_point) return POINT_MESSAGES.openInfoUnavailable;
  if (transferCards(cards).length === 0) return POINT_MESSAGES.noEligibleCard;
  if (info.aqf_point_open <= 0) return POINT_MESSAGES.zeroBalance;
  return undefined;
}
