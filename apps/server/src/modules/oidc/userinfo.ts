import type { Kysely } from 'kysely';
import type { SigningAlg } from '@sso/contracts/constants';
import type { UserInfoResponse } from '@sso/contracts/oidc';
import { SCOPES } from '@sso/contracts/scopes';
import type { Database } from '../../db/schema.ts';
import { unauthorizedError } from '../../lib/app-error.ts';
import type { UserRow } from '../account/user-repo.ts';
import { hasCards } from '../cards/card-repo.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import type { BearerToken } from '../oauth/token-service.ts';
import type { OidcDeps } from './id-token.ts';
import { subjectFor } from './subject.ts';

const GENDERS: Record<string, 'male' | 'female'> = { '1': 'male', '2': 'female' };

/** A Japanese number as written here (0 and 9 or 10 more digits) in E.164 (OpenID Connect Core 1.0 section 5.1, `phone_number`). */
const e164 = (tel: string | null): string | undefined => (tel && /^0\d{9,10}$/.test(tel) ? `+81${tel.slice(1)}` : undefined);

/** YYYYMMDD (SPEC.md section 3, "birthday") as ISO 8601 YYYY-MM-DD (section 5.1, `birthdate`). */
const isoDate = (d: string | null): string | undefined => (d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : undefined);

/** Only the claims that have a value: a member without a profile (a card member's names are the card company's) gets none of them. */
const present = <T extends Record<string, unknown>>(claims: T): Partial<T> =>
  Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;

/** `profile` (section 5.4): the kanji names, the kana names tagged ja-Kana-JP (section 5.2), birthdate, gender, updated_at. */
function profileClaims(user: UserRow) {
  const family = user.last_name ?? '';
  const given = user.first_name ?? '';
  return present({
    // Japanese order: family name first, a space between (as the SPA shows it).
    name: family && given ? `${family} ${given}` : undefined,
    family_name: family,
    given_name: given,
    'family_name#ja-Kana-JP': user.last_name_kana ?? undefined,
    'given_name#ja-Kana-JP': user.first_name_kana ?? undefined,
    birthdate: isoDate(user.birthday),
    gender: user.sex ? GENDERS[user.sex] : undefined,
    updated_at: Math.floor(user.updated_at / 1000),
  });
}

/**
 * `phone` (section 5.4): the login mobile number, proven by an SMS code (decision 0014), verified; else
 * the profile's phone, which nothing proved, not verified.
 */
function phoneClaims(user: UserRow) {
  const proven = e164(user.tel);
  const stated = e164(user.profile_tel);
  if (proven) return { phone_number: proven, phone_number_verified: true };
  return stated ? { phone_number: stated, phone_number_verified: false } : {};
}

/**
 * The UserInfo answer (OpenID Connect Core 1.0 section 5.3) for a Bearer token holding `openid`: `sub`,
 * the member's identifier for the token's client (subject.ts), the same as its ID tokens', and the
 * claims of the token's scopes (section 5.4; docs/decisions/0025-openid-provider.md): `profile`,
 * `email` (every login address here was proven by a code or link sent to it), `phone`, and the card
 * membership under `user:read`, the scope a partner reads the member's attributes with.
 */
export async function userInfo(deps: { db: Kysely<Database>; clients: ClientRegistry }, user: UserRow, token: BearerToken): Promise<UserInfoResponse> {
  const client = deps.clients.get(token.clientId);
  const sub = token.subject ?? (client ? subjectFor(client, user.id) : undefined);
  // A session from before migration 0018 of a client no longer registered: no subject to answer with, as a token that is no more.
  if (sub === undefined) throw unauthorizedError();
  const has = (scope: string) => token.scopes.includes(scope);
  return {
    sub,
    ...(has(SCOPES.profile) ? profileClaims(user) : {}),
    ...(has(SCOPES.email) ? { email: user.email, email_verified: true } : {}),
    ...(has(SCOPES.phone) ? phoneClaims(user) : {}),
    ...(has(SCOPES.userRead) ? { card_member: await hasCards(deps.db, user.id) } : {}),
  };
}

/**
 * The UserInfo answer as a JWT, for a client that registered `userinfo_signed_response_alg` (OpenID
 * Connect Core 1.0 section 5.3.2; decision 0034): the same claims with `iss` and `aud` (the client),
 * and `iat`, signed with the current key of that algorithm; served as `application/jwt`.
 */
export async function userInfoJwt(deps: OidcDeps, p: { claims: UserInfoResponse; clientId: string; alg: SigningAlg; now: number }): Promise<string> {
  return deps.signer.sign('JWT', { ...p.claims, iss: deps.issuer, aud: p.clientId, iat: Math.floor(p.now / 1000) }, p.alg);
}
