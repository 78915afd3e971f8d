import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { OAuthError } from '../../lib/app-error.ts';
import { ManualClock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/secrets.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withMigratedDb } from '../../test-support/vitest.ts';
import { clientDefinitionSchema, registryOf, type ClientRegistry, type OAuthClient } from '../clients/clients.ts';
import { JWT_BEARER_ASSERTION } from './client-assertion.ts';
import { authenticateClient, type ClientCredentialsForm } from './client-auth.ts';
import { clientKeySets, type ClientKeySets } from './client-keys.ts';

const ISSUER = 'http://sso.test';
const keyPair = await generateKeyPair('ES256');
const publicJwk: JWK = { ...(await exportJWK(keyPair.publicKey)), kid: 'k1', alg: 'ES256' };

const definition = (fields: Record<string, unknown>) =>
  clientDefinitionSchema.parse({ name: 'partner', redirect_uris: ['https://partner.example/cb'], ...fields });

/** A registry of one private_key_jwt client, one secret client and one public client, counting the secrets it checks. */
function countingRegistry(now: () => number): { clients: ClientRegistry; secretChecks: () => number } {
  const clients = registryOf(
    [
      { definition: definition({ client_id: 'JWT1', type: 'confidential', token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [publicJwk] } }), enabled: true, secrets: [] },
      { definition: definition({ client_id: 'SEC1', type: 'confidential' }), enabled: true, secrets: [{ sha256: sha256('right-secret'), retireAt: null }] },
      { definition: definition({ client_id: 'PUB1', type: 'public' }), enabled: true, secrets: [] },
    ],
    ISSUER,
    now,
  );
  let checks = 0;
  return {
    clients: { ...clients, authenticate: (c, s) => (checks++, clients.authenticate(c, s)) },
    secretChecks: () => checks,
  };
}

/** The real key sets, counting how often an assertion's keys are asked for (each signature verification asks). */
function countingKeys(clock: ManualClock): { keys: ClientKeySets; lookups: () => number } {
  const real = clientKeySets({ clock, allowHttp: false });
  let lookups = 0;
  return { keys: { keysOf: (c: OAuthClient) => (lookups++, real.keysOf(c)) }, lookups: () => lookups };
}

