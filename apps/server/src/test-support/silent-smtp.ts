import { createServer, type Server, type Socket } from 'node:net';

/** Well below the wait for a silent mail server (seconds), well above a loaded machine's answer. */
export const QUICK_MS = 1500;

export interface SilentSmtp {
  /** The connections the server has taken: one per mail being sent. */
  sockets: Socket[];
  port: number;
  close(): Promise<void>;
}

/**
 * A mail server that takes the connection and never says a word: a sender waits for nodemailer's
 * greeting timeout, so an answer that awaited its mail could not come quickly (decision 0005).
 */
export function silentSmtp(): Promise<SilentSmtp> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        sockets,
        port: (server.address() as { port: number }).port,
        close: async () => {
          // The mails under way fail at once (and stay in the outbox for a retry).
          for (const s of sockets) s.destroy();
          await new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

/** Runs f and says how long it took. */
export async function timed<T>(f: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await f();
  return { result, ms: performance.now() - start };
}
