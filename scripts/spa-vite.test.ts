import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { markReactRouterPure } from './spa-vite.ts';

/** React Router's production build, which spa-vite.ts aliases the SPAs' `react-router` to. */
const routerBuild = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
const routerFiles = readdirSync(routerBuild).filter((f) => f.endsWith('.mjs'));

/** The production build bundled for an app that uses only Link, with or without the marks. */
async function bundleWithLinkOnly(marked: boolean): Promise<string> {
  const mark: Plugin = {
    name: 'mark',
    setup(b) {
      b.onLoad({ filter: /react-router[/\\]dist[/\\]production[/\\].*\.mjs$/ }, (args) => ({
        contents: marked ? markReactRouterPure(readFileSync(args.path, 'utf8')) : readFileSync(args.path, 'utf8'),
        loader: 'js',
      }));
    },
  };
  const { outputFiles } = await build({
    stdin: { contents: `import { Link } from ${JSON.stringify(join(routerBuild, 'index.mjs'))}; console.log(Link);`, resolveDir: routerBuild },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    external: ['react', 'react-dom', 'cookie', 'set-cookie-parser'],
    plugins: [mark],
  });
  return outputFiles[0]!.text;
}

describe("React Router's production build marked pure", () => {
  it('lets a bundler drop the components an app does not use (NavLink, Form) and keep the display name of those it does', async () => {
    const unmarked = await bundleWithLinkOnly(false);
    const marked = await bundleWithLinkOnly(true);
    // NavLink's own attribute: there without the marks, gone with them.
    expect(unmarked).toContain('aria-current');
    expect(marked).not.toContain('aria-current');
    expect(marked).toMatch(/displayName: "Link"/);
    expect(marked.length).toBeLessThan(unmarked.length);
  });

  it('moves no line, and leaves no display name of what it marks on a statement of its own', () => {
    let marks = 0;
    for (const file of routerFiles) {
      const code = readFileSync(join(routerBuild, file), 'utf8');
      const marked = markReactRouterPure(code);
      expect(marked.split('\n')).toHaveLength(code.split('\n').length);
      expect(marked).not.toMatch(/^var \w+ = React\d*\.(forwardRef|memo|createContext)\(/m);
      const made = new Set([...code.matchAll(/^var (\w+) = React\d*\.(?:forwardRef|memo|createContext)\(/gm)].map((m) => m[1]));
      for (const [, variable, name] of code.matchAll(/^(\w+)\.displayName = ("[^"\n]*");$/gm)) {
        if (!made.has(variable)) continue;
        expect(marked).not.toContain(`\n${variable}.displayName = `);
        expect(marked).toContain(`{ displayName: ${name} }`);
      }
      marks += made.size;
    }
    expect(marks).toBeGreaterThan(10);
  });
});
