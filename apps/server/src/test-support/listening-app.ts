import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../db/database.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** A port free on 127.0.0.1 at the moment of asking. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export type ListeningApp = TestApp & { origin: string };

/**
 * The test app (test-app.ts) listening on a real port and being its own PUBLIC_ORIGIN, for what
 * calls the server over HTTP as another system would: a partner's server, a standard client
 * library, the demo partner that fetches the JWK Set.
 */
export function withListeningApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: Parameters<typeof createTestApp>[2] = {},
): ListeningApp {
  const ctx = {} as ListeningApp;
  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    Object.assign(ctx, await createTestApp(dialect, { PUBLIC_ORIGIN: origin, ...env }, overrides), { origin });
    await ctx.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => ctx.close?.());
  return ctx;
}
