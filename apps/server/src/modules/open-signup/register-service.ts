import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import type { OpenSignupResponse, openSignupRequestSchema } from '@sso/contracts/open-signup';
import type { Database } from '../../db/schema.ts';
import { validationError } from '../../lib/app-error.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/secrets.ts';
import { emailInUse } from '../account/member-repo.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { newToken } from '../verification/codes.ts';
import { startFlow } from '../verification/flow.ts';
import { messageAllowed } from '../verification/message-limit.ts';
import { activationMail, activationUrl, alreadyRegisteredMail } from './mails.ts';
import { suspendedAccountMail } from '../notifications/account-state-mail.ts';
import { findSignInUserByLoginId } from '../account/user-repo.ts';
import { livePendingByEmail, replacePending, type PendingRow } from './pending-repo.ts';

export interface OpenSignupDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  /** PUBLIC_ORIGIN: the links in mails point at the SPA there. */
  issuer: string;
  notifier: Notifier;
  background: Background;
}

export type OpenSignupInput = z.infer<ReturnType<typeof openSignupRequestSchema>>;

const VALID_MS = LIMITS.openSignupValidMinutes * 60_000;

/**
 * The client ids the sign-up started from (SPEC.md section 2: a comma-separated list is allowed).
 * Every one must be registered, otherwise 901 on client_id.
 */
export function signupClientIds(deps: Pick<OpenSignupDeps, 'clients'>, raw: string): string[] {
  const ids = [...new Set(raw.split(',').map((s) => s.trim()))];
  if (ids.some((id) => !deps.clients.get(id))) throw validationError([{ key: 'client_id', message: SERVER_MESSAGES.validation }]);
  return ids;
}

/** The answer of every register, new address or member's, dry run or not: it reveals nothing. */
const answer = (email: string): OpenSignupResponse => ({ ...OK_RESPONSE, email, links: [] });

/**
 * POST /api/signup/open (SPEC.md sections 3, 4 and 5; decision 0005). dry_run 1 only validates (the
 * confirm mode). dry_run 0 hashes the password and answers at once; whether the address is a
 * member's is looked up afterwards, off the request's path, so that neither the answer nor its time
 * depends on it (ARCHITECTURE.md). A new address gets a pending registration and the activation
 * link; a member's address gets a mail telling its owner, and nothing is stored.
 */
export async function registerOpenSignup(deps: OpenSignupDeps, input: OpenSignupInput): Promise<OpenSignupResponse> {
  const clientIds = signupClientIds(deps, input.client_id);
  const email = input.email.toLowerCase();
  if (input.dry_run === 1) return answer(email);
  const now = deps.clock.now();
  const pending: PendingRow = {
    id: newId(),
    email,
    tel: input.tel,
    last_name: input.last_name,
    first_name: input.first_name,
    last_name_kana: input.last_name_kana,
    first_name_kana: input.first_name_kana,
    sex: input.sex,
    birthday: input.birthday,
    postal_code: input.postal_code,
    email_flg: input.email_flg ? 1 : 0,
    password_hash: await hashPassword(input.password),
    client_ids: clientIds.join(','),
    created_at: now,
    expires_at: now + VALID_MS,
  };
  deps.background.run('open sign-up mail', () => deliverRegistration(deps, pending));
  return answer(email);
}

/**
 * The part of a register that may reveal membership, run after the answer. Mails per address are
 * limited (LIMITS.messagesPerRecipient per LIMITS.messageWindowMs); beyond that nothing is stored or
 * sent, so an earlier link keeps working.
 */
async function deliverRegistration(deps: OpenSignupDeps, pending: PendingRow): Promise<void> {
  const now = pending.created_at;
  if (!(await messageAllowed(deps.db, 'mail', pending.email, now))) return;
  if (await emailInUse(deps.db, pending.email)) {
    // A suspended member is told the suspension's message, as the login tells it, not invited to log in.
    const suspended = (await findSignInUserByLoginId(deps.db, { email: pending.email }))?.status === 'suspended';
    await deps.notifier.send(suspended ? suspendedAccountMail(pending.email, '新規登録') : alreadyRegisteredMail(pending.email, deps.issuer));
    return;
  }
  const { token, hash } = newToken();
  // The registration replaces the address's earlier one, whose link leads nowhere from now (verification/flow.ts).
  await startFlow(deps.db, {
    purpose: 'open_activation',
    hash,
    now,
    flowId: pending.id,
    flowExpiresAt: pending.expires_at,
    store: (trx) => replacePending(trx, pending),
  });
  await deps.notifier.send(activationMail(pending.email, activationUrl(deps.issuer, token)));
}

/**
 * Mails a pending open sign-up a new activation link (the operators' "resend the activation";
 * modules/support/): the registration is kept as it is, under a new id, so that the earlier link leads
 * nowhere (as a new registration replaces one), valid for LIMITS.openSignupValidMinutes from now. The
 * mails per address are limited as a registration's. False, with nothing changed, when the address has no
 * live pending sign-up or the limit is reached.
 */
export async function resendActivationMail(deps: Pick<OpenSignupDeps, 'db' | 'issuer' | 'notifier'>, email: string, now: number): Promise<boolean> {
  const pending = await livePendingByEmail(deps.db, email.toLowerCase(), now);
  if (!pending) return false;
  if (!(await messageAllowed(deps.db, 'mail', pending.email, now))) return false;
  const renewed: PendingRow = { ...pending, id: newId(), created_at: now, expires_at: now + VALID_MS };
  const { token, hash } = newToken();
  await startFlow(deps.db, { purpose: 'open_activation', hash, now, flowId: renewed.id, flowExpiresAt: renewed.expires_at, store: (trx) => replacePending(trx, renewed) });
  await deps.notifier.send(activationMail(renewed.email, activationUrl(deps.issuer, token)));
  return true;
}
