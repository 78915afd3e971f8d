import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readMailbox } from '../support/mailbox.ts';
import { DEMO_CARD, DEMO_OPEN, login, post } from './support/client.ts';
import { FUZZ_TABLE, routeKey } from './support/fuzz-endpoints.ts';
import { inPool, send, sendRaw, startFuzzServer, type FuzzRequest, type FuzzServer } from './support/fuzz-http.ts';
import type { HeapReading } from './support/fuzz-server.ts';
import { RAW_TEMPLATES, rawRequests } from './support/fuzz-raw.ts';
import { FuzzTally } from './support/fuzz-report.ts';
import { requestArbitrary, type Endpoint, type FuzzContext } from './support/fuzz-requests.ts';
import { rawVerdict, verdict } from './support/fuzz-verdict.ts';

/**
 * Bad input (docs/security.md "Bad input"): a property-based fuzzer (fast-check) sends at least
 * RUNS generated requests to every route of the server, real HTTP over loopback to a server process
 * of its own (support/fuzz-server.ts). Every answer must keep the property of
 * support/fuzz-verdict.ts (no 5xx, no internals, a result code or an RFC 6749 error or a page), the
 * server must log no error, and its heap after a forced GC must be back near where it started (no
 * request leaves memory behind). The seed is random and printed; FUZZ_SEED=<seed> repeats a run,
 * FUZZ_RUNS=<n> shortens it.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
/** The first tenth of each endpoint's requests warms the server up (JIT, lazy modules, pools) before the heap baseline. */
const WARM_UP = Math.ceil(RUNS / 10);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 24);
/** Raw requests of random header bytes per endpoint, after the fixed ones of support/fuzz-raw.ts. */
const RAW_RANDOM = 20;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
/** Heap growth allowed over RUNS × endpoints requests: a leak of 80 bytes a request would exceed it. */
const HEAP_SLACK = 10 * 1024 * 1024;
const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
/** What the server's JS objects hold after GC: the heap, and the Buffers outside it (RSS rarely shrinks, so it is only shown). */
const held = (m: HeapReading) => m.heapUsed + m.external;

