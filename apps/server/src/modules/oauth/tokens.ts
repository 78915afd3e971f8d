import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { TokenResponse } from '@sso/contracts/auth';
import type { Database } from '../../db/schema.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import { isClientEnabled } from '../clients/client-repo.ts';
import { findGrant, findGrantAndClient, findLegacyGrant, insertGrant, rotateGrant, type GrantKey, type GrantRow, type GrantWithFamily } from './token-repo.ts';

/**
 * Opaque access and refresh tokens, stored only as SHA-256 hashes (docs/security.md "OAuth 2.0").
 * Each token is `<family id>.<grant id>.<secret>`: the first two (the selector) are its grant row's
 * primary key, shared by the pair, the grant id 128 random bits; the secret is 256 random bits of
 * its own. A token is found by its selector and then checked against the stored hash of the whole
 * token in constant time, so that the table needs no index on the hashes (decision 0009). Knowing a
 * selector, from an access token a partner holds, gives nothing towards the secret of the refresh
 * token.
 */
export async function issuePair(
  db: Kysely<Database>,
  familyId: string,
  parentId: string | null,
  scope: string,
  now: number,
  jkt: string | null = null,
): Promise<TokenResponse> {
  const pair = newPair(familyId, parentId, scope, now, jkt);
  await insertGrant(db, pair.row);
  return pair.response;
}

/**
 * The refresh token's grant rotated and its successor issued, in one step that happens only if the
 * grant was still live (token-repo.ts `rotateGrant`); undefined when it was not.
 */
export async function rotatePair(db: Kysely<Database>, parent: GrantKey, scope: string, now: number, jkt: string | null = null): Promise<TokenResponse | undefined> {
  const pair = newPair(parent.family_id, parent.id, scope, now, jkt);
  return (await rotateGrant(db, parent, pair.row, now)) ? pair.response : undefined;
}

/**
 * A new pair of the family: its grant row to write and the answer that carries the tokens. `jkt`: the
 * thumbprint of the DPoP key the pair is bound to (RFC 9449 sections 5 and 6), answered as token_type
 * `DPoP`; null: a Bearer pair.
 */
export function newPair(familyId: string, parentId: string | null, scope: string, now: number, jkt: string | null = null): { row: GrantRow; response: TokenResponse } {
  const id = randomToken(16);
  const access = `${familyId}.${id}.${randomToken()}`;
  const refresh = `${familyId}.${id}.${randomToken()}`;
  return {
    row: {
      id,
      family_id: familyId,
      parent_id: parentId,
      access_hash: sha256(access),
      refresh_hash: sha256(refresh),
      access_expires_at: now + LIMITS.accessTokenTtlMs,
      refresh_expires_at: now + LIMITS.refreshTokenTtlMs,
      created_at: now,
      rotated_at: null,
      revoked_at: null,
      hash_lookup: 0,
      dpop_jkt: jkt,
    },
    response: {
      access_token: access,
      token_type: jkt === null ? 'Bearer' : 'DPoP',
      expires_in: Math.floor(LIMITS.accessTokenTtlMs / 1000),
      refresh_token: refresh,
      ...(scope ? { scope } : {}),
    },
  };
}

export type TokenKind = 'access' | 'refresh';

/** Two hex digests, compared in constant time. */
const sameDigest = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A token's selector: its grant's key, `legacy` for a token issued before migration 0008 (no dot), undefined for anything else. */
function selectorOf(token: string): GrantKey | 'legacy' | undefined {
  const parts = token.split('.');
  if (parts.length === 1) return 'legacy';
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  return { family_id: parts[0] as string, id: parts[1] as string };
}

/** Which of the grant's pair the token is, by its digest against both stored hashes (constant time), or undefined. */
function matching(grant: GrantWithFamily | undefined, digest: string): { grant: GrantWithFamily; kind: TokenKind } | undefined {
  if (!grant) return undefined;
  if (sameDigest(digest, grant.access_hash)) return { grant, kind: 'access' };
  if (sameDigest(digest, grant.refresh_hash)) return { grant, kind: 'refresh' };
  return undefined;
}

/**
 * The grant a token belongs to and which of the pair it is, or undefined for anything that is not
 * a token this server issued: `<family id>.<grant id>.<secret>`, or, issued before migration 0008,
 * a token without a dot, found by its hash. The token type needs no hint (RFC 7009 section 2.1:
 * the server may ignore it).
 */
export async function findToken(db: Kysely<Database>, token: string): Promise<{ grant: GrantWithFamily; kind: TokenKind } | undefined> {
  const selector = selectorOf(token);
  if (selector === undefined) return undefined;
  const digest = sha256(token);
  return matching(selector === 'legacy' ? await findLegacyGrant(db, digest) : await findGrant(db, selector), digest);
}

/**
 * findToken for a token request of `clientId`, with whether that client is registered and enabled in
 * the database now (decision 0031), which the request's route then does not read apart: one statement
 * where the grant is found by its selector, the flag's own read only for a token not found so (an
 * unknown token, one issued before migration 0008).
 */
export async function findTokenOfClient(
  db: Kysely<Database>,
  token: string,
  clientId: string,
): Promise<{ found: { grant: GrantWithFamily; kind: TokenKind } | undefined; clientEnabled: boolean }> {
  const selector = selectorOf(token);
  const read = selector !== undefined && selector !== 'legacy' ? await findGrantAndClient(db, selector, clientId) : undefined;
  if (read) return { found: matching(read.grant, sha256(token)), clientEnabled: read.clientEnabled };
  return { found: selector === 'legacy' ? await findToken(db, token) : undefined, clientEnabled: await isClientEnabled(db, clientId) };
}
