import type { Kysely } from 'kysely';
import { LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import type { TopPoints, TopSummaryResponse } from '@sso/contracts/top';
import type { Database } from '../../db/schema.ts';
import { settleWithin, type Settled } from '../../lib/settle-within.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { PointBalances, PointLedger } from '../../ports/point-ledger.ts';
import type { UserRow } from '../account/user-repo.ts';
import { deviceOf, previousLogin } from '../activity/activity-repo.ts';
import { listMemberCards, type CardRow } from '../cards/card-repo.ts';
import { subuserOf } from '../cards/card-view.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { memberAttributes, memberRecord } from '../profile/member-view.ts';

export interface TopDeps {
  db: Kysely<Database>;
  clients: ClientRegistry;
  cardMaster: CardMaster;
  pointLedger: PointLedger;
}

export type TopSummary = Omit<TopSummaryResponse, 'result_code' | 'result_message'>;

/**
 * What a member comes to Top for (SPEC.md section 2, Top), for its one request: the member's record
 * and attributes (as /api/user and /api/user/attribute answer them), the name to greet them by, their cards, their points and their previous login. The point ledger and the card master
 * are other systems: each is waited for at most LIMITS.topPointsWaitMs, well within Top's 5 s abort,
 * so that a slow or failed one costs only its own part (the points said unavailable, no name), never
 * the rest. `ledger` reports why the points are missing, for the operators' log.
 */
export async function topSummary(deps: TopDeps, user: UserRow): Promise<{ summary: TopSummary; ledger: Settled<PointBalances> }> {
  // The card master's name is asked while the ledger is waited for, not after it: the two waits overlap.
  const reading = listMemberCards(deps.db, user.id);
  const [attribute, cards, name, ledger, previous] = await Promise.all([
    memberAttributes(deps, user, reading.then((rows) => rows.length > 0)),
    reading,
    reading.then((rows) => greetingName(deps.cardMaster, user, rows)),
    settleWithin(() => deps.pointLedger.balances(user.id), LIMITS.topPointsWaitMs),
    previousLogin(deps.db, user.id, WEB_CLIENT_ID),
  ]);
  const points: TopPoints = ledger.ok ? { state: 'read', open: ledger.value.open, card: ledger.value.card } : { state: 'unavailable' };
  const summary: TopSummary = {
    user: memberRecord(user),
    attribute,
    name,
    cards: cards.map((row) => {
      const { subuser_id, card_name, card_image_url, card_number_mask, status } = subuserOf(row);
      return { subuser_id, card_name, card_image_url, card_number_mask, status };
    }),
    points,
    previous_login: previous ? { at: Number(previous.created_at), device: deviceOf(previous.detail) } : null,
  };
  return { summary, ledger };
}

/**
 * The name Top greets the member by: an open member's own profile name; else the cardholder name the
 * card master holds for the member's first card that has one; else none.
 */
async function greetingName(cardMaster: CardMaster, user: UserRow, cards: readonly CardRow[]): Promise<string | null> {
  const own = [user.last_name, user.first_name].filter((part): part is string => !!part).join(' ');
  if (own) return own;
  if (cards.length === 0) return null;
  const records = await settleWithin(() => Promise.all(cards.map((c) => cardMaster.byEsid(c.esid))), LIMITS.topPointsWaitMs);
  if (!records.ok) return null;
  return records.value.find((r) => r?.holderName)?.holderName ?? null;
}
