import type { Kysely } from 'kysely';
import { CARD_MESSAGES, UPGRADE_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { deniedWith, retryable } from '../../lib/app-error.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { MemberFlowRow } from '../member-flows/member-flow-repo.ts';
import { memberFlowExpired, passMemberFlowCheck, type MemberFlowDeps } from '../member-flows/member-flow-service.ts';
import type { Notifier } from '../notifications/notifier.ts';

/** What the numberless card and the upgrade need (docs/decisions/0006). */
export interface UpgradeDeps extends MemberFlowDeps {
  notifier: Notifier;
  cardMaster: CardMaster;
}

/** 300: the upgrade is for active open members only (a card member adds cards at /api/subuser/card/add). */
export const openMembersOnly = () => deniedWith(UPGRADE_MESSAGES.openMembersOnly);

/**
 * Ends a numberless or upgrade flow whose check passed by linking its cards: in ONE transaction the
 * flow finished and its secret used (of parallel right answers exactly one goes on, the others
 * 300), then `link`. A card registered to anyone, before (`taken`) or in the meantime (a parallel
 * add or sign-up), answers 902 alreadyLinked and still ends the flow.
 */
export async function linkFlowCards(
  db: Kysely<Database>,
  p: { flow: MemberFlowRow; verificationId: string; now: number; taken: boolean },
  link: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const { flow, verificationId, now } = p;
  const close = (trx: Kysely<Database>) => passMemberFlowCheck(trx, { flow, to: 'done', verificationId, now, expired: memberFlowExpired });
  // The flow ends with the answer; a parallel right answer that finished it first makes this one 300.
  const alreadyLinked = async () => ((await db.transaction().execute(close)) ? retryable(CARD_MESSAGES.alreadyLinked) : memberFlowExpired());
  if (p.taken) throw await alreadyLinked();
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await close(trx))) throw memberFlowExpired();
      await link(trx);
    });
  } catch (err) {
    if (uniqueViolation(err) === 'esid') throw await alreadyLinked();
    throw err;
  }
}
