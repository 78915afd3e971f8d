import { createHash, createHmac, hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes from the operating system's CSPRNG, drawn 8 KiB at a time and handed out once each
 * (decision 0008): one draw costs a system call of about 10 µs on these machines whatever its size,
 * and a refresh needs two tokens. Node's randomUUID keeps such a pool too.
 */
const POOL_BYTES = 8192;
let pool = Buffer.alloc(0);
let used = 0;
function poolBytes(bytes: number): Buffer {
  if (used + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    used = 0;
  }
  const out = pool.subarray(used, used + bytes);
  used += bytes;
  return out;
}

/** An opaque random value for codes and tokens: 256 bits, base64url. */
export const randomToken = (bytes = 32): string => poolBytes(bytes).toString('base64url');

export const newId = (): string => randomUUID();

/**
 * Secrets with 256 bits of entropy are stored as their SHA-256; low-entropy ones (passwords) use
 * argon2id. Node's one-shot `hash` (UTF-8 for a string, as before): a third of the cost of a Hash
 * object, and every token request hashes its token (decision 0008).
 */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

/** The SHA-256 of `value` (UTF-8) as 32 bytes, for a comparison with timingSafeEqual. */
export const sha256Bytes = (value: string): Buffer => hash('sha256', value, 'buffer');

/** The development key of `lookupDigest`; production must set LOOKUP_KEY (config.ts refuses to start otherwise). */
export const DEVELOPMENT_LOOKUP_KEY = 'development-only-lookup-key-never-in-production';

let lookupKey = DEVELOPMENT_LOOKUP_KEY;

/** How many digests each `keptDigests` keeps: a few hundred KiB at most. */
export const KEPT_DIGESTS = 4_096;

/**
 * A keyed digest's values kept for the next request that asks for the same (docs/performance.md,
 * "Refresh and introspection against node-oidc-provider"): an HMAC was a few per cent of an
 * introspection's CPU. Once KEPT_DIGESTS are kept, it starts over, so that many values cannot grow
 * it; a new key empties it (the setters below).
 */
function keptDigests(digest: (value: string) => string): { get(value: string): string; clear(): void } {
  const kept = new Map<string, string>();
  return {
    get: (value) => {
      let d = kept.get(value);
      if (d === undefined) {
        if (kept.size >= KEPT_DIGESTS) kept.clear();
        d = digest(value);
        kept.set(value, d);
      }
      return d;
    },
    clear: () => kept.clear(),
  };
}

/** The lookup digests of the network addresses seen last (`addressLookupDigest`). */
const addressDigests = keptDigests((value) => lookupDigest(value));

/** Sets the server's lookup key once at boot (buildApp), from LOOKUP_KEY. */
export const setLookupKey = (key: string): void => {
  lookupKey = key;
  addressDigests.clear();
};

/**
 * A keyed digest (HMAC-SHA256) of a low-entropy value that must be found again but never stored:
 * a card number (PCI DSS 3.5.1: a keyed hash of the PAN), a login id in the throttle table. A plain
 * SHA-256 of a 16-digit card number or an e-mail address is reversed by trying every candidate.
 */
export const lookupDigest = (value: string): string => createHmac('sha256', lookupKey).update(value, 'utf8').digest('hex');

/**
 * `lookupDigest` of a network address's counter (lib/address-bucket.ts), kept for the next request
 * from it (`keptDigests`): every client authentication names its address's failure counter
 * (modules/oauth/client-auth.ts, decision 0038), and partners call from a few addresses.
 */
export const addressLookupDigest = (address: string): string => addressDigests.get(address);

/** The development key of `pairwiseDigest`; production must set PAIRWISE_KEY (config.ts refuses to start otherwise). */
export const DEVELOPMENT_PAIRWISE_KEY = 'development-only-pairwise-key-never-in-production';

let pairwiseKey = DEVELOPMENT_PAIRWISE_KEY;

/** Sets the server's pairwise key once at boot (buildApp), from PAIRWISE_KEY. */
export const setPairwiseKey = (key: string): void => {
  pairwiseKey = key;
  subjectDigests.clear();
};

/**
 * The keyed digest (HMAC-SHA256, base64url) behind a pairwise subject identifier (OpenID Connect
 * Core 1.0 section 8.1; modules/oidc/subject.ts). A key of its own, not LOOKUP_KEY: the lookup key
 * may be rotated at the cost of a few locks, while a new pairwise key would give every partner new
 * identifiers for all its members.
 */
export const pairwiseDigest = (value: string): string => createHmac('sha256', pairwiseKey).update(value, 'utf8').digest('base64url');

/** The pairwise digests of the sectors and members asked for last (`keptPairwiseDigest`). */
const subjectDigests = keptDigests((value) => pairwiseDigest(value));

/**
 * `pairwiseDigest` kept for the next request that asks for it (`keptPairwiseDigest`): a partner
 * introspects its member's tokens again and again, each answer naming the member's subject.
 */
export const keptPairwiseDigest = (value: string): string => subjectDigests.get(value);

/** The development secret the signing keys are encrypted under; production must set SIGNING_KEY_SECRET (config.ts). */
export const DEVELOPMENT_SIGNING_KEY_SECRET = 'development-only-signing-key-secret-never-in-production';

export const sha256Base64Url = (value: string): string =>
  createHash('sha256').update(value, 'ascii').digest('base64url');

/** Constant-time string comparison (both sides hashed first so lengths never leak). */
export const constantTimeEqual = (a: string, b: string): boolean => timingSafeEqual(sha256Bytes(a), sha256Bytes(b));
