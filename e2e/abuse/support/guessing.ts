import { sha256 } from '@sso/server/test-support/internals';
import type { Answer } from './client.ts';
import type { openSystemDb } from './db.ts';

/**
 * What the guessing checks read (docs/security.md: the bounds hold under 50 parallel guesses): the
 * answers of a burst of guesses tallied by what they said, and the database's own count of them.
 */

type SystemDb = ReturnType<typeof openSystemDb>;

/**
 * What an answer said: `result_code message` for member APIs; for an authorize form post, why the
 * login page was shown again (its `login_result`), else the redirect's error_description, else a code.
 */
export function said(a: Answer): string {
  const location = a.headers.get('location');
  if (location) {
    const q = new URL(location).searchParams;
    return `authorize: ${q.get('login_result') ?? q.get('error_description') ?? 'code'}`;
  }
  return `${String(a.json?.result_code)} ${String(a.json?.result_message)}`;
}

/** How many answers said each thing. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[said(a)] = (counts[said(a)] ?? 0) + 1;
  return counts;
}

/** `count` codes of `digits` digits, none of them `right`. */
export const wrongGuesses = (right: string, count: number, digits = right.length) =>
  Array.from({ length: count }, (_, k) => String((Number(right) + 1 + k) % 10 ** digits).padStart(digits, '0'));

/** The throttle row of a lock key (login_throttle: failures counted before each check, and the lock). */
export const throttleRow = (db: SystemDb, key: string) =>
  db.kysely.selectFrom('login_throttle').select(['failed_count', 'locked_until']).where('key', '=', key).executeTakeFirst();

/** The tries taken of the one-time secret of the flow a register_token carries (verifications.attempts). */
export async function triesTaken(
  db: SystemDb,
  flows: 'signup_flows' | 'email_changes' | 'member_flows',
  registerToken: string,
  purpose: string,
): Promise<{ flowId: string; attempts: number; maxAttempts: number }> {
  const flow = await db.kysely.selectFrom(flows).select('id').where('token_hash', '=', sha256(registerToken)).executeTakeFirstOrThrow();
  const row = await db.kysely
    .selectFrom('verifications')
    .select(['attempts', 'max_attempts'])
    .where('subject', '=', flow.id)
    .where('purpose', '=', purpose)
    .executeTakeFirstOrThrow();
  return { flowId: flow.id, attempts: Number(row.attempts), maxAttempts: Number(row.max_attempts) };
}

/** How many times an event was logged for a member (activity_log). */
export async function eventCount(db: SystemDb, userId: string, event: string): Promise<number> {
  const rows = await db.kysely.selectFrom('activity_log').select('id').where('user_id', '=', userId).where('event', '=', event).execute();
  return rows.length;
}
