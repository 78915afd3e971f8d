import { createServer } from 'node:net';
import type { Dialect } from '../db/database.ts';
import { createTestApp, type TestApp } from './test-app-core.ts';

/** A port free on 127.0.0.1 at the moment of asking. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export type ListeningApp = TestApp & { origin: string };

/** The test app listening on a free port of 127.0.0.1 and being its own PUBLIC_ORIGIN. */
export async function startListeningApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: Parameters<typeof createTestApp>[2] = {},
): Promise<ListeningApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = Object.assign(await createTestApp(dialect, { PUBLIC_ORIGIN: origin, ...env }, overrides), { origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  return t;
}
