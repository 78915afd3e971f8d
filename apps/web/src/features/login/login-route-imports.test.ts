import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What the login route loads before its first render (the budget of bench/lib/spa-size.ts: the entry,
 * Welcome and the login page, each with what they import statically) takes no library beyond React
 * and its router: zod and the contracts' schemas, the form library, the query cache and WebAuthn
 * load with the screens or the steps that use them, by `import()`. The SPA's build measures the size
 * (npm run build:web, then the bench); this reads the same static import graph from the sources, at
 * unit-test speed, with esbuild (a bundler that, like Rollup, keeps a module an import reaches).
 */
const ROOT = join(import.meta.dirname, '../../../../..');
const WEB = 'apps/web/src';
const ROUTE_ENTRIES = [`${WEB}/main.tsx`, `${WEB}/features/login/welcome-page.tsx`, `${WEB}/features/login/login-page.tsx`];

/** The libraries the login route may load at once: React, its DOM renderer and scheduler, and the router. */
const ROUTE_LIBRARIES = new Set(['react', 'react-dom', 'scheduler', 'react-router']);

/** Every source file the entries reach through static imports, across the chunks esbuild splits them into. */
async function staticallyReached(entries: readonly string[]): Promise<string[]> {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: [...entries],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    loader: { '.css': 'empty', '.svg': 'empty' },
  });
  const outputs: Metafile['outputs'] = metafile.outputs;
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const i of outputs[output]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  for (const [output, o] of Object.entries(outputs)) if (o.entryPoint && entries.includes(o.entryPoint)) visit(output);
  return [...new Set([...seen].flatMap((o) => Object.keys(outputs[o]?.inputs ?? {})))];
}

/** The package a node_modules path belongs to (`@scope/name` or `name`). */
const packageOf = (input: string): string | undefined => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

describe("the login route's static imports", () => {
  it('reach no library but React and the router: no zod, no form library, no query cache, no WebAuthn', async () => {
    const reached = await staticallyReached(ROUTE_ENTRIES);
    expect(reached).toContain(`${WEB}/features/login/login-page.tsx`);
    const libraries = new Set(reached.map(packageOf).filter((p) => p !== undefined));
    expect([...libraries].filter((p) => !ROUTE_LIBRARIES.has(p)).sort()).toEqual([]);
  });

  it('still see what a screen of another route loads, so that the check above can fail', async () => {
    const libraries = new Set((await staticallyReached([`${WEB}/features/passkeys/passkeys-page.tsx`])).map(packageOf));
    expect(libraries).toContain('zod');
  });
});
