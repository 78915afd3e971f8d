import type { Kysely } from 'kysely';

/** Mail is sent as plain text and HTML: the outbox keeps the HTML part too. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('html', 'text').execute();
}
