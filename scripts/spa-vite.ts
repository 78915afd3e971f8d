import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { BuildOptions, Plugin, ServerOptions, UserConfigFnObject } from 'vite';

/*
 * What the two browser apps build alike: the member SPA (apps/web/vite.config.ts) and the operator
 * console (apps/admin/vite.config.ts, decision 0032). Each config keeps only what is its own: its
 * base path, its development port, and what else it adds.
 */

/** Text files worth sending compressed. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Writes a `.br` and a `.gz` beside every text file of the build (docs/performance.md), which the
 * server sends to browsers that accept them (@fastify/static `preCompressed`): compressed once at
 * build time at the highest levels rather than on every request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      for (const file of walk('dist').filter((f) => COMPRESSIBLE.test(f))) {
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * React Router 7 points every import condition at its development build, whose development-only
 * warnings (ENABLE_DEV_WARNINGS) then run in the browser (remix-run/react-router#12532, #14753). Its
 * framework plugin swaps in the production build; a library-mode app like these has to do it
 * itself. The difference is small (1.7 KB; the router's script time on the login page barely
 * moved), but a production bundle should not carry a development build.
 */
const reactRouterProduction = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production/index.mjs');

/**
 * React Router's production build makes its components and contexts by top-level calls to React
 * (`var NavLink = React10.forwardRef(...)`, then `NavLink.displayName = "NavLink"`) that carry no
 * `@__PURE__` annotation, so Rollup keeps every one of them, with all it calls, whether the app uses
 * it or not: NavLink and Form, and with them the view transitions' hook and the form submission
 * helpers. forwardRef, memo and createContext only make an object: this marks those calls pure and
 * moves the display name that follows into the same expression (`Object.assign`, marked pure too),
 * so that Rollup drops what nothing uses and what is used keeps its name (bench/lib/spa-size.ts).
 * No line moves (the display name's line is left empty), so no source map is needed.
 */
export function markReactRouterPure(code: string): string {
  const named = code.replace(
    /^(var (\w+) = )(React\d*\.(?:forwardRef|memo|createContext)\([\s\S]*?\));\n\2\.displayName = ("[^"\n]*");$/gm,
    '$1/* @__PURE__ */ Object.assign(/* @__PURE__ */ $3, { displayName: $4 });\n',
  );
  return named.replace(/^(var \w+ = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm, '$1/* @__PURE__ */ $2');
}

function pureReactRouter(): Plugin {
  const routerBuild = `${dirname(reactRouterProduction)}/`;
  return {
    name: 'pure-react-router',
    apply: 'build',
    transform: (code, id) => (id.startsWith(routerBuild) ? { code: markReactRouterPure(code), map: null } : null),
  };
}

/**
 * The Vite config of a browser app served by the API server under `base`. The server's CSP allows
 * scripts and styles from 'self' only, so nothing is inlined: no inline script, CSS in files, and
 * assets (the logo) as files rather than data URIs. One stylesheet linked from index.html rather
 * than one per chunk: a lazy screen's CSS files held up its first render, each a request of its own
 * (docs/performance.md). `build` and `server` add to these settings.
 */
export function spaConfig(own: { base: string; build?: BuildOptions; server: ServerOptions }): UserConfigFnObject {
  return ({ command }) => ({
    base: own.base,
    resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
    plugins: [react(), pureReactRouter(), precompress()],
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0, cssCodeSplit: false, ...own.build },
    server: { strictPort: true, ...own.server },
  });
}
