import type { Kysely } from 'kysely';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import type { Database } from '../../db/schema.ts';
import { sha256 } from '../../lib/secrets.ts';
import { issueSecret, redeemToken } from '../verification/one-time-secret.ts';

/**
 * A WebAuthn challenge's life (decision 0024): kept by the verification kernel as the SHA-256 of the
 * challenge, for the browser or session that asked (its subject, and a binding), for
 * LIMITS.passkeyChallengeTtlMs, and used up by one conditional update when an answer signed over it
 * comes back, whatever that answer then proves. A replayed, expired or unknown challenge, or one asked
 * by another browser or session, is no challenge at all.
 */
export type ChallengePurpose = 'passkey_login' | 'passkey_register' | 'passkey_reauth' | 'operator_enrol' | 'operator_sign_in' | 'operator_reauth';

export async function keepChallenge(
  db: Kysely<Database>,
  p: { purpose: ChallengePurpose; challenge: string; subject: string; now: number; binding?: string },
): Promise<void> {
  await issueSecret(db, { purpose: p.purpose, subject: p.subject, hash: sha256(p.challenge), now: p.now, ...(p.binding === undefined ? {} : { binding: p.binding }) });
}

/** The browser's answer as the server receives it: its clientDataJSON names the challenge it signed. */
interface SignedAnswer {
  response: object;
}

/** The challenge an answer was signed over, read from its clientDataJSON; undefined when there is none to read. */
function signedChallenge(answer: SignedAnswer): string | undefined {
  const clientData = (answer.response as { clientDataJSON?: unknown }).clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 16 * 1024) return undefined;
  try {
    const challenge: unknown = decodeClientDataJSON(clientData).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 1024 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Uses up the live challenge an answer was signed over: of parallel answers over one challenge exactly
 * one gets it, with the subject and binding it was kept for, for the caller to compare.
 */
export async function takeChallenge(
  db: Kysely<Database>,
  purpose: ChallengePurpose,
  answer: SignedAnswer,
  now: number,
): Promise<{ challenge: string; subject: string; binding: string | null } | undefined> {
  const challenge = signedChallenge(answer);
  if (challenge === undefined) return undefined;
  const kept = await redeemToken(db, purpose, sha256(challenge), now);
  return kept && { challenge, subject: kept.subject, binding: kept.binding ?? null };
}
