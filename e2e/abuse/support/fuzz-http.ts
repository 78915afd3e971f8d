import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from '../../support/server.ts';
import type { FuzzServerReady, HeapReading } from './fuzz-server.ts';

/** One generated request, as sent on the wire. */
export interface FuzzRequest {
  method: string;
  /** Path and query, as written on the request line (already percent-encoded where it should be). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface FuzzServer {
  origin: string;
  routes: FuzzServerReady['routes'];
  /** The server's JS heap after a forced GC, and its RSS, in bytes. */
  heap(): Promise<HeapReading>;
  /** CPU seconds the server process has used so far (user + system, from /proc). */
  cpuSeconds(): number;
  /** What the server logged at level error or above (pino JSON lines): an unhandled error shows here. */
  errorLog(): string[];
  stop(): Promise<void>;
}

/** A tiny SPA build, so that the static and deep-link routes of /content exist whether or not apps/web/dist was built. */
/** A build of one file and one asset, for the SPA (`web`) and the operator console (`admin`). */
function fakeWebDist(dir: string, name = 'web'): string {
  const dist = join(dir, name);
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>SPA</title></head><body><div id="root"></div></body></html>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'document.title = "SPA";');
  return dist;
}

const once = <T>(child: ChildProcess, type: string) =>
  new Promise<T>((resolve, reject) => {
    const onMessage = (m: { type?: string }) => {
      if (m?.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => reject(new Error(`fuzz server exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });

/** A security event's log line (lib/security-events.ts): JSON with `log_type` `security`. */
function isSecurityEvent(line: string): boolean {
  try {
    return (JSON.parse(line) as { log_type?: unknown }).log_type === 'security';
  } catch {
    return false;
  }
}

/** Starts fuzz-server.ts in a process of its own (see there why) on a fresh SQLite file and a free port. */
export async function startFuzzServer(): Promise<FuzzServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-fuzz-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = fork(join(ROOT, 'e2e/abuse/support/fuzz-server.ts'), [], {
    cwd: ROOT,
    // Node 24 warns once on stderr that SubtleCrypto.supports() is experimental, which
    // @simplewebauthn/server calls to learn whether ML-DSA passkeys can be verified: a notice, not an error.
    execArgv: ['--expose-gc', '--disable-warning=ExperimentalWarning', '--import', 'tsx'],
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATABASE_URL: `sqlite:${join(dir, 'sso.db')}`,
      WEB_DIST: fakeWebDist(dir),
      ADMIN_DIST: fakeWebDist(dir, 'admin'),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const errors: string[] = [];
  // Every line the server writes at LOG_LEVEL=error is an error, but the security events, which it
  // writes at info whatever the level for the SIEM (docs/security-events.md): the fuzzer's wrong
  // passwords and unknown ids are such events, not faults.
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() && !isSecurityEvent(line)) errors.push(line.slice(0, 4000));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const ready = await once<FuzzServerReady>(child, 'ready');
  return {
    origin,
    routes: ready.routes,
    heap: async () => {
      const reading = once<HeapReading>(child, 'heap');
      child.send('heap');
      return reading;
    },
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    errorLog: () => [...errors],
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.send('stop');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Keep-alive sockets, as many as requests in flight: the fuzzer is one busy client. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** The server's bodyLimit (app.ts): a longer body is refused with 413 as soon as its Content-Length is read. */
const BODY_LIMIT = 64 * 1024;

/** How long a head-first request waits for an early answer before it writes its body. */
const EARLY_ANSWER_MS = 2_000;

/**
 * Sends one request with node:http (not fetch: it sends bodies without a content type, bodies of any
 * bytes and header values as given) and reads the whole answer. An answer that arrives before the
 * body was all written (413) still counts. A kept-alive socket the server had just closed is retried
 * once on a new one, as every HTTP client does; no answer at all rejects.
 *
 * A body over the server's limit is answered 413 and the connection closed while the client may
 * still be writing; the close can then reset the connection before the client has read the answer
 * (the "TCP reset problem" of RFC 9112 section 9.6). Such a request that fails on a broken or reset
 * connection is sent once more head first, as a client that waits for an early answer does: the
 * head alone, the body only if no answer has come within EARLY_ANSWER_MS. Then the 413 is read
 * before any body byte is written, and an answer that still does not come is a finding.
 */
export function send(origin: string, r: FuzzRequest, retry = true, headFirst = false): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const pending: { body?: NodeJS.Timeout } = {};
    // An explicit length: node:http frames no body of a DELETE or OPTIONS otherwise (the server would read it as the next request).
    const headers = r.body ? { ...r.headers, 'content-length': String(r.body.length) } : r.headers;
    const req = request(`${origin}${r.path}`, { method: r.method, headers, agent: headFirst ? false : agent }, (res) => {
      answered = true;
      clearTimeout(pending.body);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // A head-first request may be unfinished (its body never written): its connection goes with it.
        if (headFirst) req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return;
      clearTimeout(pending.body);
      if (retry && req.reusedSocket) resolve(send(origin, r, false));
      else if (!headFirst && (r.body?.length ?? 0) > BODY_LIMIT && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) resolve(send(origin, r, false, true));
      else reject(err);
    });
    if (!headFirst) {
      req.end(r.body);
      return;
    }
    req.flushHeaders();
    pending.body = setTimeout(() => req.end(r.body), EARLY_ANSWER_MS);
  });
}

/** Runs `task` over `items` with `concurrency` of them in flight at a time, taking items only as they are needed. */
export async function inPool<T>(items: Iterable<T>, concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const it = items[Symbol.iterator]();
  const worker = async () => {
    for (let n = it.next(); !n.done; n = it.next()) await task(n.value);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The body of a chunked answer (RFC 9112 section 7.1), and whether its last chunk has come. */
function dechunk(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return { body: Buffer.concat(parts), complete: false };
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) return { body: Buffer.concat(parts), complete: true };
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** The first answer in what a connection received, and whether all of it has come. */
function firstAnswer(raw: Buffer): FuzzAnswer & { complete: boolean } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1');
  const headers: IncomingHttpHeaders = {};
  for (const line of head.split('\r\n').slice(1)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const rest = end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4);
  const length = Number(headers['content-length'] ?? 0);
  const { body, complete } = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : { body: rest.subarray(0, length), complete: rest.length >= length };
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), headers, text: body.toString('utf8'), complete: end >= 0 && complete };
}

/**
 * Writes raw bytes on a connection of its own, for requests no HTTP client would send, and reads
 * the first answer; then waits `graceMs` more and counts the answers on the connection
 * (`statusLines`): more than one to one request would mean the server read part of it as another
 * (request smuggling). The connection is not half-closed, as a browser's is not.
 */
export function sendRaw(origin: string, bytes: Buffer, graceMs = 0, ms = 5_000): Promise<FuzzAnswer & { statusLines: number }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const { complete: _complete, ...answer } = firstAnswer(raw);
      resolve({ ...answer, statusLines: raw.toString('latin1').match(/HTTP\/1\.[01] \d{3} /g)?.length ?? 0 });
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (firstAnswer(Buffer.concat(chunks)).complete) setTimeout(done, graceMs);
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}
