import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { clientOrigin } from '@sso/contracts/client-origin';
import { CLIENT_IDS, LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import type {
  DirectLoginTokenResponse,
  DirectLoginUrlResponse,
  directLoginNaRequestSchema,
  directLoginScRequestSchema,
  preauthDirectLoginRequestSchema,
  userOnetimeTokenRequestSchema,
  userOnetimeTokenResponseSchema,
} from '@sso/contracts/direct-login';
import { CARD_MESSAGES, DIRECT_LOGIN_MESSAGES } from '@sso/contracts/screen-messages';
import type { ServiceLink } from '@sso/contracts/user';
import type { Database } from '../../db/schema.ts';
import { retryable, unauthorizedError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import type { NetAnswer } from '../../ports/net-answer.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { requireCardholder } from '../oauth/cardholders-only.ts';
import { holdMember } from '../account/member-hold-repo.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { liveFamilyAuthTime, usedClientIds } from '../oauth/token-repo.ts';
import { findMemberCard } from '../cards/card-repo.ts';
import { challengeFor } from './hand-off-proof.ts';
import { requireAcceptedTerms } from './partner-terms-service.ts';
import { findLiveDirectLogin, insertDirectLogin } from './grants.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface IssueDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
  netAnswer: NetAnswer;
}

/** The member behind a Bearer token, the client the token was issued to (the `source` of a direct login) and the token's scopes. */
export interface BearerMember {
  userId: string;
  clientId: string;
  /** The Bearer token's session: a token is issued only while it lives. */
  familyId: string;
  scopes: readonly string[];
}

/**
 * A hand-off never widens authority (docs/decisions/0010-scopes-and-audience.md): the session its
 * token opens has the target client's scopes (redeem-service.ts), so the Bearer token must hold
 * every one of them. A partner's token can never open a session of the web or a portal app.
 */
const withinScope = (member: BearerMember, target: OAuthClient): boolean => target.scopes.every((s) => member.scopes.includes(s));

/**
 * Issues a direct-login one-time token (decision 0006): 256 random bits, stored only as SHA-256,
 * redeemable once by `client` within LIMITS.directLoginTokenTtlMs, and only with the verifier of
 * `codeChallenge` when there is one (decision 0013). A member refused the client (a cardholders-only
 * service without a card, SPEC.md section 6) gets 300 before its terms are named; otherwise the member
 * must have accepted the client's terms first (decision 0013). The issue is logged.
 */
async function issueToken(
  deps: IssueDeps,
  p: { userId: string; familyId: string; client: OAuthClient; sourceClientId: string | null; subuserId: string | null; codeChallenge: string | null },
): Promise<string> {
  await requireCardholder(deps.db, p.userId, p.client.client_id);
  await requireAcceptedTerms(deps.db, p.userId, p.client);
  const token = randomToken();
  const now = deps.clock.now();
  const row = {
    id: newId(),
    user_id: p.userId,
    client_id: p.client.client_id,
    source_client_id: p.sourceClientId,
    subuser_id: p.subuserId,
    created_at: now,
    expires_at: now + LIMITS.directLoginTokenTtlMs,
    code_challenge: p.codeChallenge,
  };
  await deps.db.transaction().execute(async (trx) => {
    // Under the member's row (member-hold-repo.ts): a session ended meanwhile hands nothing on.
    const source = (await holdMember(trx, p.userId))?.active ? await liveFamilyAuthTime(trx, p.familyId) : undefined;
    if (!source) throw unauthorizedError();
    // The session the token opens carries the member's authentication of the asking session, not
    // the time of its redemption (OpenID Connect Core 1.0 section 2 `auth_time`; migration 0019).
    await insertDirectLogin(trx, { ...row, auth_time: source.authTime }, sha256(token));
    await logActivity(trx, { userId: p.userId, event: 'direct_login_issued', clientId: p.client.client_id, at: now });
  });
  return token;
}

/** The URL a client is handed the member at: its registered direct_login_uri with the token. */
function directLoginUrl(client: OAuthClient & { direct_login_uri: string }, token: string): string {
  const url = new URL(client.direct_login_uri);
  url.searchParams.set('onetime_token', token);
  return url.toString();
}

const handsOffTo = (client: OAuthClient | undefined): client is OAuthClient & { direct_login_uri: string } =>
  Boolean(client?.direct_login_uri);

/** The member's service links (SPEC.md section 3): the registered services they have signed in to. */
async function serviceLinks(deps: IssueDeps, userId: string): Promise<ServiceLink[]> {
  const links: ServiceLink[] = [];
  for (const id of await usedClientIds(deps.db, userId)) {
    const c = deps.clients.get(id);
    if (c?.service_link) links.push({ name: c.name, client_id: c.client_id });
  }
  return links;
}

/**
 * POST /api/auth/user_onetime_token (Bearer): a token for the Bearer's member, for the web client
 * (default) or for the Bearer's own client. Minting one for any other client is refused: handing
 * the member to another service goes through /api/subuser/direct_login/sc. A portal app asking for
 * its own token gives its challenge (decision 0013).
 */
export async function userOnetimeToken(
  deps: IssueDeps,
  member: BearerMember,
  input: z.infer<typeof userOnetimeTokenRequestSchema>,
): Promise<z.infer<typeof userOnetimeTokenResponseSchema>> {
  const client = deps.clients.get(input.client_id || WEB_CLIENT_ID);
  if (!client || (clientOrigin(client.client_id) !== 'web' && client.client_id !== member.clientId) || !withinScope(member, client)) {
    throw retryable(DIRECT_LOGIN_MESSAGES.serviceUnavailable);
  }
  const codeChallenge = challengeFor(client, input);
  const token = await issueToken(deps, { userId: member.userId, familyId: member.familyId, client, sourceClientId: member.clientId, subuserId: null, codeChallenge });
  return { ...OK_RESPONSE, onetime_token: token, expires_in: Math.floor(LIMITS.directLoginTokenTtlMs / 1000) };
}

/**
 * POST /api/subuser/direct_login/sc (Bearer): a token for a registered partner service (one with a
 * direct_login_uri and a service link), naming the member's card when one is given (ownership
 * checked: another member's card and no card answer alike), plus the member's service links. A
 * portal app's token is bound to the challenge of the app that asked (decision 0013).
 */
export async function serviceDirectLogin(
  deps: IssueDeps,
  member: BearerMember,
  input: z.infer<typeof directLoginScRequestSchema>,
): Promise<DirectLoginTokenResponse> {
  const client = deps.clients.get(input.client_id);
  if (!handsOffTo(client) || !client.service_link || !withinScope(member, client)) throw retryable(DIRECT_LOGIN_MESSAGES.serviceUnavailable);
  const codeChallenge = challengeFor(client, input);
  if (input.subuser_id && !(await findMemberCard(deps.db, member.userId, input.subuser_id))) throw retryable(CARD_MESSAGES.cardNotFound);
  const token = await issueToken(deps, {
    userId: member.userId,
    familyId: member.familyId,
    client,
    sourceClientId: member.clientId,
    subuserId: input.subuser_id || null,
    codeChallenge,
  });
  return { ...OK_RESPONSE, onetime_token: token, subuser_id: input.subuser_id, links: await serviceLinks(deps, member.userId) };
}

/**
 * POST /api/preauth/direct_login: the URL that hands a live token to its client. The token is not
 * used here (the client redeems it); an unknown, expired, used or other client's token answers 902,
 * a member refused the client (SPEC.md section 6) 300.
 */
export async function preauthDirectLogin(
  deps: IssueDeps,
  input: z.infer<typeof preauthDirectLoginRequestSchema>,
): Promise<DirectLoginUrlResponse> {
  const client = deps.clients.get(input.client_id);
  if (!handsOffTo(client)) throw retryable(DIRECT_LOGIN_MESSAGES.serviceUnavailable);
  const grant = await findLiveDirectLogin(deps.db, sha256(input.onetime_token), deps.clock.now());
  if (!grant || grant.client_id !== client.client_id) throw retryable(DIRECT_LOGIN_MESSAGES.tokenInvalid);
  // A card removed since the token was issued: the member is told here, not at the partner (SPEC.md section 6).
  await requireCardholder(deps.db, grant.user_id, client.client_id);
  return { ...OK_RESPONSE, direct_login_url: directLoginUrl(client, input.onetime_token) };
}

/**
 * POST /api/subuser/direct_login/na (Bearer): Net Answer's one-time URL for the member's active card
 * with a linked Net Answer id. Without a linked id, 902 netAnswerRequired: the SPA then asks for
 * the id and password (/api/subuser/na/add) and tries again.
 */
export async function netAnswerDirectLogin(
  deps: IssueDeps,
  userId: string,
  input: z.infer<typeof directLoginNaRequestSchema>,
): Promise<DirectLoginUrlResponse> {
  const card = await findMemberCard(deps.db, userId, input.subuser_id);
  if (!card || card.status !== 'active') throw retryable(CARD_MESSAGES.cardNotFound);
  if (!card.na_id) throw retryable(CARD_MESSAGES.netAnswerRequired);
  // Net Answer is a partner service too: its terms first, as at authorize (decision 0013).
  const netAnswer = deps.clients.get(CLIENT_IDS.netAnswer);
  if (netAnswer) await requireAcceptedTerms(deps.db, userId, netAnswer);
  const url = await deps.netAnswer.directLoginUrl({ esid: card.esid, naId: card.na_id, param1: input.param1, param2: input.param2 });
  await logActivity(deps.db, { userId, event: 'direct_login_issued', clientId: CLIENT_IDS.netAnswer, at: deps.clock.now() });
  return { ...OK_RESPONSE, direct_login_url: url };
}
