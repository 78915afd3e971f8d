import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundTasks, type Background } from './background.ts';

/** The longest wait of these tests' tasks for a response to close. */
const MAX_WAIT = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a task saw when it began: whether its request's answer had been written. */
interface Seen {
  answered: boolean;
}

let app: FastifyInstance;
let background: Background;
let origin: string;
const seen: Seen[] = [];
const failures: unknown[] = [];

/** A listening app whose routes start a task; onSend holds every answer 30 ms, as a slow hook or a big answer would. */
async function start(): Promise<void> {
  seen.length = 0;
  failures.length = 0;
  // The abandoned request's socket is closed at once rather than waited for.
  app = Fastify({ forceCloseConnections: true });
  background = backgroundTasks(app, { ...app.log, error: (o: unknown) => failures.push(o) } as FastifyInstance['log'], MAX_WAIT);
  app.addHook('onSend', async () => {
    await sleep(30);
  });
  app.post('/task', async (_request, reply) => {
    background.run('test', async () => {
      seen.push({ answered: reply.raw.writableFinished });
    });
    return { ok: true };
  });
  app.get('/failing-task', async () => {
    background.run('failing', async () => {
      throw new Error('mail server down');
    });
    return { ok: true };
  });
  // A GET's client leaving is seen as an aborted request; a POST's, once its body has been read, is not (Fastify's onRequestAbort).
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/slow',
      handler: async (_request, reply) => {
        await sleep(100);
        background.run('after an abort', async () => {
          seen.push({ answered: reply.raw.writableFinished });
        });
        return { ok: true };
      },
    });
  }
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await sleep(10);
};

afterEach(async () => {
  await app?.close();
});

describe('background tasks (decision 0005)', () => {
  it('a task a request starts begins once its answer has been written', async () => {
    await start();
    const answer = await fetch(`${origin}/task`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await answer.json()).toEqual({ ok: true });
    await until(() => seen.length > 0);
    // setImmediate alone began it during the 30 ms onSend, before the answer was written.
    expect(seen).toEqual([{ answered: true }]);
  });

  it('a failing task is logged and the answer is unaffected', async () => {
    await start();
    const answer = await fetch(`${origin}/failing-task`);
    expect(answer.status).toBe(200);
    await until(() => failures.length > 0);
    expect(failures).toEqual([expect.objectContaining({ task: 'failing' })]);
  });

  it('a task started outside any request runs, and closing the app waits for it', async () => {
    await start();
    let finished = false;
    background.run('outside', async () => {
      await sleep(50);
      finished = true;
    });
    await app.close();
    expect(finished).toBe(true);
  });

  it.each(['GET', 'POST'] as const)('a task of a %s its client abandoned still runs, and tasks after it start at once', async (method) => {
    await start();
    const controller = new AbortController();
    const body = method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{"a":1}' } : {};
    const call = fetch(`${origin}/slow`, { method, ...body, signal: controller.signal }).catch(() => 'aborted');
    await sleep(20);
    controller.abort();
    expect(await call).toBe('aborted');
    await until(() => seen.length > 0);
    expect(seen).toHaveLength(1);
    // No request is under way any more: a task started now does not wait for one.
    let ran = false;
    background.run('idle', async () => {
      ran = true;
    });
    await until(() => ran);
    expect(ran).toBe(true);
  });

  it('a request whose body never finishes holds no task back longer than the longest wait', async () => {
    await start();
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers and half the body: the request is being answered until its client sends the rest.
    socket.write('POST /task HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a":');
    await sleep(50);
    const began = Date.now();
    let ran = 0;
    background.run('while a body trickles', async () => {
      ran = Date.now();
    });
    await until(() => ran > 0);
    socket.destroy();
    expect(ran - began).toBeGreaterThanOrEqual(MAX_WAIT - 20);
    expect(ran - began).toBeLessThan(MAX_WAIT + 1_000);
  });
});
