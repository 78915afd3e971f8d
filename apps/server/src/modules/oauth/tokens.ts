import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { TokenResponse } from '@sso/contracts/auth';
import type { Database } from '../../db/schema.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { insertGrant } from './token-repo.ts';

/** Opaque access and refresh tokens, stored only as SHA-256 hashes (issue 2, item 5). */
export async function issuePair(
  db: Kysely<Database>,
  familyId: string,
  parentId: string | null,
  scope: string,
  now: number,
): Promise<TokenResponse> {
  const access = randomToken();
  const refresh = randomToken();
  await insertGrant(db, {
    id: newId(),
    family_id: familyId,
    parent_id: parentId,
    access_hash: sha256(access),
    refresh_hash: sha256(refresh),
    access_expires_at: now + LIMITS.accessTokenTtlMs,
    refresh_expires_at: now + LIMITS.refreshTokenTtlMs,
    created_at: now,
    rotated_at: null,
    revoked_at: null,
  });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: Math.floor(LIMITS.accessTokenTtlMs / 1000),
    refresh_token: refresh,
    ...(scope ? { scope } : {}),
  };
}
