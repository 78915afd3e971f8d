import type { z } from 'zod';
import { authorizeQuerySchema } from '@sso/contracts/auth';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { signupAuthorizeFormSchema, signupAuthorizeSchema, type termsAcceptRequestSchema, type SignupStepResponse } from '@sso/contracts/signup';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { newId, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { recordTermAcceptance } from '../account/user-repo.ts';
import { issueCodeRedirect, redirectTo, type AuthorizeTarget, type SessionStart } from '../oauth/authorize-service.ts';
import { grantedScope } from '../oauth/granted-scope.ts';
import { uniqueViolation } from '../../db/unique-violation.ts';
import type { Background } from '../../lib/background.ts';
import { telInUse } from '../account/member-repo.ts';
import { retryable } from '../../lib/app-error.ts';
import { subuserOfCard } from '../cards/card-lookup.ts';
import { advanceSignupFlow, findLiveFlow, type FlowRow } from './flow-repo.ts';
import { flowAuthorize, flowCard, loadFlow, signupExpired, stepAnswer, type SignupDeps } from './flow-service.ts';
import { insertCardMember } from './card-member.ts';
import { ACR_NOT_MET, meetsAcrValues } from '../oidc/acr-request.ts';

/**
 * The hand-off's request: the sign-up's authorize parameters and the DPoP key the code is to be
 * redeemed with (RFC 9449 section 10), a pushed request's own (decision 0039), as the login reads it.
 */
const handOffQuerySchema = signupAuthorizeSchema.extend({ dpop_jkt: authorizeQuerySchema.shape.dpop_jkt });

/** How a sign-up authenticates the member: the one-time password or PIN just passed (RFC 8176 `otp`). */
const SIGNUP_AMR = ['otp'] as const;

type TermsInput = z.infer<typeof termsAcceptRequestSchema>;

/** terms_accept tells the card master the paperless choice after answering (decision 0006). */
export type TermsDeps = SignupDeps & { background: Background };

/** Creates the member, links the card, records the terms and moves the flow to authorize, all or nothing. */
async function createMember(deps: SignupDeps, flow: FlowRow, withTel: boolean, device: string | null): Promise<void> {
  const now = deps.clock.now();
  const userId = newId();
  const card = flowCard(flow);
  const terms = (deps.clients.get(flow.client_id)?.terms ?? []).filter(isTermKey);
  await deps.db.transaction().execute(async (trx) => {
    // First, so that of parallel calls exactly one goes on (the others answer 300).
    if (!(await advanceSignupFlow(trx, { id: flow.id, from: 'terms', to: 'authorize', now, userId }))) throw signupExpired();
    // The mobile the SMS check proved becomes a login id too, unless another member has it.
    const tel = withTel && flow.tel && !(await telInUse(trx, flow.tel)) ? flow.tel : null;
    await insertCardMember(
      trx,
      { id: userId, email: flow.email, tel, password_hash: flow.password_hash },
      subuserOfCard(card, { id: newId(), mailDigital: flow.mail_digital }),
      now,
    );
    for (const key of terms) await recordTermAcceptance(trx, userId, key, TERM_VERSIONS[key], now);
    await logActivity(trx, { userId, event: 'signup', clientId: flow.client_id, device, at: now });
  });
}

/**
 * POST /api/signup/terms_accept (state terms; SPEC.md section 4). The member exists from here:
 * e-mail and password of the card step, member type card, the card as its first sub-user, the
 * client's terms accepted. An e-mail or card taken by a parallel sign-up in the meantime ends the
 * flow with its own 902. A paperless choice (/api/signup/mail/digital) is on the sub-user and goes
 * to the card master once the member exists (docs/decisions/0006): the card master is another
 * system, so it is told outside the transaction and after the answer, and a failure there is
 * logged, never answered (the choice stays on sub_users.mail_digital).
 */
export async function acceptSignupTerms(deps: TermsDeps, input: TermsInput, device: string | null): Promise<SignupStepResponse> {
  const flow = await loadFlow(deps, input.register_token, 'terms');
  if (flow.client_id !== input.client_id) throw signupExpired();
  for (const withTel of [true, false]) {
    try {
      await createMember(deps, flow, withTel, device);
      const digital = flow.mail_digital;
      if (digital !== null) {
        const { esid } = flowCard(flow);
        deps.background.run('statement delivery choice', () => deps.cardMaster.setStatementDelivery(esid, digital === 1));
      }
      return stepAnswer(deps, flow, input.register_token);
    } catch (err) {
      const column = uniqueViolation(err);
      if (column === undefined) throw err;
      // Another member took the mobile number in the same moment: the member is made without it.
      if (column === 'tel' && withTel) continue;
      await advanceSignupFlow(deps.db, { id: flow.id, from: 'terms', to: 'done', now: deps.clock.now() });
      throw retryable(column === 'esid' ? SIGNUP_MESSAGES.cardAlreadyLinked : SIGNUP_MESSAGES.emailRegistered);
    }
  }
  throw signupExpired();
}

/**
 * POST /api/signup/authorize (SPEC.md sections 4 and 7): the SPA's hidden form after terms_accept.
 * The caller has checked client_id and the exact redirect URI. The query must name the flow's
 * client, redirect URI and PKCE challenge; the flow moves to done in one conditional update and the
 * code is issued exactly as the login authorize issues it, its scope granted the same way (decision
 * 0010). A scope the client may not have redirects with invalid_scope, every other failure with
 * access_denied (RFC 6749 section 4.1.2.1).
 */
export async function authorizeSignup(
  deps: SignupDeps,
  target: AuthorizeTarget,
  rawForm: unknown,
  /** The browser's device (lib/device.ts) and the SSO session the sign-up starts (modules/sso, decision 0026). */
  origin: { browser: { device: string | null }; session?: SessionStart },
): Promise<string> {
  const { device } = origin.browser;
  const rawQuery = target.query;
  const state = typeof rawQuery.state === 'string' ? rawQuery.state : '';
  const deny = (description: string, error = 'access_denied') =>
    redirectTo(target.redirectUri, { error, error_description: description }, state, deps.issuer);
  const query = handOffQuerySchema.safeParse(rawQuery);
  const form = signupAuthorizeFormSchema.safeParse(rawForm ?? {});
  if (!query.success || !form.success) return deny('invalid or missing parameter');
  const now = deps.clock.now();
  const flow = await findLiveFlow(deps.db, sha256(form.data.register_token), now);
  if (!flow || flow.state !== 'authorize' || !flow.user_id) return deny('sign-up is not complete or has expired');
  const asked = flowAuthorize(flow);
  // The very request the sign-up began with: a pushed one's own request_uri (decision 0036), or a plain one's parameters.
  if (
    asked.client_id !== query.data.client_id ||
    asked.redirect_uri !== query.data.redirect_uri ||
    asked.code_challenge !== query.data.code_challenge ||
    asked.pushed !== target.pushed
  ) {
    return deny('the authorization request differs from the sign-up');
  }
  const scope = grantedScope(target.client, asked.scope);
  if (scope === undefined) return deny('scope is not allowed for this client', 'invalid_scope');
  // A one-time code is no passkey: a client that asked for phishing-resistant authentication is
  // refused as at the login (oidc/acr-request.ts); the new member signs in with a passkey later.
  if (!meetsAcrValues(SIGNUP_AMR, typeof rawQuery.acr_values === 'string' ? rawQuery.acr_values : undefined)) {
    return deny(ACR_NOT_MET);
  }
  const userId = flow.user_id;
  const location = await deps.db.transaction().execute(async (trx) => {
    if (!(await advanceSignupFlow(trx, { id: flow.id, from: 'authorize', to: 'done', now }))) return undefined;
    // A sign-up proves the card and the mailbox, not the password at the keyboard now: its session starts unproved (decision 0012).
    // It authenticates the member by the one-time password or PIN just passed (RFC 8176 `otp`); the request's nonce went with the sign-up.
    const context = { authTime: now, amr: [...SIGNUP_AMR], nonce: asked.nonce ?? null, ssoSessionId: null, session: origin.session };
    const issue = { client: target.client, redirectUri: target.redirectUri, pushed: target.pushed, codeChallenge: asked.code_challenge, scope, userId, state, device, provedAt: null, dpopJkt: query.data.dpop_jkt, ...context };
    // A portal app returns to the card this sign-up registered (decision 0020).
    return issueCodeRedirect({ ...deps, db: trx }, { ...issue, registeredEsid: flowCard(flow).esid });
  });
  return location ?? deny('sign-up is not complete or has expired');
}
