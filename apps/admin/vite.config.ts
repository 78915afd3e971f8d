import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Text files worth sending compressed. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/** A `.br` and a `.gz` beside every text file, as the member SPA's build writes them (apps/web/vite.config.ts). */
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

/** React Router's production build, as in apps/web/vite.config.ts. */
const reactRouterProduction = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production/index.mjs');

/**
 * The operator console (docs/decisions/0032-operator-identity.md): a build of its own, served under
 * /admin by the API server (apps/server/src/http/spa.ts), so that none of it reaches the member SPA's
 * bundle. The server's CSP allows scripts and styles from 'self' only: no inline script, CSS in
 * files, assets as files rather than data URIs. In development, /api goes to the server on port 3000.
 */
export default defineConfig(({ command }) => ({
  base: '/admin/',
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0, cssCodeSplit: false },
  server: { port: 5174, strictPort: true, proxy: { '/api': 'http://localhost:3000' } },
}));
