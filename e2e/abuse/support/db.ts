import { type Db, openDatabase } from '@sso/server/test-support/internals';

export { createTestDb } from '@sso/server/test-support';

/**
 * Opens the database a running system writes (its DATABASE_URL), to check afterwards what was
 * really stored: an SQLite file in WAL mode can be read while the server writes it. For a system on
 * PostgreSQL, `createTestDb('postgres')` gives a fresh database to start it on (the server migrates
 * and seeds it) and drops it after.
 */
export const openSystemDb = (databaseUrl: string): Db => openDatabase(databaseUrl);
