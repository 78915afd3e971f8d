import { createHmac, hkdfSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { useJtiOnce } from '../../db/used-jti-repo.ts';
import { OAuthError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { constantTimeEqual, sha256Base64Url } from '../../lib/secrets.ts';
import type { OAuthClient } from '../clients/clients.ts';

/**
 * DPoP proofs (RFC 9449; docs/decisions/0037-dpop.md): the `DPoP` header's JWT checked as section 4.3
 * says, once, at the token endpoint and at every endpoint that takes an access token; and the
 * server's nonces (sections 8 and 9), stateless so that every node accepts every node's.
 */

/** The asymmetric algorithms a proof may be signed with (section 4.2: never a MAC, never `none`): advertised as `dpop_signing_alg_values_supported`. */
export const DPOP_ALGS = ['ES256', 'PS256', 'RS256', 'EdDSA'];

/** How old a proof's `iat` may be, and how far ahead of this server's clock (a client's clock skew), in ms (section 4.3 check 11). */
const PROOF_MAX_AGE_MS = 300_000;
const PROOF_MAX_AHEAD_MS = 60_000;

/** A nonce's time slot (section 8): a nonce of this slot or the one before is accepted, so that one lives from 3 to 6 minutes. */
const NONCE_SLOT_MS = 180_000;

/** What the proofs are checked against: PUBLIC_ORIGIN, the base of every `htu`, and the nonce key when nonces are required. */
export interface DpopSettings {
  origin: string;
  /** The key the nonces are an HMAC under (DPOP_NONCE=true), derived from a secret all nodes share; undefined: no nonce is asked for. */
  nonceKey: Buffer | undefined;
}

/**
 * The settings of this deployment: DPOP_NONCE's key is derived (HKDF, RFC 5869) from SIGNING_KEY_SECRET,
 * which every node already holds, under a label of its own, so that a nonce says nothing of that secret
 * and needs no variable, no table, no shared cache.
 */
export function dpopSettings(p: { publicOrigin: string; requireNonce: boolean; secret: string }): DpopSettings {
  const nonceKey = p.requireNonce ? Buffer.from(hkdfSync('sha256', p.secret, '', 'member-sso dpop nonce', 32)) : undefined;
  return { origin: p.publicOrigin, nonceKey };
}

/** The two ways a proof fails (sections 5.1 and 7.1): a bad proof, or one without the nonce the server asks for. */
export class DpopError extends Error {
  constructor(
    readonly error: 'invalid_dpop_proof' | 'use_dpop_nonce',
    readonly description: string,
  ) {
    super(description);
  }
}

const invalid = (why: string) => new DpopError('invalid_dpop_proof', why);

const nonceFor = (key: Buffer, slot: number) => `${slot.toString(36)}.${createHmac('sha256', key).update(`dpop:${slot}`).digest('base64url').slice(0, 32)}`;

/** The nonce a client should send now (section 8), or undefined when none is asked for: answered as `DPoP-Nonce`. */
export const currentNonce = (settings: DpopSettings, now: number): string | undefined =>
  settings.nonceKey && nonceFor(settings.nonceKey, Math.floor(now / NONCE_SLOT_MS));

/** Whether `nonce` is one this deployment gave out within the last slot or this one, compared in constant time. */
function nonceValid(key: Buffer, nonce: unknown, now: number): boolean {
  if (typeof nonce !== 'string') return false;
  const slot = Math.floor(now / NONCE_SLOT_MS);
  return [slot, slot - 1].some((s) => constantTimeEqual(nonce, nonceFor(key, s)));
}

/** An http(s) URI without its query and fragment, normalised (RFC 3986 section 6.2.2, as the WHATWG URL parser does): undefined if it is none. */
function withoutQuery(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.search = '';
    url.hash = '';
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The single `DPoP` header of a request (section 4.3 check 1), undefined when there is none. Node
 * joins a repeated header with commas, which a JWT never holds: two headers are refused.
 */
function dpopHeader(headers: FastifyRequest['headers']): string | undefined {
  const value = headers.dpop;
  if (value === undefined) return undefined;
  if (Array.isArray(value) || value.includes(',')) throw invalid('more than one DPoP header');
  return value;
}

interface ProofRequest {
  /** The request's method and path (without the query), which `htm` and `htu` must name. */
  method: string;
  path: string;
  /** The access token presented with the proof, which `ath` must be the hash of (section 4.3 check 12); none at the token endpoint. */
  accessToken?: string | undefined;
  now: number;
}

export interface DpopDeps {
  db: Kysely<Database>;
  clock: Clock;
  dpop: DpopSettings;
}

/**
 * The DPoP proof of a request, checked (verifyProof) against its method and URI, and `accessToken`
 * when one is presented with it: its key's thumbprint, or undefined when the request carries no
 * proof; a DpopError when it carries a bad one.
 */
export async function requestProof(deps: DpopDeps, request: FastifyRequest, accessToken?: string): Promise<string | undefined> {
  const proof = dpopHeader(request.headers);
  if (proof === undefined) return undefined;
  return verifyProof(deps, proof, { method: request.method, path: request.url.split('?')[0] ?? '', accessToken, now: deps.clock.now() });
}

/**
 * The key of the DPoP proof sent to the token or the pushed authorization request endpoint, or
 * undefined without one; `required`: the description of the refusal when a proof must be sent. A bad
 * proof answers `invalid_dpop_proof`, one without the nonce `use_dpop_nonce` (section 8); while nonces
 * are required every answer carries the current one.
 */
export async function endpointProofKey(deps: DpopDeps, request: FastifyRequest, reply: FastifyReply, required?: string): Promise<string | undefined> {
  const nonce = currentNonce(deps.dpop, deps.clock.now());
  if (nonce) reply.header('DPoP-Nonce', nonce);
  try {
    const jkt = await requestProof(deps, request);
    if (jkt === undefined && required !== undefined) throw invalid(required);
    return jkt;
  } catch (failure) {
    if (failure instanceof DpopError) throw new OAuthError(failure.error, failure.description);
    throw failure;
  }
}

/**
 * The DPoP key a token request binds its tokens to (section 5), or null for Bearer tokens: every
 * endpoint that issues tokens asks this. A client registered with `dpop_bound_access_tokens` must
 * send a proof (section 5.2).
 */
export const tokenRequestKey = async (deps: DpopDeps, request: FastifyRequest, reply: FastifyReply, client: OAuthClient): Promise<string | null> =>
  (await endpointProofKey(deps, request, reply, client.dpop_bound_access_tokens ? 'this client must send a DPoP proof with every token request' : undefined)) ?? null;

/**
 * Checks a DPoP proof (section 4.3) and uses up its `jti` on every node (db/used-jti-repo.ts): the
 * thumbprint (RFC 7638) of its key, or a DpopError. The signature is checked with the key in its
 * header, a public key of an allowed algorithm (jose refuses a private one, and RSA keys under 2048
 * bits); `htm` and `htu` name this request, `iat` is recent, `ath` hashes the token presented, `nonce`
 * is the server's when it asks for one. The `jti` is recorded last, so that a proof refused for
 * anything else stays unused.
 */
async function verifyProof(deps: Pick<DpopDeps, 'db' | 'dpop'>, proof: string, r: ProofRequest): Promise<string> {
  let header;
  let payload;
  try {
    if (decodeProtectedHeader(proof).typ !== 'dpop+jwt') throw invalid('typ must be dpop+jwt');
    ({ payload, protectedHeader: header } = await jwtVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGS, currentDate: new Date(r.now) }));
  } catch (failure) {
    if (failure instanceof DpopError) throw failure;
    throw invalid('the DPoP proof is not a JWT signed by the public key in its header with an allowed algorithm');
  }
  const { jti, htm, htu, iat } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw invalid('jti is missing');
  if (htm !== r.method) throw invalid('htm does not match the request method');
  const expected = withoutQuery(`${deps.dpop.origin}${r.path}`);
  if (typeof htu !== 'string' || expected === undefined || withoutQuery(htu) !== expected) throw invalid('htu does not match the request URI');
  if (typeof iat !== 'number' || iat * 1000 < r.now - PROOF_MAX_AGE_MS || iat * 1000 > r.now + PROOF_MAX_AHEAD_MS) throw invalid('iat is not recent');
  if (r.accessToken !== undefined && (typeof payload.ath !== 'string' || !constantTimeEqual(payload.ath, sha256Base64Url(r.accessToken)))) {
    throw invalid('ath does not match the access token');
  }
  if (deps.dpop.nonceKey && !nonceValid(deps.dpop.nonceKey, payload.nonce, r.now)) throw new DpopError('use_dpop_nonce', 'a DPoP nonce from the server is required');
  const jkt = await calculateJwkThumbprint(header.jwk as JWK, 'sha256');
  if (!(await useJtiOnce(deps.db, 'dpop', jkt, jti, iat * 1000 + PROOF_MAX_AGE_MS))) throw invalid('the DPoP proof was already used');
  return jkt;
}

/** A `dpop_jkt` (section 10): a base64url SHA-256 thumbprint. */
export const JKT_PATTERN = /^[A-Za-z0-9_-]{43}$/;