interface Finding {
  endpoint: string;
  why: string;
  request: string;
  answer: string;
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 300)} body(${r.body?.length ?? 0})=${JSON.stringify(r.body?.toString('utf8').slice(0, 300) ?? '')}`;

/** A fresh open member (open sign-up, activation link from the dev mailbox): one whose token an endpoint that ends it (withdrawal, log out everywhere) may use up. */
async function withdrawableMember(origin: string, who: string, tel: string): Promise<string> {
  const email = `fuzz.${who}.${Date.now()}@example.com`;
  const password = 'Victim-pass1';
  const body = { email, last_name: '山田', first_name: '次郎', last_name_kana: 'ヤマダ', first_name_kana: 'ジロウ', sex: '1', birthday: '19950505', postal_code: '1700013', tel, password, password_check: password, email_flg: false, check: true, dry_run: 0, client_id: 'SIAP009' };
  expect((await post(origin, '/api/signup/open', { json: body })).status).toBe(200);
  let token: string | undefined;
  for (let tries = 0; !token && tries < 100; tries++) {
    await new Promise((r) => setTimeout(r, 100));
    token = (await readMailbox(origin)).map((m) => (m.to === email ? /onetime_token=([\w-]+)/.exec(m.text)?.[1] : undefined)).find(Boolean);
  }
  expect((await post(origin, '/api/signup/open/otp', { json: { onetime_token: token } })).status).toBe(200);
  return (await login(origin, email, password)).access_token;
}

describe('bad input: property-based fuzzing of every endpoint', () => {
  let server: FuzzServer;
  let ctx: FuzzContext;
  const tally = new FuzzTally();
  const heap: Record<'start' | 'warm' | 'end', HeapReading> = {} as never;
  /** What broke the property, the first 50 of a test. */
  const note = (findings: Finding[], endpoint: Endpoint, why: string, request: string, answer: string) => {
    if (findings.length < 50) findings.push({ endpoint: routeKey(endpoint), why, request, answer });
  };

  beforeAll(async () => {
    server = await startFuzzServer();
    const origin = server.origin;
    const [card, open] = [await login(origin, DEMO_CARD.user, DEMO_CARD.password), await login(origin, DEMO_OPEN.user, DEMO_OPEN.password)];
    const [victim, leaver] = [await withdrawableMember(origin, 'victim', '08011112222'), await withdrawableMember(origin, 'leaver', '08011113333')];
    ctx = { origin, tokens: { card: card.access_token, open: open.access_token, victim, leaver } };
  });
  afterAll(async () => server?.stop());

  test('the fuzz table has an entry for every route the server registers, and none for a route it does not', () => {
    const registered = new Set(server.routes.map(routeKey));
    const table = FUZZ_TABLE.map(routeKey);
    expect([...registered].filter((k) => !table.includes(k)), 'routes without a fuzz table entry (support/fuzz-endpoints.ts)').toEqual([]);
    expect(table.filter((k) => !registered.has(k)), 'fuzz table entries of no route').toEqual([]);
    expect(new Set(table).size, 'one entry a route').toBe(table.length);
  });

  /** The requests of one phase: `runs` of each endpoint, endpoint after endpoint, generated as the pool takes them. */
  function* phase(runs: number, seedOffset: number): Generator<[Endpoint, FuzzRequest]> {
    for (const [i, e] of FUZZ_TABLE.entries()) {
      for (const r of fc.sample(requestArbitrary(e, ctx), { numRuns: runs, seed: SEED + seedOffset + i })) yield [e, r];
    }
  }

  const run = (requests: Iterable<[Endpoint, FuzzRequest]>, findings: Finding[]) =>
    inPool(requests, CONCURRENCY, async ([e, r]) => {
      tally.sent(e);
      try {
        const a = await send(server.origin, r);
        tally.answered(e, r, a);
        const why = verdict(e, r, a);
        if (why) note(findings, e, why, describeRequest(r), `${a.status} ${JSON.stringify(a.headers['content-type'])} ${a.text.slice(0, 300)}`);
      } catch (err) {
        note(findings, e, `no answer: ${String(err)}`, describeRequest(r), '');
      }
    });

  test(`${RUNS} generated requests to every endpoint answer a result code, an RFC 6749 error or a page; never a 5xx or internals`, async () => {
    const findings: Finding[] = [];
    const started = Date.now();
    const cpu = { server: server.cpuSeconds(), client: process.cpuUsage() };
    heap.start = await server.heap();
    await run(phase(WARM_UP, 0), findings);
    heap.warm = await server.heap();
    await run(phase(RUNS - WARM_UP, 1_000_000), findings);
    // Background work (mails, outbox) of the last requests settles before the heap is read.
    await new Promise((r) => setTimeout(r, 1_000));
    heap.end = await server.heap();
    const seconds = (Date.now() - started) / 1000;
    const clientCpu = process.cpuUsage(cpu.client);
    const total = tally.total();
    // eslint-disable-next-line no-console -- the figures of the run belong in the test output
    console.log(
      [
        `fuzz seed ${SEED}: ${total} requests to ${FUZZ_TABLE.length} endpoints in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s, ${CONCURRENCY} in flight); ` +
          `CPU: server ${(server.cpuSeconds() - cpu.server).toFixed(1)} s, fuzzer ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s`,
        ...tally.lines(FUZZ_TABLE),
        `server memory after GC, heap + external: start ${MB(held(heap.start))}, after warm-up ${MB(held(heap.warm))}, end ${MB(held(heap.end))} ` +
          `(heap ${MB(heap.start.heapUsed)} -> ${MB(heap.warm.heapUsed)} -> ${MB(heap.end.heapUsed)}); RSS ${MB(heap.start.rss)} -> ${MB(heap.end.rss)}`,
      ].join('\n'),
    );

    for (const e of FUZZ_TABLE) expect(tally.sentTo(e), routeKey(e)).toBeGreaterThanOrEqual(RUNS);
    expect(findings, `answers breaking the property (seed ${SEED})`).toEqual([]);
    expect(server.errorLog(), 'errors the server logged').toEqual([]);
  }, 600_000);

  test('the server memory (heap and Buffers) after all requests is back near where it was after the warm-up', () => {
    expect(heap.end, 'the fuzz run above measured the heap').toBeDefined();
    expect(held(heap.end) - held(heap.warm), `grew from ${MB(held(heap.warm))} to ${MB(held(heap.end))}`).toBeLessThan(HEAP_SLACK);
  });

  test('requests no client library sends (oversize header fields, smuggling framing, bad lines, random header bytes) are refused with the 901 body or reach the route', async () => {
    const findings: Finding[] = [];
    const logged = server.errorLog().length;
    const jobs = FUZZ_TABLE.flatMap((e, i) => {
      const path = e.paths ? (fc.sample(e.paths, { numRuns: 1, seed: SEED + i })[0] ?? e.route) : e.route;
      return rawRequests(e, path, RAW_RANDOM, SEED + i).map((bytes, k) => ({ e, bytes, oneRequest: k < RAW_TEMPLATES }));
    });
    await inPool(jobs, 8, async ({ e, bytes, oneRequest }) => {
      // The fixed requests wait 50 ms after their answer for a second one (smuggling).
      const a = await sendRaw(server.origin, bytes, oneRequest ? 50 : 0);
      const why = rawVerdict(e, bytes, a, oneRequest);
      if (why) note(findings, e, `raw: ${why}`, JSON.stringify(bytes.toString('latin1').slice(0, 300)), `${a.status} ${a.text.slice(0, 300)}`);
    });
    expect(findings, `answers to raw requests breaking the property (seed ${SEED})`).toEqual([]);
    expect(server.errorLog().slice(logged), 'errors the server logged').toEqual([]);
  });
});
