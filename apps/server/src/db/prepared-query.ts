import type SQLite from 'better-sqlite3';
import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import { isPostgres } from './dialect.ts';
import { nameStatement } from './pg-statements.ts';
import type { Database } from './schema.ts';
import { directSqlite } from './sqlite.ts';

/** What a parameter's placeholder carries through Kysely's compiler: a string no caller sends. */
const MARK = '\u0000prepared-parameter:';

/**
 * Stand-ins for a prepared query's parameters: `p.userId` in the built query stands for the `userId`
 * of each call. Typed as the values themselves, so that Kysely checks them against the columns.
 */
const placeholders = new Proxy({}, { get: (_target, name) => `${MARK}${String(name)}` });

interface Prepared<Row> {
  query: CompiledQuery<Row>;
  /** For each of the compiled query's parameters, the name of the call's value, or undefined for a constant of the built query. */
  slots: (string | undefined)[];
}

function prepare<Row>(query: CompiledQuery<Row>): Prepared<Row> {
  // A placeholder that ended up in the SQL text (sql.raw, sql.ref, an identifier) is no parameter.
  if (query.sql.includes(MARK)) throw new Error('prepared query: a placeholder is part of the SQL text, not a parameter');
  const slots = query.parameters.map((v) => (typeof v === 'string' && v.startsWith(MARK) ? v.slice(MARK.length) : undefined));
  return { query, slots };
}

/**
 * A query built and compiled once per database, then run with the values of each call (decision 0008):
 * Kysely otherwise builds the query tree and compiles it to SQL on every call, which on the token
 * lookups that every refresh, introspection and Bearer request makes, and on the login's writes,
 * cost as much as running them. `build` makes the query with the placeholders `p` in place of the
 * values; each call passes its values by name and gets Kysely's result (rows, and the rows an update
 * or delete changed). Constants of the built query stay as they were built. On PostgreSQL the
 * query also runs as a named statement, parsed and planned once per connection (pg-statements.ts).
 * Keyed by the dialect adapter, which a database and its transactions share.
 */
export function preparedQuery<Values extends object, Row>(build: (db: Kysely<Database>, p: Values) => Compilable<Row>) {
  const compiled = new WeakMap<object, Prepared<Row>>();
  return async (db: Kysely<Database>, values: Values): Promise<QueryResult<Row>> => {
    const adapter = db.getExecutor().adapter;
    let prepared = compiled.get(adapter);
    if (!prepared) {
      prepared = prepare(build(db, placeholders as Values).compile());
      if (isPostgres(db)) nameStatement(prepared.query.sql);
      compiled.set(adapter, prepared);
    }
    const { query, slots } = prepared;
    const named = values as Record<string, unknown>;
    const parameters = slots.map((name, i) => {
      if (name === undefined) return query.parameters[i];
      if (!(name in named)) throw new Error(`prepared query: no value for ${name}`);
      return named[name];
    });
    const sqlite = directSqlite(db);
    return sqlite ? runOn(sqlite, query.sql, parameters) : db.executeQuery<Row>({ ...query, parameters });
  };
}

/**
 * A compiled query run on the SQLite connection itself, outside a transaction (sqlite.ts
 * `directSqlite`, decision 0044): what Kysely's SQLite driver does with it, the same statement
 * (prepared once per connection, sqlite.ts) and the same result, without the driver's connection
 * lock and its hops through the microtask queue.
 */
function runOn<Row>(sqlite: SQLite.Database, text: string, parameters: readonly unknown[]): Promise<QueryResult<Row>> {
  const statement = sqlite.prepare(text);
  if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as Row[] });
  const { changes, lastInsertRowid } = statement.run(parameters);
  return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
}
