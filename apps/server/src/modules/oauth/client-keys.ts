import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import type { webcrypto } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { publicJwksSchema, type OAuthClient } from '../clients/clients.ts';

/**
 * The public keys a private_key_jwt client signs its assertions with (RFC 7523 section 3, decision
 * 0038): its registered `jwks`, or the set published at its `jwks_uri`, fetched with a timeout and
 * a size limit, kept for `ttlMs` (and no longer than twice that while fetches fail), fetched again once when an assertion names a key it does not hold
 * (the partner rotated), and never more than once per `cooldownMs` per client, whatever happens,
 * so that nobody can make this server hammer a partner's host.
 */

export const CLIENT_KEYS_DEFAULTS = {
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
  ttlMs: 10 * 60 * 1000,
  cooldownMs: 60 * 1000,
};

type KeyGetter = (header: JWSHeaderParameters) => Promise<webcrypto.CryptoKey>;

export interface ClientKeySets {
  /** The key getter of the client's assertions (jose's jwtVerify), or undefined: the client has no keys. */
  keysOf(client: OAuthClient): KeyGetter | undefined;
}

interface Remote {
  uri: string;
  set?: KeyGetter;
  fetchedAt: number;
  /** When a fetch last started, successful or not: the cooldown counts from it. */
  triedAt: number;
  pending?: Promise<void>;
}

/** Reads at most `maxBytes` of the answer's body: a larger key set is refused before it is all read. */
async function limitedText(res: Response, maxBytes: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error('key set too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function clientKeySets(opts: {
  clock: Clock;
  /** http: URIs are fetched (the loopback host of development and tests); production: https only. */
  allowHttp: boolean;
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
  ttlMs?: number;
  cooldownMs?: number;
}): ClientKeySets {
  const { timeoutMs, maxBytes, ttlMs, cooldownMs } = { ...CLIENT_KEYS_DEFAULTS, ...opts };
  const get = opts.fetch ?? fetch;
  // Inline sets by the definition's own object: a changed client brings a new one.
  const inline = new WeakMap<JSONWebKeySet, KeyGetter>();
  const remote = new Map<string, Remote>();

  async function load(entry: Remote): Promise<void> {
    entry.triedAt = opts.clock.now();
    try {
      const res = await get(entry.uri, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error', headers: { accept: 'application/json, application/jwk-set+json' } });
      if (!res.ok) throw new Error(`key set answered ${res.status}`);
      const jwks = publicJwksSchema.parse(JSON.parse(await limitedText(res, maxBytes))) as JSONWebKeySet;
      entry.set = createLocalJWKSet(jwks);
      entry.fetchedAt = opts.clock.now();
    } catch {
      // The keys held so far stay; the assertion fails if none of them fits.
    }
  }

  /** Fetches the set unless the cooldown forbids it; parallel callers share one fetch. */
  async function refresh(entry: Remote): Promise<void> {
    if (entry.pending) return entry.pending;
    if (opts.clock.now() - entry.triedAt < cooldownMs) return;
    entry.pending = load(entry).finally(() => {
      entry.pending = undefined;
    });
    return entry.pending;
  }

  function remoteGetter(client: OAuthClient, uri: string): KeyGetter | undefined {
    if (!opts.allowHttp && !uri.startsWith('https://')) return undefined;
    let entry = remote.get(client.client_id);
    if (entry?.uri !== uri) remote.set(client.client_id, (entry = { uri, fetchedAt: 0, triedAt: -Infinity }));
    const known = entry;
    return async (header) => {
      if (!known.set || opts.clock.now() - known.fetchedAt >= ttlMs) await refresh(known);
      // A set no fetch has confirmed for twice its lifetime is dropped: a key the partner withdrew (a
      // compromise) must not go on verifying for as long as its host fails to answer.
      if (known.set && opts.clock.now() - known.fetchedAt >= 2 * ttlMs) known.set = undefined;
      if (!known.set) throw new errors.JWKSNoMatchingKey();
      try {
        return await known.set(header);
      } catch (e) {
        // A key it does not hold: the partner may have rotated; one fetch, within the cooldown.
        if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
        await refresh(known);
        return known.set(header);
      }
    };
  }

  return {
    keysOf(client) {
      if (client.jwks) {
        const jwks = client.jwks as JSONWebKeySet;
        let set = inline.get(jwks);
        if (!set) inline.set(jwks, (set = createLocalJWKSet(jwks)));
        return set;
      }
      return client.jwks_uri ? remoteGetter(client, client.jwks_uri) : undefined;
    },
  };
}
