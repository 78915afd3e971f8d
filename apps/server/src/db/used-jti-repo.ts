import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { preparedQuery } from './prepared-query.ts';
import type { Database } from './schema.ts';

/** What a one-time identifier was presented in: each has its own namespace. */
export type JtiPurpose = 'dpop' | 'client_assertion';

const insert = preparedQuery((db, p: { purpose: string; digest: string; expiresAt: number }) =>
  db
    .insertInto('used_jtis')
    .values({ purpose: p.purpose, digest: p.digest, expires_at: p.expiresAt })
    .onConflict((oc) => oc.columns(['purpose', 'digest']).doNothing()),
);

/**
 * Records a signed proof's one-time identifier and says whether this was its first use: true once, false
 * for every later presentation on any node (one atomic insert; parallel callers cannot both win).
 * `scope` names whose identifier it is (the DPoP key's thumbprint, the client id), so that two signers'
 * equal identifiers do not collide; `expiresAt` (ms) is when the proof stops being acceptable anyway,
 * after which the retention sweep forgets it (db/maintenance.ts).
 */
export async function useJtiOnce(
  db: Kysely<Database>,
  purpose: JtiPurpose,
  scope: string,
  jti: string,
  expiresAt: number,
): Promise<boolean> {
  const digest = createHash('sha256').update(`${scope}\u0000${jti}`).digest('base64url');
  const result = await insert(db, { purpose, digest, expiresAt });
  return Number(result.numAffectedRows ?? 0) === 1;
}
