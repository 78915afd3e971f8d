import type { Kysely } from 'kysely';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { open, seal } from '../../lib/sealed-box.ts';
import { insertSigningKey, listSigningKeys, retireSigningKeysBefore, type SigningKeyRow } from './signing-key-repo.ts';

/**
 * The keys that sign ID tokens and logout tokens (docs/decisions/0025-openid-provider.md; migration
 * 0016). Every node signs with the same current key: it reads the keys from the database and keeps
 * them `cacheMs`. A rotated key is published at once and signs only `activationDelayMs` later, longer
 * than a node's cache and a client's cached JWKS together, so that by then every node has read it and
 * every client that verifies can find it. The key it replaces stops signing at that moment and stays
 * published `retentionMs` more, until every token it signed has expired.
 */
export const SIGNING_KEYS = {
  alg: 'ES256',
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
  /** The key that signs now, its private JWK opened once per key (the signer imports it, jwt-signer.ts). */
  signingKey(): Promise<{ kid: string; alg: string; jwk: JWK }>;
  /** The public keys to publish now (RFC 7517 JWK Set): the current one, the next one, and the retired ones not yet expired. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** The public key of `kid` among every key this server still holds, expired ones too (an `id_token_hint` may be old). */
  verificationKey(kid: string): Promise<CryptoKey | undefined>;
}

/** The public JWK as the JWKS publishes it: the key and its kid, algorithm and use (RFC 7517 section 4). */
const published = (row: SigningKeyRow): JWK => ({ ...(JSON.parse(row.public_jwk) as JWK), kid: row.kid, alg: row.alg, use: 'sig' });

/** A new key pair: the public JWK, the private JWK sealed under the secret (its kid as associated data), and its RFC 7638 thumbprint as kid. */
async function newKey(secret: string): Promise<Pick<SigningKeyRow, 'kid' | 'alg' | 'public_jwk' | 'private_jwk_sealed'>> {
  const pair = await generateKeyPair(SIGNING_KEYS.alg, { extractable: true });
  const { kty, crv, x, y } = await exportJWK(pair.publicKey);
  const publicJwk = { kty, crv, x, y };
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = JSON.stringify(await exportJWK(pair.privateKey));
  return { kid, alg: SIGNING_KEYS.alg, public_jwk: JSON.stringify(publicJwk), private_jwk_sealed: seal({ secret, purpose: SEAL_PURPOSE, plaintext: privateJwk, aad: kid }) };
}

const openPrivate = (secret: string, row: SigningKeyRow): JWK => JSON.parse(open({ secret, purpose: SEAL_PURPOSE, sealed: row.private_jwk_sealed, aad: row.kid })) as JWK;

/** The key that signs at `now`: the newest one active and not retired. */
const currentOf = (rows: readonly SigningKeyRow[], now: number): SigningKeyRow | undefined =>
  rows.filter((r) => r.active_from <= now && (r.retire_after === null || r.retire_after > now)).at(-1);

/**
 * Makes the first key when there is none, active at once (no client can have cached a key set yet),
 * and checks that the configured secret opens the current one: a wrong SIGNING_KEY_SECRET stops the
 * start instead of every sign-in. Safe when several nodes start at once (insertSigningKey).
 */
export async function ensureSigningKey(deps: SigningKeyDeps): Promise<void> {
  const now = deps.clock.now();
  if ((await listSigningKeys(deps.db)).length === 0) {
    await insertSigningKey(deps.db, { ...(await newKey(deps.secret)), generation: 1, created_at: now, active_from: now, retire_after: null, expires_at: null });
  }
  const rows = await listSigningKeys(deps.db);
  const current = currentOf(rows, now) ?? rows.at(-1);
  if (!current) throw new Error('no signing key could be created');
  try {
    openPrivate(deps.secret, current);
  } catch {
    throw new Error(`SIGNING_KEY_SECRET does not open the signing key ${current.kid} in the database: set the secret the keys were made under`);
  }
}

/**
 * Rotates the signing key (`npm run keys:rotate`, docs/operations.md): a new key, published now and
 * signing from `activeFrom`; every older key signs until then and stays published `retentionMs` more.
 * One transaction; of two rotations at once the second fails (its generation is taken) and changes nothing.
 */
export async function rotateSigningKey(deps: SigningKeyDeps): Promise<{ kid: string; activeFrom: number; retiredKids: string[] }> {
  const now = deps.clock.now();
  const activeFrom = now + SIGNING_KEYS.activationDelayMs;
  const key = await newKey(deps.secret);
  return deps.db.transaction().execute(async (trx) => {
    const rows = await listSigningKeys(trx);
    const generation = (rows.at(-1)?.generation ?? 0) + 1;
    if (!(await insertSigningKey(trx, { ...key, generation, created_at: now, active_from: activeFrom, retire_after: null, expires_at: null }))) {
      throw new Error('another rotation made a key at the same moment: nothing was changed; run it again if a new key is still wanted');
    }
    await retireSigningKeysBefore(trx, { generation, retireAfter: activeFrom, expiresAt: activeFrom + SIGNING_KEYS.retentionMs });
    return { kid: key.kid, activeFrom, retiredKids: rows.filter((r) => r.retire_after === null).map((r) => r.kid) };
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
    async signingKey() {
      const current = currentOf(await fresh(), deps.clock.now());
      if (!current) throw new Error('no signing key is active: the database has none (ensureSigningKey runs at start)');
      let jwk = privateKeys.get(current.kid);
      if (!jwk) {
        jwk = openPrivate(deps.secret, current);
        privateKeys.set(current.kid, jwk);
      }
      return { kid: current.kid, alg: current.alg, jwk };
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
