import pg from 'pg';

/**
 * The SQL texts that run as named (server-side prepared) statements on PostgreSQL, each with its
 * name: the queries compiled once by prepared-query.ts, a fixed set. PostgreSQL then parses and
 * plans each once per connection instead of on every call (the backend shares the node's cores in
 * a small deployment, and a token lookup's parse and plan cost about what running it does;
 * docs/performance.md, "PostgreSQL: where the time goes"). Other statements stay unnamed: a text
 * built per call (an `in` list of any length) would leave a prepared statement per shape in every
 * connection.
 */
const names = new Map<string, string>();

/** Marks a compiled query's text to run as a named statement; the same text always has the same name. */
export function nameStatement(text: string): void {
  if (!names.has(text)) names.set(text, `sso_${names.size}`);
}

const clientQuery = pg.Client.prototype.query as unknown as (this: pg.Client, ...args: unknown[]) => unknown;

/** Kysely's PostgreSQL driver calls `query(text, values)`: a marked text runs as its named statement. */
function namingQuery(this: pg.Client, ...args: unknown[]): unknown {
  const [text, values] = args;
  const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
  return name === undefined ? clientQuery.apply(this, args) : clientQuery.call(this, { name, text, values });
}

/**
 * node-postgres' client, running a marked text as the named statement: parsed the first time on a
 * connection, then only bound and executed.
 */
export class NamingClient extends pg.Client {}
NamingClient.prototype.query = namingQuery as pg.Client['query'];
