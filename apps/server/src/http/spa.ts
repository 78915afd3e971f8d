import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Serves the built SPA at /content (and the operator console at /admin, the same way) (hashed assets cached for a year, index.html never cached) and
 * answers index.html for every other GET under /content so that the router can take the path.
 * A browser that accepts brotli or gzip gets the `.br` or `.gz` the web build wrote beside each
 * text file (docs/performance.md), index.html included; `Vary` keeps caches from mixing the encodings.
 * The build's source maps (`.map`) answer 404 unless `sourceMaps` is set, as it is outside production
 * only: a production system does not hand out its sources (decision 0023).
 */
export async function registerSpa(app: FastifyInstance, webDist: string, options: { sourceMaps?: boolean; adminDist?: string } = {}): Promise<void> {
  app.get('/', (_req, reply) => reply.redirect('/content/', 302));
  await serveBuild(app, webDist, 'content', 'build:web', options.sourceMaps === true);
  // The operator console (docs/decisions/0032-operator-identity.md): a build of its own at /admin,
  // so that none of its code reaches the member SPA's bundle.
  if (options.adminDist !== undefined) await serveBuild(app, options.adminDist, 'admin', 'build:admin', options.sourceMaps === true);
}

/**
 * One Vite build under `/<prefix>/`: its files, and index.html for every other GET under the prefix.
 * Each build is registered in a scope of its own, so that each reply's `sendFile` reads its own root.
 */
async function serveBuild(app: FastifyInstance, dist: string, prefix: string, script: string, sourceMaps: boolean): Promise<void> {
  if (!existsSync(join(dist, 'index.html'))) {
    app.log.warn({ dist }, `${prefix} build not found: run \`npm run ${script}\``);
    return;
  }
  await app.register(async (scope) => {
    // A route per file (wildcard: false): in the request-duration histogram (http/request-log.ts) the
    // build's files and deep links are one series, not one per hashed file name that each build renames.
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, metricsRoute: `/${prefix}/*` };
    });
    await scope.register(fastifyStatic, {
      root: dist,
      prefix: `/${prefix}/`,
      index: false,
      wildcard: false,
      preCompressed: true,
      // The Cache-Control below, not @fastify/send's default "public, max-age=0", which overrides it.
      cacheControl: false,
      allowedPath: (path) => sourceMaps || !path.endsWith('.map'),
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
    const sendIndex = (_req: unknown, reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    scope.get(`/${prefix}`, (_req, reply) => reply.redirect(`/${prefix}/`, 301));
    scope.get(`/${prefix}/`, sendIndex);
    scope.get(`/${prefix}/*`, sendIndex);
  });
}