describe.each(DIALECTS)('client authentication and its failure limits (%s)', (dialect) => {
  const db = withMigratedDb(dialect);

  // Each test's counters in windows of their own: the database is the describe block's.
  let tests = 0;
  function setup() {
    const clock = new ManualClock(Date.now() + tests++ * 2 * LIMITS.clientAuthFailureWindowMs);
    const registry = countingRegistry(() => clock.now());
    const keys = countingKeys(clock);
    const deps = { db: db(), clock, issuer: ISSUER, clients: registry.clients, clientKeys: keys.keys };
    const sign = (claims: Record<string, unknown> = {}) => {
      const now = Math.floor(clock.now() / 1000);
      return new SignJWT({ iss: 'JWT1', sub: 'JWT1', aud: ISSUER, iat: now, exp: now + 60, jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .sign(keyPair.privateKey);
    };
    const auth = (body: ClientCredentialsForm, address = '192.0.2.1', authorization?: string) =>
      authenticateClient(deps, { authorization, address }, body).then(
        (a) => a.client.client_id,
        (e: unknown) => (e instanceof OAuthError ? { error: e.error, status: e.httpStatus, retryAfter: e.retryAfterS } : Promise.reject(e)),
      );
    const jwt = async (claims: Record<string, unknown> = {}) => ({ client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await sign(claims) });
    return { clock, auth, jwt, sign, secretChecks: registry.secretChecks, lookups: keys.lookups };
  }

  const refused = { error: 'invalid_client', status: 401, retryAfter: undefined };

  it('accepts an assertion once, to either audience, with or without client_id; refuses its replay and a secret of the client', async () => {
    const { auth, jwt, sign } = setup();
    const body = await jwt();
    expect(await auth(body)).toBe('JWT1');
    expect(await auth(body)).toEqual(refused);
    expect(await auth({ client_id: 'JWT1', ...(await jwt({ aud: `${ISSUER}/api/auth/token` })) })).toBe('JWT1');
    // client_id and the assertion name different clients.
    expect(await auth({ client_id: 'SEC1', ...(await jwt()) })).toEqual(refused);
    // One method a client: its assertion beside a secret, or a secret alone.
    expect(await auth({ client_id: 'JWT1', client_secret: 'x', ...(await jwt()) })).toEqual(refused);
    expect(await auth({}, undefined, `Basic ${Buffer.from('JWT1:right-secret').toString('base64')}`)).toEqual(refused);
    // Another assertion type.
    expect(await auth({ client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer', client_assertion: await sign() })).toEqual(refused);
  });

  it('refuses an assertion of another audience, an expired one, one of a far exp, one from the future, one without jti, and a secret client\'s assertion', async () => {
    const { auth, jwt, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    expect(await auth(await jwt({ aud: 'https://elsewhere.example' }))).toEqual(refused);
    expect(await auth(await jwt({ aud: [ISSUER, 'https://elsewhere.example'] }))).toEqual(refused);
    expect(await auth(await jwt({ exp: now - 120 }))).toEqual(refused);
    expect(await auth(await jwt({ exp: now + 10 * 60 }))).toEqual(refused);
    expect(await auth(await jwt({ iat: now + 600, exp: now + 660 }))).toEqual(refused);
    expect(await auth(await jwt({ nbf: now + 600 }))).toEqual(refused);
    expect(await auth(await jwt({ jti: undefined }))).toEqual(refused);
    expect(await auth({ client_id: 'SEC1', ...(await jwt({ iss: 'SEC1', sub: 'SEC1' })) })).toEqual(refused);
  });

  it('refuses an HS256 assertion, one of another key and an unsigned one', async () => {
    const { auth, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    const claims = { iss: 'JWT1', sub: 'JWT1', aud: ISSUER, jti: randomUUID(), exp: now + 60 };
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(new TextEncoder().encode('a'.repeat(32)));
    const other = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign((await generateKeyPair('ES256')).privateKey);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    for (const a of [hs, other, none]) expect(await auth({ client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: a })).toEqual(refused);
  });

  it(`answers 429 with Retry-After after ${LIMITS.clientAuthFailuresPerClient} failures of one client, from any address, without verifying; a success counts nothing`, async () => {
    const { auth, jwt, sign, lookups, clock } = setup();
    for (let i = 0; i < 5; i++) expect(await auth(await jwt(), `198.51.100.${i}`)).toBe('JWT1');
    const wrong = await new SignJWT({ jti: 'w' }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer('JWT1').setSubject('JWT1').setAudience(ISSUER).setExpirationTime('1m').sign((await generateKeyPair('ES256')).privateKey);
    for (let i = 0; i < LIMITS.clientAuthFailuresPerClient; i++) {
      expect(await auth({ client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: wrong }, `203.0.113.${i}`)).toEqual(refused);
    }
    const before = lookups();
    const limited = { error: 'temporarily_unavailable', status: 429, retryAfter: LIMITS.clientAuthFailureWindowMs / 1000 };
    const good = await jwt();
    expect(await auth(good, '192.0.2.200')).toEqual(limited);
    expect(lookups(), 'no signature verified for a limited client').toBe(before);
    // Another client is not limited by it; the window over, the client's right assertion works again (its jti was not used up).
    expect(await auth({ client_id: 'SEC1', client_secret: 'right-secret' }, '192.0.2.200')).toBe('SEC1');
    clock.advance(LIMITS.clientAuthFailureWindowMs);
    expect(await auth({ client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await sign() }, '192.0.2.200')).toBe('JWT1');
  });

  it(`answers 429 after ${LIMITS.clientAuthFailuresPerAddress} failures from one address (an IPv6 /64), unknown clients included, without hashing a secret; public clients are never limited`, async () => {
    const { auth, secretChecks } = setup();
    for (let i = 0; i < LIMITS.clientAuthFailuresPerAddress; i++) {
      // A few wrong secrets of a client (under its own limit), the rest unknown clients.
      const body = i < 10 ? { client_id: 'SEC1', client_secret: `wrong-${i}` } : { client_id: `NOPE${i}`, client_secret: 'x' };
      expect(await auth(body, `2001:db8:1:2::${i.toString(16)}`)).toEqual(refused);
    }
    const before = secretChecks();
    expect(await auth({ client_id: 'SEC1', client_secret: 'right-secret' }, '2001:db8:1:2:ffff::1')).toMatchObject({ status: 429, retryAfter: 300 });
    expect(secretChecks(), 'no secret hashed for a limited address').toBe(before);
    // The public client names itself only: nothing to guess, nothing counted or limited.
    expect(await auth({ client_id: 'PUB1' }, '2001:db8:1:2::1')).toBe('PUB1');
    // Another /64 is not limited.
    expect(await auth({ client_id: 'SEC1', client_secret: 'right-secret' }, '2001:db8:1:3::1')).toBe('SEC1');
  });
});
