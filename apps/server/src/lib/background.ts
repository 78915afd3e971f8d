import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Runs work after the answer has gone out. */
export interface Background {
  run(label: string, task: () => Promise<void>): void;
}

/**
 * The longest a task waits for a response to close: a request whose body never finishes arriving
 * (a client trickling it) would otherwise hold every task back on an otherwise idle server.
 */
export const MAX_WAIT_MS = 2_000;

/**
 * Work a request starts but does not wait for (decision 0005): the answers that must not reveal
 * whether an account exists send their mail and write a member's log rows from here, so that the
 * answer's timing never depends on the lookup or on the mail server.
 *
 * While requests are being answered, a task waits for the next response to close (after its answer
 * has been written, or its client has gone), never longer than MAX_WAIT_MS: one request at a time,
 * as an attacker probes, that is the answer of the request that started it. On the next turn of the
 * event loop alone, a synchronous SQLite insert could still fall before the answer reached the client, and made a
 * member's failed login measurably slower than an unknown id's (the enumeration timing checks,
 * e2e/abuse/enumeration.test.ts). With no request under way a task begins on the next turn. The
 * requests are counted, not followed through their async context: an AsyncLocalStorage per request
 * cost the refresh grant and introspection 13-23% more CPU (bench:compare, docs/performance.md).
 * A failure is logged, never answered. Closing the app starts the waiting tasks and waits for all
 * under way (this onClose hook runs before the one of app.ts that closes the database).
 */
export function backgroundTasks(app: FastifyInstance, log: FastifyBaseLogger = app.log, maxWaitMs = MAX_WAIT_MS): Background {
  const running = new Set<Promise<void>>();
  let answering = 0;
  let waiting: (() => void)[] = [];

  const startWaiting = () => {
    const tasks = waiting;
    waiting = [];
    for (const start of tasks) start();
  };
  // A request stops counting when its response closes, once: after its answer is written, or when
  // its client has gone (Fastify's onResponse and onRequestAbort both miss a POST whose client left
  // after sending its body: no 'finish' comes, and the request was not aborted while it was read).
  app.addHook('onRequest', (_request, reply, done) => {
    answering++;
    reply.raw.once('close', () => {
      answering--;
      startWaiting();
    });
    done();
  });
  app.addHook('onClose', async () => {
    startWaiting();
    while (running.size > 0) await Promise.allSettled([...running]);
  });

  return {
    run(label, task) {
      const p: Promise<void> = new Promise<void>((resolve) => {
        if (answering === 0) return void setImmediate(resolve);
        waiting.push(resolve);
        setTimeout(resolve, maxWaitMs).unref();
      })
        .then(task)
        .catch((err: unknown) => log.error({ err, task: label }, 'background task failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
  };
}
