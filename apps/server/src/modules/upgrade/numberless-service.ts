import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { CardResultResponse } from '@sso/contracts/cards';
import type { NumberlessResponse, numberlessOtpRequestSchema, numberlessRequestSchema } from '@sso/contracts/upgrade';
import type { Background } from '../../lib/background.ts';
import { newId, randomToken } from '../../lib/secrets.ts';
import type { CardRecord } from '../../ports/card-master.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { flowCardOf, subuserOfCard } from '../cards/card-lookup.ts';
import { hashSecret, newCode } from '../verification/codes.ts';
import { countMemberStart, countMessage } from '../verification/message-limit.ts';
import { sendCode } from '../verification/otp-message.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { cardLinked, insertMemberCard } from '../cards/card-repo.ts';
import { cardResultOf } from '../cards/card-view.ts';
import type { MemberFlowRow } from '../member-flows/member-flow-repo.ts';
import { maskTel } from '../../lib/mask.ts';
import { checkMemberCode, memberFlowLocked, startMemberFlow, type FlowContext } from '../member-flows/member-flow-service.ts';
import { claimOpenMember } from '../account/member-repo.ts';
import { linkFlowCards, type UpgradeDeps } from './upgrade-flow.ts';

/** The code is sent after the answer, so that the answer's timing does not tell whether one was sent. */
export type NumberlessDeps = UpgradeDeps & { background: Background };

/** What a numberless flow keeps: the esids of the cards found (none when the number holds none). */
interface NumberlessData {
  esids: string[];
}

/**
 * POST /api/auth/numberless (Bearer; docs/decisions/0006). A numberless card has no printed number:
 * it is found by its holder's mobile number, and an SMS code to that number proves possession. The
 * answer is the same, with the number entered masked, whether or not the number holds such a card:
 * a flow is made either way, the message to the number is counted either way (902 beyond the
 * recipient's limit), and a secret is hashed either way, but the code is sent only when a card was
 * found, and then after the answer. A flow that found none gets a secret that no 6-digit code
 * matches, so that its codes are answered, and bounded, exactly like wrong ones. The member's starts are bounded as a recipient's
 * messages are, so that nobody walks through numbers with their account.
 */
export async function startNumberless(
  deps: NumberlessDeps,
  user: UserRow,
  input: z.infer<typeof numberlessRequestSchema>,
): Promise<NumberlessResponse> {
  const now = deps.clock.now();
  // Wrong codes of one member, across their numberless flows, lock their starts too (verification/purposes.ts).
  if (await secretLocked(deps.db, 'numberless', user.id, now)) throw memberFlowLocked();
  await countMemberStart(deps, 'numberless', user.id);
  await countMessage(deps, 'sms', input.tel);
  const cards = await deps.cardMaster.numberlessByMobile(input.tel);
  const secret = cards.length > 0 ? await newCode() : { code: undefined, hash: await hashSecret(randomToken()) };
  const data: NumberlessData = { esids: cards.map((c) => c.esid) };
  const token = await startMemberFlow(deps, { userId: user.id, kind: 'numberless', state: 'otp', data, secretHash: secret.hash });
  const code = secret.code;
  if (code !== undefined) deps.background.run('numberless code', () => sendCode(deps, 'sms', input.tel, code));
  return { ...OK_RESPONSE, register_token: token, destination_to: 'sms', tel: maskTel(input.tel) };
}

/** The flow's cards as the card master knows them now, not yet linked to anyone. */
async function cardsToLink(deps: UpgradeDeps, flow: MemberFlowRow): Promise<CardRecord[]> {
  const { esids } = JSON.parse(flow.data_json) as NumberlessData;
  const known = (await Promise.all(esids.map((esid) => deps.cardMaster.byEsid(esid)))).filter((c) => c !== undefined);
  const free: CardRecord[] = [];
  for (const card of known) if (!(await cardLinked(deps.db, card.esid))) free.push(card);
  return free;
}

/**
 * POST /api/auth/numberless/otp (Bearer): the flow must be the Bearer member's (anything else 300).
 * The code is checked under the member's lock (5 wrong -> 203 for LIMITS.signupLockMs). A right
 * code, in one transaction: the flow finished and the code used (of parallel right answers exactly
 * one goes on), the cards linked as sub-users with the card master's status, 'numberless_added'
 * logged; an open member who holds the card now is logged 'upgraded' too, as at /api/auth/upgrade/sc,
 * and stays an open member (docs/decisions/0016). A card registered to anyone answers
 * 902 alreadyLinked and ends the flow: only the holder's phone learns that.
 */
export async function confirmNumberless(
  deps: UpgradeDeps,
  user: UserRow,
  input: z.infer<typeof numberlessOtpRequestSchema>,
  context: FlowContext,
): Promise<CardResultResponse> {
  const now = deps.clock.now();
  const { flow, verificationId } = await checkMemberCode(deps.db, now, { userId: user.id, kind: 'numberless', answer: input });
  // The card master is another system: asked before the transaction, never inside it.
  const cards = await cardsToLink(deps, flow);
  const subusers = cards.map((card) => subuserOfCard(flowCardOf(card), { id: newId(), mailDigital: null }));
  await linkFlowCards(deps.db, { flow, verificationId, now, taken: cards.length === 0 }, async (trx) => {
    for (const row of subusers) await insertMemberCard(trx, user.id, row, now);
    if (await claimOpenMember(trx, user.id, now)) await logActivity(trx, { userId: user.id, event: 'upgraded', device: context.device, at: now });
    await logActivity(trx, { userId: user.id, event: 'numberless_added', device: context.device, at: now });
  });
  return cardResultOf(subusers[0]!);
}
