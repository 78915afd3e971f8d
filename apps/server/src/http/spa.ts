import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Serves the built SPA at /content (hashed assets cached for a year, index.html never cached) and
 * answers index.html for every other GET under /content so that the router can take the path.
 * A browser that accepts brotli or gzip gets the `.br` or `.gz` the web build wrote beside each
 * text file (docs/performance.md), index.html included; `Vary` keeps caches from mixing the encodings.
 * The build's source maps (`.map`) answer 404 unless `sourceMaps` is set, as it is outside production
 * only: a production system does not hand out its sources (decision 0023).
 */
export async function registerSpa(app: FastifyInstance, webDist: string, options: { sourceMaps?: boolean } = {}): Promise<void> {
  app.get('/', (_req, reply) => reply.redirect('/content/', 302));
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'SPA build not found: run `npm run build:web`');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/content/',
    index: false,
    wildcard: false,
    preCompressed: true,
    // The Cache-Control below, not @fastify/send's default "public, max-age=0", which overrides it.
    cacheControl: false,
    allowedPath: (path) => options.sourceMaps === true || !path.endsWith('.map'),
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  const sendIndex = (_req: unknown, reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  app.get('/content', (_req, reply) => reply.redirect('/content/', 301));
  app.get('/content/', sendIndex);
  app.get('/content/*', sendIndex);
}
