import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Whether a database (or one of its transactions) is PostgreSQL: for the few statements written per dialect. */
export const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
