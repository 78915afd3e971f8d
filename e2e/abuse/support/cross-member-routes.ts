import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/server.ts';

/**
 * The server's routes, found in its source and then asked over HTTP which of them want a Bearer
 * token. Fastify's route list (printRoutes, onRoute) is not reachable from outside a running
 * process, so the source gives the candidates and the running server gives the answer:
 * - every route registration (`app.get/post/...(` and `memberPost(`) in apps/server/src must name
 *   its path as a string literal or a `const` holding one; one that does not is reported, so that a
 *   new way of registering routes cannot slip past this list unseen;
 * - each route is then called without a token: a Bearer endpoint answers HTTP 401 with result 300
 *   (SPEC.md section 8) before reading the body (account/member-post.ts, profile/routes.ts), which also
 *   catches a Bearer route written by hand instead of with memberPost.
 */

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Registered with memberPost: a Bearer endpoint by construction. */
  memberPost: boolean;
}

const SERVER_SRC = join(ROOT, 'apps/server/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** A call that registers a route (not the definition of memberPost itself), up to its first path argument. */
const REGISTRATION = /(?<!function\s)\b(memberPost|app\.(?:get|post|put|patch|delete|all|route))\s*(?:<[^>]*>)?\(\s*(?:app\s*,\s*deps\s*,\s*)?([^,)]*)/g;

export function routesInSource(): { routes: Route[]; unreadable: string[] } {
  const files = sourceFiles(SERVER_SRC).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
  const all = files.map((x) => x.text).join('\n');
  const constant = (name: string) => new RegExp(`\\bconst ${name}\\s*=\\s*'([^']+)'`).exec(all)?.[1];
  const routes: Route[] = [];
  const unreadable: string[] = [];
  for (const { f, text } of files) {
    // memberPost's own app.post(url, ...) registers what its callers name: those calls are read instead.
    const wrapper = /export function memberPost\b/.test(text);
    for (const m of text.matchAll(REGISTRATION)) {
      if (wrapper && m[2]!.trim() === 'url') continue;
      const [, call, arg] = m as unknown as [string, string, string];
      const literal = /^'([^']+)'$/.exec(arg.trim())?.[1] ?? (/^[A-Z_][A-Z0-9_]*$/.test(arg.trim()) ? constant(arg.trim()) : undefined);
      const verb = call === 'memberPost' ? 'post' : call.slice(4);
      if (!literal || verb === 'all' || verb === 'route') unreadable.push(`${f.slice(ROOT.length)}: ${m[0]}`);
      else routes.push({ method: verb.toUpperCase() as Route['method'], path: literal, memberPost: call === 'memberPost' });
    }
  }
  return { routes, unreadable };
}

/** Whether the route refuses a caller without a token as SPEC.md section 7's (Bearer) endpoints do. */
export async function wantsBearer(origin: string, r: Route): Promise<boolean> {
  const url = `${origin}${r.path.replace(/:\w+/g, 'x').replace(/\*/g, 'x')}`;
  const res = await fetch(url, r.method === 'GET' ? { redirect: 'manual' } : { method: r.method, redirect: 'manual', headers: { 'content-type': 'application/json' }, body: '{}' });
  const text = await res.text();
  if (res.status !== 401) return false;
  try {
    return (JSON.parse(text) as { result_code?: unknown }).result_code === 300;
  } catch {
    return false;
  }
}
