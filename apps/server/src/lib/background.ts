import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Runs work after the answer has gone out. */
export interface Background {
  run(label: string, task: () => Promise<void>): void;
}

/**
 * Work a request starts but does not wait for (decision 0005): the answers that must not reveal
 * whether an account exists send their mail from here, so that the answer's timing never depends on
 * the lookup or on the mail server. A failure is logged, never answered. Closing the app waits for
 * the tasks under way (this onClose hook runs before the one of app.ts that closes the database).
 */
export function backgroundTasks(app: FastifyInstance, log: FastifyBaseLogger = app.log): Background {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  });
  return {
    run(label, task) {
      // setImmediate: the task starts once the answer has been handed to the socket.
      const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((err: unknown) => log.error({ err, task: label }, 'background task failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
  };
}
