import { openDatabase } from '@sso/server/test-support/internals';
import { passkeySignIn, type Member } from './flows.ts';
import type { HttpClient } from './http.ts';

/**
 * The challenge rows a passkey sign-in leaves (decision 0024; budget: exactly one written, and used
 * up, per sign-in): `signIns` sign-ins one after another against the running system, the
 * `passkey_login` rows of `verifications` counted before and after in its database.
 */
export async function challengeRowsPerSignIn(o: { databaseUrl: string; http: HttpClient; member: Member; signIns?: number }): Promise<{ written: number; live: number; signIns: number }> {
  const signIns = o.signIns ?? 20;
  const db = openDatabase(o.databaseUrl);
  const count = async () => {
    const rows = await db.kysely.selectFrom('verifications').select('consumed_at').where('purpose', '=', 'passkey_login').execute();
    return { total: rows.length, live: rows.filter((r) => r.consumed_at === null).length };
  };
  try {
    const before = await count();
    for (let i = 0; i < signIns; i++) {
      const outcome = await passkeySignIn(o.http, o.member);
      if (!outcome.ok) throw new Error(`passkey sign-in failed: ${outcome.kind}`);
    }
    const after = await count();
    return { written: (after.total - before.total) / signIns, live: after.live - before.live, signIns };
  } finally {
    await db.close();
  }
}
