import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A query built and compiled once per database, then run with the parameters of each call (issue 9):
 * Kysely otherwise builds the query tree and compiles it to SQL on every call, which on the token
 * lookups that every refresh, introspection and Bearer request makes cost as much as running them.
 * `build` makes the query with placeholder values; each call passes the real values in the same
 * order and gets Kysely's result (rows, and the rows an update or delete changed).
 * Keyed by the dialect adapter, which a database and its transactions share.
 */
export function preparedQuery<Row>(build: (db: Kysely<Database>) => Compilable<Row>) {
  const compiled = new WeakMap<object, CompiledQuery<Row>>();
  return async (db: Kysely<Database>, parameters: readonly unknown[]): Promise<QueryResult<Row>> => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db).compile();
      compiled.set(adapter, query);
    }
    if (query.parameters.length !== parameters.length) throw new Error(`prepared query takes ${query.parameters.length} parameters, got ${parameters.length}`);
    return db.executeQuery<Row>({ ...query, parameters });
  };
}
