import { Worker } from 'node:worker_threads';
import type { JWTPayload } from 'jose';
import { jwtSigning, type SignJob } from './jwt-signing.mjs';
import type { SigningAlg, SigningKeyStore } from './signing-keys.ts';

/**
 * Signs the server's JWTs with the current key of the client's algorithm (signing-keys.ts; decision
 * 0034): an ID token or a signed userinfo answer (`JWT`), or a logout token (`logout+jwt`).
 */
export interface JwtSigner {
  sign(typ: 'JWT' | 'logout+jwt', payload: JWTPayload, alg: SigningAlg): Promise<string>;
  /** Ends the worker thread; a signature asked for after this is made on the server's thread. */
  close(): Promise<void>;
}

interface Waiting {
  job: SignJob;
  resolve(token: string): void;
  reject(err: Error): void;
}

type Answer = { id: number; token: string } | { id: number; error: string };

/** The worker's file, beside this module in the repository and beside the bundle in the build (scripts/build.ts). */
const WORKER_URL = new URL('./jwt-sign-worker.mjs', import.meta.url);

/**
 * The signer of a node (docs/performance.md, "The refresh grant with an ID token"; decision 0045): the
 * one signing function (jwt-signing.mjs, node:crypto's one-shot `sign`) runs in a worker thread, so that
 * the signature of a refresh's ID token runs beside the server's thread and not on it. ES256 goes there
 * too: signed on the event loop instead, the refresh with `openid` cost 1.23× the server CPU of the
 * worker's (decision 0045, measured in turns), and RS256 (about 1 ms) must stay off the loop anyway.
 * The jobs asked for in one turn of the event loop go as one message, and come back as one; the
 * private key goes to the worker once per `kid`. The thread starts at the first signature and holds
 * the process open only while it has jobs. Should it fail or exit, its jobs and every later one are
 * signed on the server's thread by the same function, and `warn` says so once.
 */
export function jwtSigner(keys: SigningKeyStore, options: { warn: (message: string) => void; workerUrl?: URL }): JwtSigner {
  const signHere = jwtSigning();
  const waiting = new Map<number, Waiting>();
  let worker: Worker | undefined;
  /** The kids the worker was handed (it is started once: a lost worker is not replaced). */
  const handed = new Set<string>();
  let batch: { id: number; job: SignJob }[] = [];
  let nextId = 0;
  let inWorker = true;
  let closed = false;

  const here = (w: Waiting) => {
    try {
      w.resolve(signHere(w.job));
    } catch (err) {
      w.reject(err instanceof Error ? err : new Error(String(err)));
    }
  };

  const settle = (answers: Answer[]) => {
    for (const answer of answers) {
      const w = waiting.get(answer.id);
      if (!w) continue;
      waiting.delete(answer.id);
      if ('token' in answer) w.resolve(answer.token);
      else w.reject(new Error(`the signing worker could not sign: ${answer.error}`));
    }
    if (waiting.size === 0) worker?.unref();
  };

  /** The worker is gone: what it held is signed here, and so is everything after. */
  const lost = (why: string) => {
    worker = undefined;
    if (!closed && inWorker) options.warn(`JWT signing worker stopped (${why}): signing on the server's thread from now on`);
    inWorker = false;
    const left = [...waiting.values()];
    waiting.clear();
    left.forEach(here);
  };

  const start = (): Worker => {
    const w = new Worker(options.workerUrl ?? WORKER_URL);
    w.on('message', settle);
    w.on('error', (err) => lost(err.message));
    w.on('exit', (code) => {
      if (worker === w) lost(`exit code ${code}`);
    });
    return w;
  };

  const flush = () => {
    const sending = batch;
    batch = [];
    // A worker lost since these jobs were queued: lost() has already signed them here.
    if (!worker) return;
    worker.ref();
    worker.postMessage(sending);
  };

  return {
    async sign(typ, payload, signingAlg) {
      const { kid, alg, jwk } = await keys.signingKey(signingAlg);
      const job: SignJob = { kid, alg, jwk, typ, payload };
      if (!inWorker || closed) return signHere(job);
      if (!worker) {
        try {
          worker = start();
        } catch (err) {
          lost(err instanceof Error ? err.message : String(err));
          return signHere(job);
        }
      }
      const id = nextId++;
      const first = !handed.has(kid);
      handed.add(kid);
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { job, resolve, reject });
        if (batch.length === 0) setImmediate(flush);
        batch.push({ id, job: first ? job : { kid, alg, typ, payload } });
      });
    },
    async close() {
      closed = true;
      const w = worker;
      worker = undefined;
      if (w) {
        await w.terminate();
        lost('closed');
      }
    },
  };
}
