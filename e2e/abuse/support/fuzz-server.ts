/**
 * The server process of the fuzzer (e2e/abuse/fuzz.test.ts), started by `startFuzzServer` in
 * fuzz-http.ts with `node --expose-gc --import tsx`. It is the real app (buildApp, as main.ts runs
 * it, NODE_ENV=development with the demo data) on its own SQLite file, listening on loopback, plus
 * two things only a process of its own can give:
 *
 * - the list of every route Fastify registered, caught with an `onRoute` hook that is attached
 *   through Fastify's `fastify.initialization` diagnostics channel before buildApp registers its
 *   first route (routes of helpers such as memberPost and of plugins such as @fastify/static
 *   included), so that a route added later without a fuzz table entry fails the test;
 * - the JS heap and the external memory JS objects hold (Buffers) after a forced garbage collection,
 *   on request over IPC: the server's memory alone, without the fuzzer's own allocations in it.
 */
import { buildApp, loadConfig } from '@sso/server/test-support/internals';
import { catchRegisteredRoutes } from '@sso/server/test-support';

export interface FuzzServerReady {
  type: 'ready';
  routes: { method: string; url: string }[];
}
export interface HeapReading {
  type: 'heap';
  heapUsed: number;
  /** Memory of Buffers and other objects outside the JS heap that JS objects hold (a retained request body is here). */
  external: number;
  rss: number;
}

// The same catch of every registered route as the API tests' (scopes, OpenAPI), before buildApp's first route.
const registered = catchRegisteredRoutes();

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('fuzz-server needs --expose-gc');

const config = loadConfig({ ...process.env, NODE_ENV: 'development', SEED_DEMO: 'true', SMTP_SINK_PORT: '0' });
const app = await buildApp(config);
await app.listen({ port: config.port, host: '127.0.0.1' });
const routes = [...registered.keys()].map((key) => {
  const [method = '', url = ''] = key.split(/ (.*)/s);
  return { method, url };
});
process.send?.({ type: 'ready', routes } satisfies FuzzServerReady);

process.on('message', (message) => {
  if (message === 'heap') {
    // Twice, with a turn of the event loop between: objects freed by finalizers go in the second.
    gc();
    setImmediate(() => {
      gc();
      const m = process.memoryUsage();
      process.send?.({ type: 'heap', heapUsed: m.heapUsed, external: m.external, rss: m.rss } satisfies HeapReading);
    });
  }
  if (message === 'stop') void app.close().then(() => process.exit(0));
});
