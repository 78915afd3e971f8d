import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock.ts';
import { clientDefinitionSchema, type OAuthClient } from '../clients/clients.ts';
import { CLIENT_KEYS_DEFAULTS, clientKeySets } from './client-keys.ts';

const jwkOf = async (kid: string): Promise<JWK> => ({ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid, alg: 'ES256' });
const [first, second] = [await jwkOf('first'), await jwkOf('second')];

const remoteClient = (uri: string): OAuthClient =>
  clientDefinitionSchema.parse({ client_id: 'JWT1', name: 'p', type: 'confidential', redirect_uris: ['https://p.example/cb'], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: uri });

/** A partner's key set host that answers what `body()` says, counting the fetches. */
function host(body: () => string | Promise<string>) {
  let fetches = 0;
  const fetchFn = (async () => {
    fetches++;
    return new Response(await body(), { status: 200 });
  }) as typeof fetch;
  return { fetchFn, fetches: () => fetches };
}

const header = (kid: string) => ({ alg: 'ES256', kid });

describe('the key sets of private_key_jwt clients (decision 0038)', () => {
  it('fetches a jwks_uri once, again once on an unknown kid, and never within the cooldown', async () => {
    const clock = new ManualClock();
    let keys = [first];
    const h = host(() => JSON.stringify({ keys }));
    const sets = clientKeySets({ clock, allowHttp: false, fetch: h.fetchFn });
    const getter = sets.keysOf(remoteClient('https://p.example/jwks'))!;
    await expect(getter(header('first'))).resolves.toBeDefined();
    await expect(getter(header('first'))).resolves.toBeDefined();
    expect(h.fetches()).toBe(1);
    // The partner rotates: an unknown kid within the cooldown is refused without a fetch…
    keys = [first, second];
    await expect(getter(header('second'))).rejects.toThrow();
    expect(h.fetches()).toBe(1);
    // …and after it, fetched once and found.
    clock.advance(CLIENT_KEYS_DEFAULTS.cooldownMs);
    await expect(getter(header('second'))).resolves.toBeDefined();
    await expect(getter(header('nobody'))).rejects.toThrow();
    expect(h.fetches()).toBe(2);
    // The TTL over, the set is fetched again.
    clock.advance(CLIENT_KEYS_DEFAULTS.ttlMs);
    await expect(getter(header('first'))).resolves.toBeDefined();
    expect(h.fetches()).toBe(3);
  });

  it('keeps a set while its host fails for up to twice its lifetime, then drops it', async () => {
    const clock = new ManualClock();
    let up = true;
    const fetchFn = (async () => (up ? new Response(JSON.stringify({ keys: [first] }), { status: 200 }) : new Response('', { status: 503 }))) as typeof fetch;
    const getter = clientKeySets({ clock, allowHttp: false, fetch: fetchFn }).keysOf(remoteClient('https://p.example/jwks'))!;
    await expect(getter(header('first'))).resolves.toBeDefined();
    up = false;
    clock.advance(CLIENT_KEYS_DEFAULTS.ttlMs);
    // The host down past the lifetime: the set held so far still verifies…
    await expect(getter(header('first'))).resolves.toBeDefined();
    clock.advance(CLIENT_KEYS_DEFAULTS.ttlMs);
    // …until no fetch has confirmed it for twice that: a withdrawn key must not live on.
    await expect(getter(header('first'))).rejects.toThrow();
    up = true;
    clock.advance(CLIENT_KEYS_DEFAULTS.cooldownMs);
    await expect(getter(header('first'))).resolves.toBeDefined();
  });

  it('refuses a key set too large, one with a private key, one that does not answer in time, and http: in production', async () => {
    const clock = new ManualClock();
    const big = host(() => JSON.stringify({ keys: [first], padding: 'x'.repeat(CLIENT_KEYS_DEFAULTS.maxBytes) }));
    await expect(clientKeySets({ clock, allowHttp: false, fetch: big.fetchFn }).keysOf(remoteClient('https://p.example/jwks'))!(header('first'))).rejects.toThrow();
    const privateKey = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const leaked = host(() => JSON.stringify({ keys: [{ ...privateKey, kid: 'first' }] }));
    await expect(clientKeySets({ clock, allowHttp: false, fetch: leaked.fetchFn }).keysOf(remoteClient('https://p.example/jwks'))!(header('first'))).rejects.toThrow();
    const hanging = (async (_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))))) as unknown as typeof fetch;
    const timed = clientKeySets({ clock, allowHttp: false, fetch: hanging, timeoutMs: 50 });
    await expect(timed.keysOf(remoteClient('https://p.example/jwks'))!(header('first'))).rejects.toThrow();
    expect(clientKeySets({ clock, allowHttp: false }).keysOf(remoteClient('http://127.0.0.1:1/jwks'))).toBeUndefined();
    expect(clientKeySets({ clock, allowHttp: true }).keysOf(remoteClient('http://127.0.0.1:1/jwks'))).toBeDefined();
  });

  it('refuses to register a private or symmetric key inline, or both jwks and jwks_uri', () => {
    const base = { client_id: 'JWT1', name: 'p', type: 'confidential', redirect_uris: ['https://p.example/cb'], token_endpoint_auth_method: 'private_key_jwt' };
    expect(clientDefinitionSchema.safeParse({ ...base, jwks: { keys: [{ ...first, d: 'secret' }] } }).success).toBe(false);
    expect(clientDefinitionSchema.safeParse({ ...base, jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }).success).toBe(false);
    expect(clientDefinitionSchema.safeParse({ ...base, jwks_uri: 'http://partner.example/jwks' }).success).toBe(false);
    expect(clientDefinitionSchema.safeParse({ ...base, jwks: { keys: [first] } }).success).toBe(true);
  });
});
