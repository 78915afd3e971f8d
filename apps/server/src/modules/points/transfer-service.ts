import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import type {
  TransferResultResponse,
  TransferSelectResponse,
  transferOtpRequestSchema,
  transferSelectRequestSchema,
} from '@sso/contracts/points';
import { RESULT } from '@sso/contracts/result-codes';
import type { Database } from '../../db/schema.ts';
import { AppError, deniedWith, lockedWith, retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/secrets.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { PointLedger } from '../../ports/point-ledger.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { findPointCard } from '../cards/card-repo.ts';
import { advanceMemberFlow, findFlow, takeFlowCheck, type MemberFlowRow } from '../member-flows/member-flow-repo.ts';
import { maskTel } from '../../lib/mask.ts';
import { checkMemberFlowSecret, passMemberFlowCheck, startMemberFlow, type FlowContext } from '../member-flows/member-flow-service.ts';
import { withOneTimePassword, type Notifier } from '../notifications/notifier.ts';
import { newCode } from '../verification/codes.ts';
import { countMessage } from '../verification/message-limit.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { transferCodeMessage } from './transfer-message.ts';

export interface PointDeps {
  db: Kysely<Database>;
  clock: Clock;
  notifier: Notifier;
  cardMaster: CardMaster;
  pointLedger: PointLedger;
}

/** What the flow keeps: the card the points go to, and where the code went. */
interface TransferData {
  subuserId: string;
  esid: string;
  channel: 'sms' | 'mail';
}

/** 300, as the other flows answer an unknown, expired, replaced or finished register_token (SPEC.md section 8). */
const transferExpired = () => deniedWith(POINT_MESSAGES.transferExpired);
const transferLocked = () => lockedWith(POINT_MESSAGES.transferLocked);
const flowData = (flow: MemberFlowRow) => JSON.parse(flow.data_json) as TransferData;

/**
 * POST /api/aqf/transfer/open/select (decision 0006; SPEC.md section 2, "Point merge summary and
 * transfer screens"). Refused with one of the three messages unless the member has an open account,
 * the named card is their active point-capable card (another member's card answers as no card) and
 * the open balance is positive. Then a flow (30 minutes, register_token stored as SHA-256) replaces
 * the member's earlier ones waiting for a code, and a 6-digit code goes by SMS to the card holder's
 * mobile when the card master knows it, else by mail to the member, within the per-recipient limit.
 */
export async function selectTransfer(
  deps: PointDeps,
  user: UserRow,
  input: z.infer<typeof transferSelectRequestSchema>,
): Promise<TransferSelectResponse> {
  const now = deps.clock.now();
  const balances = await deps.pointLedger.balances(user.id);
  if (balances.open === null) throw retryable(POINT_MESSAGES.openInfoUnavailable);
  const card = await findPointCard(deps.db, user.id, input.subuser_id);
  if (!card) throw retryable(POINT_MESSAGES.noEligibleCard);
  if (balances.open <= 0) throw retryable(POINT_MESSAGES.zeroBalance);
  // Wrong codes of one member, across their transfer flows, lock the member's transfers (verification/purposes.ts).
  if (await secretLocked(deps.db, 'point_transfer', user.id, now)) throw transferLocked();

  const holder = await deps.cardMaster.byEsid(card.esid);
  const mobile = holder?.holderMobile;
  const channel = mobile ? 'sms' : 'mail';
  const to = mobile ?? user.email;
  await countMessage(deps, channel, to);
  const { code, hash } = await newCode();
  const data: TransferData = { subuserId: card.id, esid: card.esid, channel };
  const token = await startMemberFlow(deps, { userId: user.id, kind: 'point_transfer', state: 'otp', data, secretHash: hash });
  await deps.notifier.send(withOneTimePassword(transferCodeMessage(channel, to, code)));
  return {
    ...OK_RESPONSE,
    destination_to: mobile ? 'sms' : 'email',
    register_token: token,
    email: user.email,
    tel: mobile ? (holder.holderMobileMasked ?? maskTel(mobile)) : '',
  };
}

/** How long a confirmation waits for a parallel one's check of the same code, in real time, and how often it looks. */
const CHECK_WAIT_MS = 12_000;
const CHECK_POLL_MS = 20;
/** A check held this long was left by a stopped process (a check is one argon2id hash and a few statements): another request takes it over. */
const CHECK_STALE_MS = 10_000;

/**
 * POST /api/aqf/transfer/open/otp (decision 0006). The flow must be the Bearer member's. One request
 * at a time checks the code of a flow (`otp` -> `checking`, takeFlowCheck): a double submission
 * waits for the first one's check instead of taking a try and counting a failure of its own, so
 * that right answers sent twice are never taken for guesses (ten parallel ones used to lock the
 * member). The code is checked under the member's lock (5 wrong: 203 for LIMITS.signupLockMs,
 * logged); a wrong one frees the check for the next. A right code claims the flow (`checking` ->
 * `transferring`, with the code used up, in one transaction); the ledger then moves the whole open
 * balance, at most once per flow id; the flow becomes `done`. A request for a flow already
 * `transferring` or `done` (a retry, or a duplicate that waited) answers the ledger's recorded
 * result and moves nothing.
 */
export async function confirmTransfer(
  deps: PointDeps,
  user: UserRow,
  input: z.infer<typeof transferOtpRequestSchema>,
  context: FlowContext,
): Promise<TransferResultResponse> {
  const found = await findFlow(deps.db, 'point_transfer', sha256(input.register_token));
  // Another member's register_token answers as an unknown one.
  if (!found || found.user_id !== user.id) throw transferExpired();
  const flow = await takeCheck(deps, found);
  if (flow.state !== 'checking') return finishTransfer(deps, flow, context);

  let passed = false;
  try {
    const verificationId = await checkCode(deps, flow, input.onetime_password, context);
    // The card may have been removed since the select.
    if (!(await findPointCard(deps.db, user.id, flowData(flow).subuserId))) throw retryable(POINT_MESSAGES.noEligibleCard);
    // False when a new select replaced the flow, or an ending event ended it, during the check.
    passed = await deps.db.transaction().execute((trx) =>
      passMemberFlowCheck(trx, { flow, to: 'transferring', verificationId, now: deps.clock.now(), expired: transferExpired }),
    );
    if (!passed) throw transferExpired();
  } finally {
    // Not passed: the next answer may be checked (an expired flow stays as it is and answers 300).
    if (!passed) await advanceMemberFlow(deps.db, { id: flow.id, from: 'checking', to: 'otp', now: deps.clock.now() });
  }
  return finishTransfer(deps, flow, context);
}

/**
 * Takes the flow's check for this request, waiting while a parallel request holds it: answers the
 * flow in `checking` (ours to check), or gone on to `transferring` or `done` (a parallel right
 * answer claimed it). A replaced, ended or expired flow answers 300, and so does one whose check
 * is still held after CHECK_WAIT_MS.
 */
async function takeCheck(deps: PointDeps, first: MemberFlowRow): Promise<MemberFlowRow> {
  const deadline = Date.now() + CHECK_WAIT_MS;
  let flow: MemberFlowRow | undefined = first;
  for (;;) {
    if (!flow) throw transferExpired();
    if (flow.state === 'transferring' || flow.state === 'done') return flow;
    const now = deps.clock.now();
    if ((flow.state !== 'otp' && flow.state !== 'checking') || Number(flow.expires_at) <= now) throw transferExpired();
    if (await takeFlowCheck(deps.db, { id: flow.id, now, staleBefore: now - CHECK_STALE_MS })) return { ...flow, state: 'checking', updated_at: now };
    if (Date.now() > deadline) throw transferExpired();
    await sleep(CHECK_POLL_MS);
    flow = await findFlow(deps.db, 'point_transfer', flow.token_hash);
  }
}

/**
 * The code check (verification/secret-check.ts) of the request holding the flow's check: answers
 * the verification to use up. A check that locks the member is logged.
 */
async function checkCode(deps: PointDeps, flow: MemberFlowRow, secret: string, context: FlowContext): Promise<string> {
  const now = deps.clock.now();
  if (await secretLocked(deps.db, 'point_transfer', flow.user_id, now)) throw transferLocked();
  try {
    return await checkMemberFlowSecret(deps.db, now, flow, {
      lockOwner: flow.user_id,
      secret,
      locked: transferLocked,
      wrong: () => retryable(SIGNUP_MESSAGES.otpWrong),
      // No try left: the code expired or was used up by wrong answers (start again).
      noTryLeft: async () => transferExpired(),
    });
  } catch (err) {
    if (err instanceof AppError && err.resultCode === RESULT.LOCKED) {
      await logActivity(deps.db, { userId: flow.user_id, event: 'point_transfer_locked', device: context.device, at: now });
    }
    throw err;
  }
}

/**
 * Asks the ledger for the flow's transfer (it moves the points at most once per transfer id, and
 * answers the recorded result after that), then finishes the flow; only the request that moves the
 * flow to `done` logs it, so that 'points_transferred' is logged once.
 */
async function finishTransfer(deps: PointDeps, flow: MemberFlowRow, context: FlowContext): Promise<TransferResultResponse> {
  const now = deps.clock.now();
  const result = await deps.pointLedger.transferOpenToCard({ transferId: flow.id, userId: flow.user_id, esid: flowData(flow).esid, at: now });
  await deps.db.transaction().execute(async (trx) => {
    if (await advanceMemberFlow(trx, { id: flow.id, from: 'transferring', to: 'done', now })) {
      await logActivity(trx, { userId: flow.user_id, event: 'points_transferred', device: context.device, at: now });
    }
  });
  return { ...OK_RESPONSE, moved_points: result.moved, aqf_point_open: result.open, aqf_point_na: result.card };
}
