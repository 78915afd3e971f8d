import type { Kysely } from 'kysely';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { LIMITS, SIGNING_ALGS, type SigningAlg } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { open, seal } from '../../lib/sealed-box.ts';
import { insertSigningKey, listSigningKeys, retireSigningKeysBefore, type SigningKeyRow } from './signing-key-repo.ts';

// Each algorithm has its own keys; a client names its own (clients.ts `id_token_signed_response_alg`).
export { SIGNING_ALGS, type SigningAlg } from '@sso/contracts/constants';

/**
 * The keys that sign ID tokens, logout tokens and signed userinfo (docs/decisions/0025-openid-provider.md,
 * 0034; migration 0016), one current key per algorithm. Every node signs with the same current keys:
 * it reads them from the database and keeps them `cacheMs`. A rotated key is published at once and
 * signs only `activationDelayMs` later, longer than a node's cache and a client's cached JWKS
 * together, so that by then every node has read it and every client that verifies can find it. The
 * key of its algorithm it replaces stops signing at that moment and stays published `retentionMs`
 * more, until every token it signed has expired.
 */
export const SIGNING_KEYS = {
  /** A node reads the keys again after this: the longest a rotation waits to be seen by every node. */
  cacheMs: 60_000,
  /** The JWKS answer's Cache-Control max-age, in seconds: how long a client may keep it. */
  jwksMaxAgeS: 300,
  /** A rotated key signs this long after it is published (more than cacheMs and jwksMaxAgeS together). */
  activationDelayMs: 10 * 60_000,
  /** A retired key stays published this long after its last signature: an ID token's life and five minutes of clock skew. */
  retentionMs: LIMITS.idTokenTtlMs + 5 * 60_000,
} as const;

/** The HKDF purpose the private keys are sealed under (lib/sealed-box.ts): SIGNING_KEY_SECRET keys nothing else. */
const SEAL_PURPOSE = 'oidc-signing-key';

export interface SigningKeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** SIGNING_KEY_SECRET. */
  secret: string;
}

export interface SigningKeyStore {
  /** The key of `alg` that signs now, its private JWK opened once per key (the signer imports it, jwt-signer.ts). */
  signingKey(alg: SigningAlg): Promise<{ kid: string; alg: SigningAlg; jwk: JWK }>;
  /** The public keys to publish now (RFC 7517 JWK Set): the current one, the next one, and the retired ones not yet expired. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** The public key of `kid` among every key this server still holds, expired ones too (an `id_token_hint` may be old). */
  verificationKey(kid: string): Promise<CryptoKey | undefined>;
}

/** The public JWK as the JWKS publishes it: the key and its kid, algorithm and use (RFC 7517 section 4). */
const published = (row: SigningKeyRow): JWK => ({ ...(JSON.parse(row.public_jwk) as JWK), kid: row.kid, alg: row.alg, use: 'sig' });

/** The public members of a key (RFC 7518 sections 6.2.1 and 6.3.1): a P-256 point, or an RSA modulus and exponent. */
const publicMembers = ({ kty, crv, x, y, n, e }: JWK): JWK => (kty === 'RSA' ? { kty, n, e } : { kty, crv, x, y });

/**
 * A new key pair of `alg` (P-256 for ES256, RSA 2048 for RS256, RFC 7518 section 3.3): the public JWK, the
 * private JWK sealed under the secret (its kid as associated data), and its RFC 7638 thumbprint as kid.
 */
async function newKey(secret: string, alg: SigningAlg): Promise<Pick<SigningKeyRow, 'kid' | 'alg' | 'public_jwk' | 'private_jwk_sealed'>> {
  const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const publicJwk = publicMembers(await exportJWK(pair.publicKey));
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = JSON.stringify(await exportJWK(pair.privateKey));
  return { kid, alg, public_jwk: JSON.stringify(publicJwk), private_jwk_sealed: seal({ secret, purpose: SEAL_PURPOSE, plaintext: privateJwk, aad: kid }) };
}

const openPrivate = (secret: string, row: SigningKeyRow): JWK => JSON.parse(open({ secret, purpose: SEAL_PURPOSE, sealed: row.private_jwk_sealed, aad: row.kid })) as JWK;

/** The key of `alg` that signs at `now`: the newest one of it active and not retired. */
const currentOf = (rows: readonly SigningKeyRow[], alg: SigningAlg, now: number): SigningKeyRow | undefined =>
  rows.filter((r) => r.alg === alg && r.active_from <= now && (r.retire_after === null || r.retire_after > now)).at(-1);

/** How often a start tries again to add a missing key when other nodes' inserts keep taking the generation it chose. */
const INSERT_ATTEMPTS = 5;

/**
 * Makes a key of `alg` when the database holds none, active at once: no client can have cached a key
 * set expecting one (the first start, or the first start after RS256 came, decision 0034: no client
 * is signed for with RS256 before then). The generation is the next free one; when another node took
 * it meanwhile, this one reads again and finds that node's key, or the next free generation.
 */
