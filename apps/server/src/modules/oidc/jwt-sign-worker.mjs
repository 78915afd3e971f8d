import { parentPort } from 'node:worker_threads';
import { jwtSigning } from './jwt-signing.mjs';

/**
 * The worker thread that signs JWTs for the server (jwt-signer.ts, docs/performance.md): it receives
 * batches of `{ id, job }` and answers, in one message per batch, `{ id, token }` or `{ id, error }`
 * for each. The private key comes with the first job that needs it and is kept here by `kid`.
 */
const sign = jwtSigning();

parentPort?.on('message', (/** @type {{ id: number, job: import('./jwt-signing.d.mts').SignJob }[]} */ batch) => {
  const answers = batch.map(({ id, job }) => {
    try {
      return { id, token: sign(job) };
    } catch (err) {
      return { id, error: err instanceof Error ? err.message : String(err) };
    }
  });
  parentPort?.postMessage(answers);
});
