import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One owner per table (ARCHITECTURE.md "Boundaries"; docs/architecture.md "Who owns each table"):
 * every product file under apps/server/src that names a table in its SQL is one of the repo files
 * the table's row in docs/architecture.md lists.
 */

const SRC = fileURLToPath(new URL('./', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url));
const SCHEMA = path.join(SRC, 'db/schema.ts');

/** Files that may name any table: the migrations build the schema, the retention sweep deletes what expired everywhere. */
const ANY_TABLE = (file: string) => file.startsWith('db/migrations/') || file === 'db/maintenance.ts';

interface Owner {
  folder: string;
  files: string[];
}

/** The rows of the owners table: `| \`table\` | folder | \`file.ts\`, ... |`. */
function owners(): Map<string, Owner> {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf('## Who owns each table');
  if (start < 0) throw new Error('docs/architecture.md has no section "Who owns each table"');
  const rows = new Map<string, Owner>();
  for (const [, table = '', folder = '', list = ''] of doc.slice(start).matchAll(/^\| `(\w+)` \| ([\w/-]+) \| (.+) \|$/gm)) {
    const files = [...list.matchAll(/`([\w.-]+\.ts)`/g)].map(([, file]) => `${folder}/${file}`);
    if (rows.has(table)) throw new Error(`docs/architecture.md names two owners of ${table}`);
    rows.set(table, { folder, files });
  }
  return rows;
}

/** The tables of the Kysely `Database` interface in db/schema.ts. */
function schemaTables(): string[] {
  const body = /export interface Database \{([^}]*)\}/.exec(readFileSync(SCHEMA, 'utf8'))?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+):/gm)].map(([, table = '']) => table);
}

/** Every non-test .ts file under src, relative to it (test code and its kits are not the product). */
function productFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = path.join(dir, name);
    const rel = path.relative(SRC, abs).split(path.sep).join('/');
    if (statSync(abs).isDirectory()) return rel === 'test-support' ? [] : productFiles(abs);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** The tables a file's SQL names: the first argument of the query builder's table methods, and words of `sql` templates. */
function tablesNamed(source: string, tables: readonly string[]): { tables: Set<string>; unreadable: string[] } {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const named = new Set<string>();
  const unreadable: string[] = [];
  for (const m of code.matchAll(/\b(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto)\(\s*(['"`]([\w]+)[^'"`]*['"`])?/g)) {
    if (m[3] === undefined) unreadable.push(m[0]);
    else named.add(m[3]);
  }
  // A common table expression (`with('name', …)`) is read like a table, and is none (unless it is named as one).
  for (const [, name = ''] of code.matchAll(/\.with\(\s*['"`](\w+)['"`]/g)) if (!tables.includes(name)) named.delete(name);
  for (const [, text = ''] of code.matchAll(/\bsql(?:<[^`]*?>)?`([^`]*)`/g)) {
    for (const t of tables) if (new RegExp(`\\b${t}\\b`).test(text)) named.add(t);
  }
  return { tables: named, unreadable };
}

describe('one owner per table (docs/architecture.md "Who owns each table")', () => {
  const rows = owners();
  const tables = schemaTables();

  it('names one owner for every table of the schema, and only files that exist in it', () => {
    expect(tables.length).toBeGreaterThan(10);
    expect([...rows.keys()].sort()).toEqual([...tables].sort());
    const files = new Set(productFiles());
    const missing = [...rows.values()].flatMap((o) => o.files.filter((f) => !files.has(f)));
    expect(missing).toEqual([]);
  });

  it("keeps each table's SQL in its owner's repo files", () => {
    const outside: string[] = [];
    for (const file of productFiles()) {
      if (ANY_TABLE(file)) continue;
      const found = tablesNamed(readFileSync(path.join(SRC, file), 'utf8'), tables);
      for (const u of found.unreadable) outside.push(`${file}: ${u} names no table this test can read`);
      for (const table of found.tables) {
        const owner = rows.get(table);
        if (owner === undefined) outside.push(`${file}: ${table} is no table of db/schema.ts`);
        else if (!owner.files.includes(file)) {
          outside.push(`${file}: ${table} belongs to ${owner.folder} (${owner.files.join(', ')})`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('reads the tables of builder calls and sql templates', () => {
    const src = "db.selectFrom('users as u').innerJoin('sub_users as s', 'x', 'y');\n// db.deleteFrom('outbox')\nsql<number>`CASE WHEN rate_limits.count > 1`; db.updateTable(name)";
    const found = tablesNamed(src, ['users', 'sub_users', 'outbox', 'rate_limits']);
    expect([...found.tables].sort()).toEqual(['rate_limits', 'users']);
    expect(found.unreadable).toEqual(['updateTable(']);
  });
});
