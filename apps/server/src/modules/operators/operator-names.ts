import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { operatorNamesByIds } from './operator-repo.ts';

/**
 * Rows that name an operator by id, each with that operator's display name as it is now (decision
 * 0032: the audit screen says who acted); null for `host` (the break-glass command) or an id that
 * names no operator.
 */
export async function withOperatorNames<R extends { operator_id: string }>(db: Kysely<Database>, rows: readonly R[]): Promise<(R & { operator_name: string | null })[]> {
  const names = await operatorNamesByIds(db, [...new Set(rows.map((r) => r.operator_id))]);
  return rows.map((r) => ({ ...r, operator_name: names.get(r.operator_id) ?? null }));
}
