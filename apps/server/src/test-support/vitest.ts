import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { startListeningApp, type ListeningApp } from './listening-app.ts';
import { silentSmtp, type SilentSmtp } from './silent-smtp.ts';
import { createTestApp, type TestApp } from './test-app-core.ts';
import { createMigratedTestDb, type TestDb } from './test-db.ts';

/**
 * The vitest lifecycle of the test harness (entry `@sso/server/test-support/vitest`): each helper
 * starts what the enclosing describe block uses before its tests and stops it after them. What they
 * start is vitest-free (`@sso/server/test-support`), for the tools that run outside vitest (bench/).
 */

/** Builds a test app for the enclosing describe block and closes it (and drops its database) after. */
export function withTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: Parameters<typeof createTestApp>[2] = {},
  before?: Parameters<typeof createTestApp>[3],
): TestApp {
  const ctx = {} as TestApp;
  beforeAll(async () => {
    Object.assign(ctx, await createTestApp(dialect, env, overrides, before));
  });
  afterAll(async () => ctx.close?.());
  return ctx;
}

/**
 * A fresh database migrated to the latest schema, without an app, for the enclosing describe block
 * (a repository's tests); dropped after. The getter reads it once the block has started.
 */
export function withMigratedDb(dialect: Dialect): () => Kysely<Database> {
  let testDb: TestDb | undefined;
  beforeAll(async () => {
    testDb = await createMigratedTestDb(dialect);
  });
  afterAll(async () => testDb?.drop());
  return () => {
    if (!testDb) throw new Error('withMigratedDb: the database is read before its describe block started');
    return testDb.db.kysely;
  };
}

/** A test app whose SMTP_URL is a silent mail server, for the enclosing describe block. */
export function withSilentSmtpApp(dialect: Dialect): { t: TestApp; smtp: SilentSmtp } {
  const ctx = { t: {} as TestApp, smtp: {} as SilentSmtp };
  beforeAll(async () => {
    Object.assign(ctx.smtp, await silentSmtp());
    Object.assign(ctx.t, await createTestApp(dialect, { SMTP_URL: `smtp://127.0.0.1:${ctx.smtp.port}` }));
  });
  afterAll(async () => {
    await ctx.smtp.close?.();
    await ctx.t.close?.();
  });
  return ctx;
}

/**
 * The test app (test-app-core.ts) listening on a real port and being its own PUBLIC_ORIGIN, for what
 * calls the server over HTTP as another system would: a partner's server, a standard client
 * library, the demo partner that fetches the JWK Set.
 */
export function withListeningApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: Parameters<typeof createTestApp>[2] = {},
): ListeningApp {
  const ctx = {} as ListeningApp;
  beforeAll(async () => {
    Object.assign(ctx, await startListeningApp(dialect, env, overrides));
  });
  afterAll(async () => ctx.close?.());
  return ctx;
}
