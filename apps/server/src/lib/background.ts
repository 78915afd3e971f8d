import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** Runs work after the answer has gone out. */
export interface Background {
  run(label: string, task: () => Promise<void>): void;
}

/** The tasks a request started, held until its answer has gone out: what starts each (null: gone out). */
interface Held {
  tasks: (() => void)[] | null;
}

const HELD = Symbol('background tasks of the request');
/** A request's held tasks, and its async context to enter again after the body is read (preValidation below). */
type HoldingRequest = FastifyRequest & { [HELD]?: { held: Held; scope: AsyncResource } };

/**
 * Work a request starts but does not wait for (decision 0005): the answers that must not reveal
 * whether an account exists send their mail and write a member's log rows from here, so that the
 * answer's timing never depends on the lookup or on the mail server.
 *
 * A task started while a request is answered begins once that answer has been written (Fastify's
 * onResponse, after the response's 'finish'), not merely on the next turn of the event loop: a
 * synchronous SQLite insert run by setImmediate could still fall before the answer reached the
 * client, and made a member's failed login measurably slower than an unknown id's (the
 * enumeration timing checks, e2e/abuse/enumeration.test.ts). A task started outside a request, or
 * after its answer, begins on the next turn. A failure is logged, never answered. Closing the app
 * waits for the tasks under way (this onClose hook runs before the one of app.ts that closes the
 * database).
 */
export function backgroundTasks(app: FastifyInstance, log: FastifyBaseLogger = app.log): Background {
  const requests = new AsyncLocalStorage<Held>();
  const running = new Set<Promise<void>>();
  const held = new Set<Held>();

  const release = (h: Held | undefined) => {
    if (!h?.tasks) return;
    const tasks = h.tasks;
    h.tasks = null;
    held.delete(h);
    for (const task of tasks) task();
  };

  app.addHook('onRequest', (request: HoldingRequest, _reply, done) => {
    const h: Held = { tasks: [] };
    held.add(h);
    requests.run(h, () => {
      request[HELD] = { held: h, scope: new AsyncResource('background-tasks') };
      done();
    });
  });
  // The body is read in the socket's own async context, which has lost the request's store: the
  // handler runs in it again (as @fastify/request-context does).
  app.addHook('preValidation', (request: HoldingRequest, _reply, done) => {
    const scope = request[HELD]?.scope;
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
  app.addHook('onResponse', (request: HoldingRequest, _reply, done) => {
    release(request[HELD]?.held);
    done();
  });
  app.addHook('onRequestAbort', (request: HoldingRequest, done) => {
    release(request[HELD]?.held);
    done();
  });
  app.addHook('onClose', async () => {
    for (const h of [...held]) release(h);
    while (running.size > 0) await Promise.allSettled([...running]);
  });

  return {
    run(label, task) {
      const h = requests.getStore();
      const p: Promise<void> = new Promise<void>((resolve) => (h?.tasks ? h.tasks.push(resolve) : setImmediate(resolve)))
        .then(task)
        .catch((err: unknown) => log.error({ err, task: label }, 'background task failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
  };
}