async function ensureKeyOf(deps: SigningKeyDeps, alg: SigningAlg): Promise<void> {
  let key: Awaited<ReturnType<typeof newKey>> | undefined;
  for (let attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
    const rows = await listSigningKeys(deps.db);
    if (rows.some((r) => r.alg === alg)) return;
    key ??= await newKey(deps.secret, alg);
    const now = deps.clock.now();
    const generation = (rows.at(-1)?.generation ?? 0) + 1;
    if (await insertSigningKey(deps.db, { ...key, generation, created_at: now, active_from: now, retire_after: null, expires_at: null })) return;
  }
  throw new Error(`no ${alg} signing key could be created: other nodes kept taking its generation`);
}

/**
 * Makes a key of each algorithm the database holds none of (ensureKeyOf), and checks that the
 * configured secret opens the current ones: a wrong SIGNING_KEY_SECRET stops the start instead of
 * every sign-in. Safe when several nodes start at once (insertSigningKey).
 */
export async function ensureSigningKey(deps: SigningKeyDeps): Promise<void> {
  for (const alg of SIGNING_ALGS) await ensureKeyOf(deps, alg);
  const rows = await listSigningKeys(deps.db);
  for (const alg of SIGNING_ALGS) {
    const current = currentOf(rows, alg, deps.clock.now()) ?? rows.filter((r) => r.alg === alg).at(-1);
    if (!current) throw new Error(`no ${alg} signing key could be created`);
    try {
      openPrivate(deps.secret, current);
    } catch {
      throw new Error(`SIGNING_KEY_SECRET does not open the signing key ${current.kid} in the database: set the secret the keys were made under`);
    }
  }
}

/**
 * Rotates the signing keys (`npm run keys:rotate`, docs/operations.md): a new key of each algorithm,
 * published now and signing from `activeFrom`; every older key of its algorithm signs until then and
 * stays published `retentionMs` more. One transaction; of two rotations at once the second fails (its
 * generations are taken) and changes nothing.
 */
export async function rotateSigningKey(deps: SigningKeyDeps): Promise<{ kids: string[]; activeFrom: number; retiredKids: string[] }> {
  const now = deps.clock.now();
  const activeFrom = now + SIGNING_KEYS.activationDelayMs;
  const keys = await Promise.all(SIGNING_ALGS.map((alg) => newKey(deps.secret, alg)));
  return deps.db.transaction().execute(async (trx) => {
    const rows = await listSigningKeys(trx);
    const last = rows.at(-1)?.generation ?? 0;
    for (const [i, key] of keys.entries()) {
      const generation = last + 1 + i;
      if (!(await insertSigningKey(trx, { ...key, generation, created_at: now, active_from: activeFrom, retire_after: null, expires_at: null }))) {
        throw new Error('another rotation made a key at the same moment: nothing was changed; run it again if a new key is still wanted');
      }
      await retireSigningKeysBefore(trx, { alg: key.alg, generation, retireAfter: activeFrom, expiresAt: activeFrom + SIGNING_KEYS.retentionMs });
    }
    return { kids: keys.map((k) => k.kid), activeFrom, retiredKids: rows.filter((r) => r.retire_after === null).map((r) => r.kid) };
  });
}

/** The node's view of the keys, read again once it is SIGNING_KEYS.cacheMs old; each private key opened once, each public key imported once. */
export function signingKeyStore(deps: SigningKeyDeps): SigningKeyStore {
  let rows: SigningKeyRow[] = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<SigningKeyRow[]> | undefined;
  const privateKeys = new Map<string, JWK>();
  const publicKeys = new Map<string, Promise<CryptoKey>>();

  const fresh = async (): Promise<SigningKeyRow[]> => {
    if (deps.clock.now() - loadedAt < SIGNING_KEYS.cacheMs) return rows;
    // One read for all the requests that find the cache old at once.
    loading ??= listSigningKeys(deps.db)
      .then((read) => {
        rows = read;
        loadedAt = deps.clock.now();
        return read;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  const imported = (row: SigningKeyRow) => {
    let key = publicKeys.get(row.kid);
    if (!key) {
      key = importJWK(JSON.parse(row.public_jwk) as JWK, row.alg) as Promise<CryptoKey>;
      // A failed import is not kept: the next call tries again.
      key.catch(() => publicKeys.delete(row.kid));
      publicKeys.set(row.kid, key);
    }
    return key;
  };

  return {
    async signingKey(alg) {
      const current = currentOf(await fresh(), alg, deps.clock.now());
      if (!current) throw new Error(`no ${alg} signing key is active: the database has none (ensureSigningKey runs at start)`);
      let jwk = privateKeys.get(current.kid);
      if (!jwk) {
        jwk = openPrivate(deps.secret, current);
        privateKeys.set(current.kid, jwk);
      }
      return { kid: current.kid, alg, jwk };
    },
    async jwks() {
      const now = deps.clock.now();
      return { keys: (await fresh()).filter((r) => r.expires_at === null || r.expires_at > now).map(published) };
    },
    async verificationKey(kid) {
      // No read for an unknown kid: a key this node has not read is younger than cacheMs and signs nothing yet.
      const row = (await fresh()).find((r) => r.kid === kid);
      return row ? imported(row) : undefined;
    },
  };
}
