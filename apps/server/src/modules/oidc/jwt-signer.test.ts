import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignJob } from './jwt-signing.mjs';
import { jwtSigner, type JwtSigner } from './jwt-signer.ts';
import type { SigningKeyStore } from './signing-keys.ts';

interface TestKey {
  kid: string;
  jwk: JWK;
  publicKey: CryptoKey;
}

const newKey = async (kid: string): Promise<TestKey> => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  return { kid, jwk: await exportJWK(pair.privateKey), publicKey: pair.publicKey };
};

/** A key store whose current key the test sets (signing-keys.ts keeps it in the database). */
function keyStore(first: TestKey): SigningKeyStore & { current: TestKey } {
  return {
    current: first,
    async signingKey() {
      return { kid: this.current.kid, alg: 'ES256', jwk: this.current.jwk };
    },
    jwks: () => Promise.reject(new Error('not asked here')),
    verificationKey: () => Promise.reject(new Error('not asked here')),
  };
}

const verifiedBy = async (token: string, key: TestKey) => (await jwtVerify(token, key.publicKey, { algorithms: ['ES256'] })).payload;

/** The batches the signers posted to their workers in this test. */
const posted = () => vi.mocked(Worker.prototype.postMessage).mock.calls.map(([batch]) => batch as { id: number; job: SignJob }[]);

/**
 * The node's JWT signer (jwt-signer.ts, docs/performance.md): jose signs in a worker thread, the jobs
 * of one event-loop turn in one message, the private key handed over once per kid; when the worker is
 * gone, the same signatures are made on the server's thread.
 */
describe('the JWT signer', () => {
  let keyA: TestKey;
  let keyB: TestKey;
  let dir: string;
  const signers: JwtSigner[] = [];
  const warnings: string[] = [];
  const signerOf = (keys: SigningKeyStore, workerUrl?: URL) => {
    const signer = jwtSigner(keys, { warn: (message) => warnings.push(message), ...(workerUrl ? { workerUrl } : {}) });
    signers.push(signer);
    return signer;
  };

  beforeAll(async () => {
    [keyA, keyB] = await Promise.all([newKey('kid-a'), newKey('kid-b')]);
    dir = mkdtempSync(join(tmpdir(), 'sso-signer-'));
  });
  afterEach(async () => {
    await Promise.all(signers.splice(0).map((s) => s.close()));
    vi.restoreAllMocks();
    warnings.length = 0;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('signs the jobs of one turn in the worker as one message, handing the key over once, each token with its own claims', async () => {
    const spy = vi.spyOn(Worker.prototype, 'postMessage');
    const signer = signerOf(keyStore(keyA));
    const tokens = await Promise.all(Array.from({ length: 200 }, (_, i) => signer.sign('JWT', { sub: `member-${i}`, aud: 'SIAP004' })));
    const payloads = await Promise.all(tokens.map((t) => verifiedBy(t, keyA)));
    expect(payloads.map((p) => p.sub)).toEqual(Array.from({ length: 200 }, (_, i) => `member-${i}`));
    expect(decodeProtectedHeader(tokens[0]!)).toEqual({ alg: 'ES256', kid: 'kid-a', typ: 'JWT' });
    expect(spy).toHaveBeenCalledTimes(1);
    const jobs = posted().flat();
    expect(jobs).toHaveLength(200);
    expect(jobs.filter(({ job }) => job.jwk !== undefined)).toHaveLength(1);

    // The next turn: another message, without the key.
    const logout = await signer.sign('logout+jwt', { sub: 'member-0', events: {} });
    expect(decodeProtectedHeader(logout).typ).toBe('logout+jwt');
    await verifiedBy(logout, keyA);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(posted()[1]![0]!.job.jwk).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('hands the worker the new key once the current key changes (a rotation), and signs with it', async () => {
    vi.spyOn(Worker.prototype, 'postMessage');
    const keys = keyStore(keyA);
    const signer = signerOf(keys);
    await verifiedBy(await signer.sign('JWT', { sub: 'before' }), keyA);
    keys.current = keyB;
    const after = await Promise.all([signer.sign('JWT', { sub: 'after-1' }), signer.sign('JWT', { sub: 'after-2' })]);
    for (const token of after) {
      expect(decodeProtectedHeader(token).kid).toBe('kid-b');
      await verifiedBy(token, keyB);
    }
    expect(posted().flat().filter(({ job }) => job.jwk !== undefined).map(({ job }) => job.kid)).toEqual(['kid-a', 'kid-b']);
  });

  it('rejects a job the worker cannot sign with its reason, and goes on signing in the worker', async () => {
    const keys = keyStore({ ...keyA, kid: 'kid-broken', jwk: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA', d: 'AAAA' } });
    const signer = signerOf(keys);
    await expect(signer.sign('JWT', { sub: 'x' })).rejects.toThrow(/the signing worker could not sign/);
    keys.current = keyA;
    await verifiedBy(await signer.sign('JWT', { sub: 'y' }), keyA);
    expect(warnings).toEqual([]);
  });

  it('signs on the server thread when the worker cannot start, and says so once', async () => {
    const signer = signerOf(keyStore(keyA), pathToFileURL(join(dir, 'missing-worker.mjs')));
    const tokens = await Promise.all([signer.sign('JWT', { sub: 'a' }), signer.sign('JWT', { sub: 'b' })]);
    await verifiedBy(await signer.sign('JWT', { sub: 'c' }), keyA);
    for (const token of tokens) await verifiedBy(token, keyA);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^JWT signing worker stopped .*: signing on the server's thread from now on$/);
  });

  it('signs the jobs a worker held when it died on the server thread, and every later one', async () => {
    const dying = join(dir, 'dying-worker.mjs');
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const signer = signerOf(keyStore(keyA), pathToFileURL(dying));
    const held = await Promise.all(Array.from({ length: 5 }, (_, i) => signer.sign('JWT', { sub: `held-${i}` })));
    for (const token of held) await verifiedBy(token, keyA);
    await verifiedBy(await signer.sign('JWT', { sub: 'later' }), keyA);
    expect(warnings).toEqual(["JWT signing worker stopped (exit code 3): signing on the server's thread from now on"]);
  });

  it('still signs after it is closed, on the server thread, without a warning', async () => {
    const signer = signerOf(keyStore(keyA));
    await verifiedBy(await signer.sign('JWT', { sub: 'open' }), keyA);
    await signer.close();
    const spy = vi.spyOn(Worker.prototype, 'postMessage');
    await verifiedBy(await signer.sign('JWT', { sub: 'closed' }), keyA);
    expect(spy).not.toHaveBeenCalled();
    expect(warnings).toEqual([]);
  });
});
