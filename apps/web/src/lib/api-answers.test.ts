import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';
import * as loginAnswers from './login-answers.ts';

/**
 * Every call the SPA makes reads its answer with the schema the API catalogue names as that route's
 * answer (packages/contracts/src/api-catalogue.ts), imported from the contracts: never a local copy,
 * never a cast. Read from the sources: each `apiPost(path, schema` with its path, or, where the path
 * is a parameter (a helper several calls share), with every '/api/...' literal of its file that no
 * call names directly.
 */
const SRC = join(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.tsx?$/.test(d.name) && !d.name.includes('.test.') && d.name !== 'api-client.ts' ? [path] : [];
  });

/** The catalogue's POST routes by path (an array or a keyed record of routes alike). */
const routes = new Map(
  Object.values(API_CATALOGUE)
    .filter((r) => r.method === 'POST')
    .map((r) => [r.path, r.answer]),
);

/** The catalogue's answer, or one of its union's (the token endpoint answers each grant its own). */
const answers = (path: string): unknown[] => {
  const answer = routes.get(path) as (z.ZodType & { options?: unknown[] }) | undefined;
  return answer === undefined ? [] : [answer, ...(answer.options ?? [])];
};

interface Call {
  file: string;
  path: string | undefined;
  schema: string;
}

const CALL = /apiPost\(\s*(?:'([^']+)'|\w+)\s*,\s*(?:'(\w+)'|(\w+))/g;

async function calls(file: string): Promise<{ call: Call; schema: unknown; paths: string[] }[]> {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(CALL)];
  const direct = new Set(found.map((m) => m[1]).filter((p) => p !== undefined));
  const shared = [...new Set([...text.matchAll(/'(\/api\/[^']+)'/g)].map((m) => m[1] as string))].filter((p) => !direct.has(p));
  return Promise.all(
    found.map(async ([, path, byName, identifier]) => {
      const call = { file: relative(SRC, file), path, schema: (byName ?? identifier) as string };
      let schema: unknown;
      if (byName) schema = (loginAnswers as Record<string, unknown>)[byName];
      else {
        const from = new RegExp(`import\\s*\\{[^}]*\\b${identifier}\\b[^}]*\\}\\s*from\\s*'@sso/contracts/([\\w-]+)'`).exec(text)?.[1];
        schema = from === undefined ? undefined : ((await import(`@sso/contracts/${from}`)) as Record<string, unknown>)[identifier as string];
      }
      return { call, schema, paths: path === undefined ? shared : [path] };
    }),
  );
}

describe("the SPA's API calls", () => {
  it('read each answer with the contract schema the API catalogue names for its route', async () => {
    const all = (await Promise.all(sources(SRC).map(calls))).flat();
    expect(all.length).toBeGreaterThan(50);
    const wrong = all.flatMap(({ call, schema, paths }) => {
      if (schema === undefined) return [`${call.file}: ${call.schema} is no schema of packages/contracts (or of lib/login-answers.ts)`];
      if (paths.length === 0) return [`${call.file}: no path found for the call with ${call.schema}`];
      return paths.filter((p) => !answers(p).includes(schema)).map((p) => `${call.file}: ${p} answers another schema than ${call.schema}`);
    });
    expect(wrong).toEqual([]);
  });

  it("name only the login route's answers in lib/login-answers.ts, each of them a catalogue answer", () => {
    const catalogued = new Set([...routes.keys()].flatMap(answers));
    const strays = Object.entries(loginAnswers).filter(([, schema]) => !catalogued.has(schema)).map(([name]) => name);
    expect(strays).toEqual([]);
  });
});
