import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignJob } from './jwt-signing.mjs';
import { jwtSigner, type JwtSigner } from './jwt-signer.ts';
import type { SigningAlg, SigningKeyStore } from './signing-keys.ts';

interface TestKey {
  kid: string;
  alg: SigningAlg;
  jwk: JWK;
  publicKey: CryptoKey;
}

const newKey = async (kid: string, alg: SigningAlg = 'ES256'): Promise<TestKey> => {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, jwk: await exportJWK(pair.privateKey), publicKey: pair.publicKey };
};

/** A key store whose current ES256 key the test sets (signing-keys.ts keeps them in the database), and an RS256 key when given one. */
function keyStore(first: TestKey, rs256?: TestKey): SigningKeyStore & { current: TestKey } {
  return {
    current: first,
    async signingKey(alg) {
      const key = alg === 'RS256' ? rs256 : this.current;
      if (!key) throw new Error(`no ${alg} key here`);
      return { kid: key.kid, alg, jwk: key.jwk };
    },
    jwks: () => Promise.reject(new Error('not asked here')),
    verificationKey: () => Promise.reject(new Error('not asked here')),
  };
}

const verifiedBy = async (token: string, key: TestKey) => (await jwtVerify(token, key.publicKey, { algorithms: [key.alg] })).payload;

/** The batches the signers posted to their workers in this test. */
const posted = () => vi.mocked(Worker.prototype.postMessage).mock.calls.map(([batch]) => batch as { id: number; job: SignJob }[]);

/**
 * The node's JWT signer (jwt-signer.ts, docs/performance.md): node:crypto signs in a worker thread, the jobs
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
    const tokens = await Promise.all(Array.from({ length: 200 }, (_, i) => signer.sign('JWT', { sub: `member-${i}`, aud: 'SIAP004' }, 'ES256')));
    const payloads = await Promise.all(tokens.map((t) => verifiedBy(t, keyA)));
    expect(payloads.map((p) => p.sub)).toEqual(Array.from({ length: 200 }, (_, i) => `member-${i}`));
    expect(decodeProtectedHeader(tokens[0]!)).toEqual({ alg: 'ES256', kid: 'kid-a', typ: 'JWT' });
    expect(spy).toHaveBeenCalledTimes(1);
    const jobs = posted().flat();
    expect(jobs).toHaveLength(200);
    expect(jobs.filter(({ job }) => job.jwk !== undefined)).toHaveLength(1);

    // The next turn: another message, without the key.
    const logout = await signer.sign('logout+jwt', { sub: 'member-0', events: {} }, 'ES256');
    expect(decodeProtectedHeader(logout).typ).toBe('logout+jwt');
    await verifiedBy(logout, keyA);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(posted()[1]![0]!.job.jwk).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("signs with the key of the algorithm asked for, RS256 and ES256 in one message, each key handed over once", async () => {
    const spy = vi.spyOn(Worker.prototype, 'postMessage');
    const rsa = await newKey('kid-rs', 'RS256');
    const signer = signerOf(keyStore(keyA, rsa));
    const algs: SigningAlg[] = ['RS256', 'ES256', 'RS256', 'ES256'];
    const tokens = await Promise.all(algs.map((alg, i) => signer.sign('JWT', { sub: `member-${i}` }, alg)));
    expect(tokens.map((t) => decodeProtectedHeader(t))).toEqual(algs.map((alg) => ({ alg, kid: alg === 'RS256' ? 'kid-rs' : 'kid-a', typ: 'JWT' })));
    await Promise.all(tokens.map((t, i) => verifiedBy(t, algs[i] === 'RS256' ? rsa : keyA)));
    // An RS256 token does not pass for an ES256 one, nor the other way.
    await expect(verifiedBy(tokens[0]!, keyA)).rejects.toThrow();
    await expect(verifiedBy(tokens[1]!, rsa)).rejects.toThrow();
    expect(spy).toHaveBeenCalledTimes(1);
    expect(posted().flat().filter(({ job }) => job.jwk !== undefined).map(({ job }) => job.kid)).toEqual(['kid-rs', 'kid-a']);
    expect(warnings).toEqual([]);
  });

  it('hands the worker the new key once the current key changes (a rotation), and signs with it', async () => {
    vi.spyOn(Worker.prototype, 'postMessage');
    const keys = keyStore(keyA);
    const signer = signerOf(keys);
    await verifiedBy(await signer.sign('JWT', { sub: 'before' }, 'ES256'), keyA);
    keys.current = keyB;
    const after = await Promise.all([signer.sign('JWT', { sub: 'after-1' }, 'ES256'), signer.sign('JWT', { sub: 'after-2' }, 'ES256')]);
    for (const token of after) {
      expect(decodeProtectedHeader(token).kid).toBe('kid-b');
      await verifiedBy(token, keyB);
    }
    expect(posted().flat().filter(({ job }) => job.jwk !== undefined).map(({ job }) => job.kid)).toEqual(['kid-a', 'kid-b']);
  });

  it('rejects a job the worker cannot sign with its reason, and goes on signing in the worker', async () => {
    const keys = keyStore({ ...keyA, kid: 'kid-broken', jwk: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA', d: 'AAAA' } });
    const signer = signerOf(keys);
    await expect(signer.sign('JWT', { sub: 'x' }, 'ES256')).rejects.toThrow(/the signing worker could not sign/);
    keys.current = keyA;
    await verifiedBy(await signer.sign('JWT', { sub: 'y' }, 'ES256'), keyA);
    expect(warnings).toEqual([]);
  });

  it('signs on the server thread when the worker cannot start, and says so once', async () => {
    const signer = signerOf(keyStore(keyA), pathToFileURL(join(dir, 'missing-worker.mjs')));
    const tokens = await Promise.all([signer.sign('JWT', { sub: 'a' }, 'ES256'), signer.sign('JWT', { sub: 'b' }, 'ES256')]);
    await verifiedBy(await signer.sign('JWT', { sub: 'c' }, 'ES256'), keyA);
    for (const token of tokens) await verifiedBy(token, keyA);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^JWT signing worker stopped .*: signing on the server's thread from now on$/);
  });

  it('signs the jobs a worker held when it died on the server thread, and every later one', async () => {
    const dying = join(dir, 'dying-worker.mjs');
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const signer = signerOf(keyStore(keyA), pathToFileURL(dying));
    const held = await Promise.all(Array.from({ length: 5 }, (_, i) => signer.sign('JWT', { sub: `held-${i}` }, 'ES256')));
    for (const token of held) await verifiedBy(token, keyA);
    await verifiedBy(await signer.sign('JWT', { sub: 'later' }, 'ES256'), keyA);
    expect(warnings).toEqual(["JWT signing worker stopped (exit code 3): signing on the server's thread from now on"]);
  });

  it('still signs after it is closed, on the server thread, without a warning', async () => {
    const signer = signerOf(keyStore(keyA));
    await verifiedBy(await signer.sign('JWT', { sub: 'open' }, 'ES256'), keyA);
    await signer.close();
    const spy = vi.spyOn(Worker.prototype, 'postMessage');
    await verifiedBy(await signer.sign('JWT', { sub: 'closed' }, 'ES256'), keyA);
    expect(spy).not.toHaveBeenCalled();
    expect(warnings).toEqual([]);
  });
});
