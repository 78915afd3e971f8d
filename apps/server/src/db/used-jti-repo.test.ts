import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withMigratedDb } from '../test-support/vitest.ts';
import { purgeExpired } from './maintenance.ts';
import { useJtiOnce } from './used-jti-repo.ts';

const T0 = Date.UTC(2026, 0, 1);

describe.each(DIALECTS)('one-time proof identifiers (%s)', (dialect) => {
  const db = withMigratedDb(dialect);

  it('accepts an identifier once, per purpose and per scope', async () => {
    expect(await useJtiOnce(db(), 'dpop', 'key-a', 'j1', T0)).toBe(true);
    expect(await useJtiOnce(db(), 'dpop', 'key-a', 'j1', T0)).toBe(false);
    expect(await useJtiOnce(db(), 'dpop', 'key-b', 'j1', T0)).toBe(true);
    expect(await useJtiOnce(db(), 'client_assertion', 'key-a', 'j1', T0)).toBe(true);
    // The scope and the identifier are not run together: "a" + "bc" is not "ab" + "c".
    expect(await useJtiOnce(db(), 'dpop', 'a', 'bc', T0)).toBe(true);
    expect(await useJtiOnce(db(), 'dpop', 'ab', 'c', T0)).toBe(true);
  });

  it('lets exactly one of parallel presentations through', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => useJtiOnce(db(), 'dpop', 'k', 'raced', T0)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps no identifier in the clear, and forgets it once its proof has expired', async () => {
    await useJtiOnce(db(), 'client_assertion', 'partner', 'secret-jti-value', T0);
    await useJtiOnce(db(), 'client_assertion', 'partner', 'later', T0 + 60_000);
    const rows = await db().selectFrom('used_jtis').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('secret-jti-value');
    await purgeExpired(db(), T0 + 1);
    expect(await db().selectFrom('used_jtis').select('expires_at').execute()).toEqual([{ expires_at: T0 + 60_000 }]);
    expect(await useJtiOnce(db(), 'client_assertion', 'partner', 'later', T0 + 60_000)).toBe(false);
  });
});
