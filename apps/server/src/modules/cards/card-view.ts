import { OK_RESPONSE } from '@sso/contracts/common';
import type { CardResultResponse, Subuser, WaitingCard } from '@sso/contracts/cards';
import { SUBUSER_STATUSES, type SubuserStatus } from '@sso/contracts/constants';
import type { CardRecord } from '../../ports/card-master.ts';
import type { CardRow } from './card-repo.ts';

/** A sub-user row, but its owner and time. */
type StoredCard = Omit<CardRow, 'user_id' | 'created_at'>;

/** A stored status the contract does not know (a row written by hand) reads as inactive: usable for nothing. */
export const statusOf = (s: string): SubuserStatus => ((SUBUSER_STATUSES as readonly string[]).includes(s) ? (s as SubuserStatus) : 'inactive');

/** A registered card as SPEC.md section 3 "Sub-user (card)" lists it; every registered card is a card (na) sub-user. */
export const subuserOf = (row: StoredCard): Subuser => ({
  subuser_id: row.id,
  esid: row.esid,
  status: statusOf(row.status),
  member_div_code: row.member_div_code,
  card_name: row.card_name,
  card_image_url: row.card_image_url,
  card_brand: row.card_brand,
  card_number_mask: row.card_number_mask,
  member_type: 'na',
  point_capable: row.point_capable === 1,
  na_linked: row.na_id !== null,
});

/** A card waiting to be added: `card_token` is its esid, good only for a member who holds its holder's card. */
export const waitingCardOf = (card: CardRecord): WaitingCard => ({
  card_token: card.esid,
  status: card.status,
  card_name: card.cardName,
  card_image_url: card.cardImageUrl,
  card_brand: card.brand,
  card_number_mask: card.numberMask,
});

/** The answer of a card add or activation (SPEC.md section 3: esid or subuser_id, member_div_code, card_name, card_image_url). */
export function cardResultOf(row: StoredCard): CardResultResponse {
  const { subuser_id, esid, status, member_div_code, card_name, card_image_url } = subuserOf(row);
  return { ...OK_RESPONSE, subuser_id, esid, status, member_div_code, card_name, card_image_url };
}

/** What the card master says of a card now, as the columns of its sub-user row (update_relevant_tokens). */
export const masterColumnsOf = (card: CardRecord) => ({
  status: card.status,
  member_div_code: card.memberDivCode,
  card_name: card.cardName,
  card_image_url: card.cardImageUrl,
  card_brand: card.brand,
  card_number_mask: card.numberMask,
  holder_id: card.holderId,
  point_capable: card.pointCapable ? 1 : 0,
});
