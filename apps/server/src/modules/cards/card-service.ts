import type { Kysely } from 'kysely';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { CardsResponse, CardTokensResponse } from '@sso/contracts/cards';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CardMaster, CardRecord } from '../../ports/card-master.ts';
import type { NetAnswer } from '../../ports/net-answer.ts';
import type { PointLedger } from '../../ports/point-ledger.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { endCardholdersOnlySessions } from '../oauth/cardholders-only.ts';
import type { UserRow } from '../account/user-repo.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { retryable } from '../../lib/app-error.ts';
import {
  deleteActiveMemberCards,
  findMemberCard,
  findMemberCards,
  hasCards,
  listMemberCards,
  registeredEsids,
  updateMemberCard,
  type CardRow,
} from './card-repo.ts';
import { masterColumnsOf, subuserOf, waitingCardOf } from './card-view.ts';
import type { OidcDeps } from '../oidc/id-token.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface CardDeps extends OidcDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
  cardMaster: CardMaster;
  netAnswer: NetAnswer;
  pointLedger: PointLedger;
}

/** Who asks, and from which device (the activity log's detail). */
export interface CardCaller {
  user: UserRow;
  device: string | null;
}

/** 902 for another member's card and for no card alike (decision 0006, "Cards"): nothing tells them apart. */
export const cardNotFound = () => retryable(CARD_MESSAGES.cardNotFound);

/** The member's card of this id, or 902 cardNotFound. */
export async function ownCard(deps: Pick<CardDeps, 'db'>, userId: string, subuserId: string): Promise<CardRow> {
  const card = await findMemberCard(deps.db, userId, subuserId);
  if (!card) throw cardNotFound();
  return card;
}

/** POST /api/subuser/cards: the registered cards (saison_subusers). */
export async function listCards(deps: Pick<CardDeps, 'db'>, userId: string): Promise<CardsResponse> {
  return { ...OK_RESPONSE, saison_subusers: (await listMemberCards(deps.db, userId)).map(subuserOf) };
}

/**
 * The cards waiting to be added (SPEC.md section 2, "All cards: Add waiting cards"; decision 0006):
 * the card master's cards of every cardholder the member has a registered card of, that nobody has
 * registered yet.
 */
export async function waitingCards(deps: Pick<CardDeps, 'db' | 'cardMaster'>, userId: string): Promise<CardRecord[]> {
  const mine = await listMemberCards(deps.db, userId);
  const holders = [...new Set(mine.map((c) => c.holder_id).filter((h): h is string => h !== null))];
  const cards = (await Promise.all(holders.map((h) => deps.cardMaster.cardsOfHolder(h)))).flat();
  const taken = await registeredEsids(deps.db, cards.map((c) => c.esid));
  return cards.filter((c) => !taken.has(c.esid));
}

/** The waiting card a card_token names, for this member only; anything else is 902 cardNotFound. */
export async function findWaitingCard(deps: Pick<CardDeps, 'db' | 'cardMaster'>, userId: string, cardToken: string): Promise<CardRecord> {
  const card = (await waitingCards(deps, userId)).find((c) => c.esid === cardToken);
  if (!card) throw cardNotFound();
  return card;
}

/** POST /api/subuser/card/tokens. */
export async function listWaitingCards(deps: Pick<CardDeps, 'db' | 'cardMaster'>, userId: string): Promise<CardTokensResponse> {
  return { ...OK_RESPONSE, card_tokens: (await waitingCards(deps, userId)).map(waitingCardOf) };
}

/**
 * POST /api/subuser/card/enable (SPEC.md section 4: "Inactive cards can be enabled and added"): an
 * inactive waiting card is switched on at the card master; then it can be added. A card that is
 * active already (a retried request) answers success again; any other refusal is 902.
 */
export async function enableCard(deps: CardDeps, caller: CardCaller, cardToken: string): Promise<BaseResponse> {
  const card = await findWaitingCard(deps, caller.user.id, cardToken);
  if (card.status === 'active') return OK_RESPONSE;
  if (card.status !== 'inactive' || !(await deps.cardMaster.enable(card.esid))) throw retryable(CARD_MESSAGES.notEnablable);
  await logActivity(deps.db, { userId: caller.user.id, event: 'card_enabled', device: caller.device, at: deps.clock.now() });
  return OK_RESPONSE;
}

/** POST /api/subuser/card/update_relevant_tokens: each registered card as the card master has it now, then the list. */
export async function refreshCards(deps: CardDeps, userId: string): Promise<CardsResponse> {
  for (const row of await listMemberCards(deps.db, userId)) {
    const card = await deps.cardMaster.byEsid(row.esid);
    // A card the card master no longer knows keeps what was stored: removing it is the member's choice.
    if (card) await updateMemberCard(deps.db, userId, row.id, masterColumnsOf(card));
  }
  return listCards(deps, userId);
}

/**
 * POST /api/subuser/delete: only active cards can be removed (SPEC.md section 4), all or none. In
 * one transaction the member's cards are read, refused if any is unknown or not active, and deleted
 * on the same conditions; a parallel change that makes the count differ rolls everything back.
 * Removing the last card ends the member's sessions of the cardholders-only services (decision 0015).
 */
export async function removeCards(deps: CardDeps, caller: CardCaller, subuserIds: readonly string[]): Promise<BaseResponse> {
  const ids = [...new Set(subuserIds)];
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const rows = await findMemberCards(trx, caller.user.id, ids);
    if (rows.length !== ids.length) throw cardNotFound();
    if (rows.some((r) => r.status !== 'active')) throw retryable(CARD_MESSAGES.notRemovable);
    if ((await deleteActiveMemberCards(trx, caller.user.id, ids)) !== ids.length) throw cardNotFound();
    for (const _ of rows) await logActivity(trx, { userId: caller.user.id, event: 'card_removed', device: caller.device, at: now });
    // The last card gone, the cardholders-only services end with it (SPEC.md section 4; decision 0015).
    if (!(await hasCards(trx, caller.user.id))) {
      await endCardholdersOnlySessions(trx, { userId: caller.user.id, clientIds: deps.clients.all().map((c) => c.client_id), device: caller.device, at: now });
    }
  });
  return OK_RESPONSE;
}

/** POST /api/subuser/open: the member's open account (the point ledger's) as a sub-user, or null. */
export async function openSubuser(deps: Pick<CardDeps, 'pointLedger'>, user: UserRow) {
  const { open } = await deps.pointLedger.balances(user.id);
  return {
    ...OK_RESPONSE,
    // The open account is the member's own: it has no sub_users row, so it is named by the member's id (as /api/user answers it).
    open_subuser: open === null ? null : { subuser_id: user.id, member_type: 'open' as const, aqf_point_open: open },
  };
}
