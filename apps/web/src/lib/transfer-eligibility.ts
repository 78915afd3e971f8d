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

/** Where a member adds a card (docs/decisions/0016): an open member through the holder check, a card member on the all-cards list. */
export const addCardPath = (isOpenMember: boolean) => (isOpenMember ? '/open/card' : '/subusers/all');

/** What the member can do about a missing eligible card: add one. */
export const ADD_CARD_TO_MOVE = 'ポイントが貯まるカードを登録すると、オープン会員のポイントをカードへ移行できます。';

/**
 * What Top and the card-added page offer for the open points (SPEC.md sections 2 and 6; decision
 * 0016): the transfer only where it can succeed (an open account, an active point-capable card and
 * a positive open balance); else what the member can do: nothing when there is nothing to move
 * (first: a card would not help), else add a card. Nothing at all without an open account (a card
 * member links one instead).
 */
export type TransferOffer =
  | { kind: 'transfer' }
  | { kind: 'add-card'; message: string }
  | { kind: 'nothing-to-move'; message: string }
  | { kind: 'none' };

export function transferOffer(info: PointInfoResponse, cards: readonly Subuser[]): TransferOffer {
  if (!info.is_open_point) return { kind: 'none' };
  if (info.aqf_point_open <= 0) return { kind: 'nothing-to-move', message: POINT_MESSAGES.zeroBalance };
  if (transferCards(cards).length === 0) return { kind: 'add-card', message: ADD_CARD_TO_MOVE };
  return { kind: 'transfer' };
}
