import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/schema.ts';

/** The SQL of `member_devices` (decision 0024): the browsers a member has signed in from. */

// Compiled once (prepared-query.ts): every sign-in from a known browser is this one statement.
const deviceSeen = preparedQuery((db, p: { userId: string; deviceHash: string; now: number }) =>
  db.updateTable('member_devices').set({ last_seen_at: p.now }).where('user_id', '=', p.userId).where('device_hash', '=', p.deviceHash),
);

/** A sign-in from a device the member has signed in from before, in one update: true; false, and nothing written, for a device not known. */
export async function seeKnownDevice(db: Kysely<Database>, p: { userId: string; deviceHash: string; now: number }): Promise<boolean> {
  return Number((await deviceSeen(db, p)).numAffectedRows ?? 0n) === 1;
}

/**
 * Records a sign-in from a device (a keyed digest of its cookie): true when the member had not signed
 * in from it before. A known device costs one update; a new one an insert that does nothing when a
 * parallel sign-in from it inserted first, so that one new device is new once.
 */
export async function noteMemberDevice(db: Kysely<Database>, p: { userId: string; deviceHash: string; now: number }): Promise<boolean> {
  if (await seeKnownDevice(db, p)) return false;
  const inserted = await db
    .insertInto('member_devices')
    .values({ user_id: p.userId, device_hash: p.deviceHash, first_seen_at: p.now, last_seen_at: p.now })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Forgets a member's devices (a withdrawal). */
export async function forgetMemberDevices(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('member_devices').where('user_id', '=', userId).execute();
}
