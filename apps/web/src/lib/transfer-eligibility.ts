import type { Subuser } from '@sso/contracts/cards';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import type { PointInfoResponse } from '@sso/contracts/points';

/** The cards points may go to (decision 0006): registered, active and point-capable. */
export const transferCards = (cards: readonly Subuser[]) => cards.filter((c) => c.status === 'active' && c.point_capable);

/** Why a transfer cannot succeed now: no open account (its information not fetched), no eligible card, nothing to move. */
export type TransferBlock = 'noOpenInfo' | 'noEligibleCard' | 'zeroBalance';

/**
 * The one ordered check of whether the transfer can succeed, in SPEC.md section 2's order of its
 * messages ("Point merge summary and transfer screens": the open member's information could not be
 * fetched; no eligible card; balance 0), which is also the server's (points/transfer-service.ts).
 * Undefined when the transfer may start. The summary's refusal and Top's offer both read it.
 */
export function transferBlock(info: PointInfoResponse, cards: readonly Subuser[]): TransferBlock | undefined {
  if (!info.is_open_point) return 'noOpenInfo';
  if (transferCards(cards).length === 0) return 'noEligibleCard';
  if (info.aqf_point_open <= 0) return 'zeroBalance';
  return undefined;
}

const REFUSALS: Record<TransferBlock, string> = {
  noOpenInfo: POINT_MESSAGES.openInfoUnavailable,
  noEligibleCard: POINT_MESSAGES.noEligibleCard,
  zeroBalance: POINT_MESSAGES.zeroBalance,
};

/** Why the member cannot transfer now (transferBlock's first reason, as its message), or undefined. Exactly one message, or none. */
export function transferRefusal(info: PointInfoResponse, cards: readonly Subuser[]): string | undefined {
  const block = transferBlock(info, cards);
  return block && REFUSALS[block];
}

/** Where a member adds a card (docs/decisions/0016): an open member through the holder check, a card member on the all-cards list. */
export const addCardPath = (isOpenMember: boolean) => (isOpenMember ? '/open/card' : '/subusers/all');

/** What the member can do about a missing eligible card: add one. */
export const ADD_CARD_TO_MOVE = 'ポイントが貯まるカードを登録すると、オープン会員のポイントをカードへ移行できます。';

/**
 * What Top and the card-added page offer for the open points (SPEC.md sections 2 and 6; decision
 * 0016): the transfer only where it can succeed (transferBlock: an open account, an active
 * point-capable card and a positive open balance); else what the member can do about the first
 * reason, in the same order as the summary's refusal: add a card, or nothing, the balance being 0.
 * Nothing at all without an open account (a card member links one instead).
 */
export type TransferOffer =
  | { kind: 'transfer' }
  | { kind: 'add-card'; message: string }
  | { kind: 'nothing-to-move'; message: string }
  | { kind: 'none' };

export function transferOffer(info: PointInfoResponse, cards: readonly Subuser[]): TransferOffer {
  switch (transferBlock(info, cards)) {
    case 'noOpenInfo':
      return { kind: 'none' };
    case 'noEligibleCard':
      return { kind: 'add-card', message: ADD_CARD_TO_MOVE };
    case 'zeroBalance':
      return { kind: 'nothing-to-move', message: POINT_MESSAGES.zeroBalance };
    case undefined:
      return { kind: 'transfer' };
  }
}
