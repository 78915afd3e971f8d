import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '@sso/server/test-support';

/**
 * The JavaScript the login route loads (budget: BUDGETS.loginRouteJs, lib/budgets.ts), read from the SPA build's
 * manifest (apps/web/vite.config.ts writes it): the entry chunk of index.html and the chunks of the
 * welcome page (`/content/`, which sends the member on to the login) and the login page, each with
 * the chunks they import statically, transitively, each file counted once. Chunks loaded later by
 * `import()` (the other screens, the shape checks) are not: the route does not wait for them.
 */
interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export const LOGIN_ROUTE_MODULES = ['index.html', 'src/features/login/welcome-page.tsx', 'src/features/login/login-page.tsx'] as const;

export interface RouteJs {
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
}

export function routeJavaScript(dist = join(ROOT, 'apps/web/dist'), modules: readonly string[] = LOGIN_ROUTE_MODULES): RouteJs {
  const manifestFile = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`no SPA build manifest at ${manifestFile}: run npm run build:web first`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the SPA build has no chunk for ${key}`);
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const m of modules) visit(m);
  const files = [...seen]
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { files, gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0) };
}
