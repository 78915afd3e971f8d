import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { DIRECT_LOGIN_MESSAGES } from '@sso/contracts/screen-messages';
import { fetchAccount, liveAccount } from '../../lib/account-identity.ts';
import { failLogin, goToTargetAfterLogin, markSent, saveLogin, wasSent } from '../../lib/login-callback.ts';
import { goToError } from '../../lib/navigation.ts';
import { getTokenRecord, saveAccount, saveSession, webRedirectUri, type AccountRecord } from '../../lib/records.ts';
import { ApiFailure, UNEXPECTED_CODE } from '../../lib/result.ts';
import type { TokenFields } from '../../lib/token-answer.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { AccountChoice } from './account-choice.tsx';
import { exchangeDirectLogin, revokeLogin } from './direct-login-api.ts';
import { callbackPlan, type CallbackPlan } from './hand-off-params.ts';

type Exchange = Extract<CallbackPlan, { kind: 'exchange' }>;

interface Choice {
  plan: Exchange;
  tokens: TokenFields;
  current: AccountRecord;
  handOff: AccountRecord;
}

/** The screens' cached answers belong to the account they were read for: gone when it changes. */
const clearScreenCache = () => import('../../lib/query-client.ts').then(({ queryClient }) => queryClient.clear(), () => undefined);

/**
 * Direct-login callback (SPEC.md sections 2 and 4; decisions 0006 and 0013): a target outside the
 * list is not found; the one-time token is exchanged as the web client on this browser's terminal.
 * When this browser holds a live login of another member, nothing is replaced silently: both
 * accounts are shown and the member chooses. Then the tokens and the session (where the member came
 * from, the app's state) are saved, and the member goes to the target's screen: the partner's
 * explicit target wins over a stale saved route, which is cleared (SPEC.md section 2).
 */
export function DirectCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [choice, setChoice] = useState<Choice>();

  const keep = useCallback(
    (plan: Exchange, tokens: TokenFields, account: AccountRecord | undefined) => {
      saveLogin(tokens, { clientId: WEB_CLIENT_ID, redirectUri: webRedirectUri() });
      if (account) saveAccount(account);
      saveSession({ comesFrom: plan.source, redirectState: plan.state });
      goToTargetAfterLogin(navigate, plan.route);
    },
    [navigate],
  );

  useEffect(() => {
    const plan = callbackPlan(search);
    if (plan.kind === 'notFound') {
      void navigate('/404', { replace: true });
      return;
    }
    if (plan.kind === 'missingToken') {
      goToError(UNEXPECTED_CODE, CLIENT_MESSAGES['C99-000404']);
      return;
    }
    if (wasSent(plan.token)) return;
    markSent(plan.token);
    (async () => {
      // Whose login this browser holds now, asked while the token is exchanged.
      const [current, tokens] = await Promise.all([liveAccount(), exchangeDirectLogin(plan.token)]);
      const handOff = current ? await fetchAccount(tokens.access_token) : undefined;
      if (current && handOff && current.userId !== handOff.userId) setChoice({ plan, tokens, current, handOff });
      else keep(plan, tokens, handOff);
    })().catch((e: unknown) => {
      // The token endpoint refuses an unknown, expired, used or other client's token (RFC 6749 invalid_grant).
      if (e instanceof ApiFailure && e.status === 400) goToError(UNEXPECTED_CODE, DIRECT_LOGIN_MESSAGES.tokenInvalid);
      else failLogin(e);
    });
  }, [search, navigate, keep]);

  const switchAccount = useCallback(async (): Promise<ActionOutcome> => {
    if (!choice) return;
    // The member leaves the other account: its login here ends (RFC 7009), as a logout would.
    const previous = getTokenRecord().refreshToken;
    if (previous) await revokeLogin(previous);
    await clearScreenCache();
    keep(choice.plan, choice.tokens, choice.handOff);
    return 'leaving';
  }, [choice, keep]);

  const stay = useCallback(async (): Promise<ActionOutcome> => {
    if (!choice) return;
    // The hand-off's login is not kept: it ends on the server too.
    if (choice.tokens.refresh_token) await revokeLogin(choice.tokens.refresh_token);
    await navigate('/top', { replace: true });
    return 'leaving';
  }, [choice, navigate]);

  if (choice) return <AccountChoice current={choice.current} handOff={choice.handOff} onSwitch={switchAccount} onStay={stay} />;
  return <WaitingPage heading="ログイン中" />;
}
