import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ACR_VALUES, LOGIN_RETRY_PARAM } from '@sso/contracts/constants';
import { CLIENT_MESSAGES, PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { LINKS, offersChatbotHelp } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import { getSession } from '../../lib/records.ts';
import { useAuthorizeCheck } from '../../lib/authorize-check.ts';
import { useAuthorizeParams } from '../../lib/use-authorize-params.ts';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { LoginAlert } from './login-alert.tsx';
import { login } from './login-api.ts';
import { continueLogin } from './login-continuation.ts';
import { retryNotice, showLoginFailure, type LockKind } from './login-failure.ts';
import { useLoginForm, type LoginForm } from './login-form.ts';
import { usePasskeyLogin } from './use-passkey-login.ts';
import styles from './login.module.css';
import { WaitingPage } from '../../ui/waiting-page.tsx';

/** The app's confirmation (decision 0027), loaded only where a session answers such an app: outside the login route's chunk. */
const AppConfirmStep = lazy(() => import('./app-confirm-step.tsx').then((m) => ({ default: m.AppConfirmStep })));

/**
 * A partner's request that no password meets: `acr_values` asks for phishing-resistant authentication
 * and not basic (decision 0025; the server's rule, modules/oidc/acr-request.ts, refuses a password
 * login to it). The page then offers the passkey only, instead of a form the server would refuse.
 */
const needsPasskey = (acrValues: string | null | undefined): boolean => {
  const asked = (acrValues ?? '').split(' ');
  return asked.includes(ACR_VALUES.phishingResistant) && !asked.includes(ACR_VALUES.basic);
};

/** Server validation keys mapped to this form's fields (SPEC.md section 5). */
const FIELD_OF: Record<string, keyof LoginForm> = { id: 'user_mail', user_mail: 'user_mail', password: 'user_pass', user_pass: 'user_pass' };

/**
 * Login (SPEC.md sections 2 and 4): e-mail or mobile number and password, or a passkey (decision
 * 0024: the button and the id field's autofill), then the authorize hand-off; no form at all when
 * the browser's SSO session completes the request (decision 0026), only, for an app whose redirect
 * URI cannot be tied to it, the screen on which the member confirms it (decision 0027).
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const authorize = useAuthorizeParams();
  const verdict = useAuthorizeCheck(authorize);
  // Sent back here by the authorize endpoint after a login form post that did not sign in: why, as the login step says it.
  const [alert, setAlert] = useState<{ message: string; lock?: LockKind | undefined } | undefined>(() => retryNotice(search.get(LOGIN_RETRY_PARAM)));
  const setMessage = useCallback((message: string | undefined, lock?: LockKind) => setAlert(message === undefined ? undefined : { message, lock }), []);
  const { field, handleSubmit, setError } = useLoginForm();

  const submit = useCallback(
    async (form: LoginForm): Promise<ActionOutcome> => {
      if (!authorize) return;
      setMessage(undefined);
      const clientId = authorize.get('client_id') ?? '';
      try {
        const res = await login(form.user_mail, form.user_pass, clientId);
        const step = { id: form.user_mail, password: form.user_pass, ticket: res.login_ticket, terms: res.terms };
        return continueLogin(step, authorize, () => void navigate('/accept/additional_terms'));
      } catch (e) {
        return showLoginFailure(e, {
          setMessage,
          setFieldError: (key, text) => {
            const name = FIELD_OF[key];
            if (name) setError(name, text);
          },
        });
      }
    },
    [authorize, navigate, setError, setMessage],
  );
  const { pending, run } = usePendingAction(submit);
  // The browser's SSO session completes the request (decision 0026): the hand-off without the form, once;
  // for an app to confirm (decision 0027), once the member pressed.
  const session = typeof verdict === 'object' ? verdict.session : undefined;
  const confirm = typeof verdict === 'object' ? verdict.confirm : undefined;
  const continued = useRef(false);
  const continueSession = useCallback(
    (confirmed: boolean) => {
      if (!session || !authorize || continued.current) return;
      continued.current = true;
      continueLogin({ session: true, terms: session, confirmed }, authorize, () => void navigate('/accept/additional_terms'));
    },
    [session, authorize, navigate],
  );
  useEffect(() => {
    if (!confirm) continueSession(false);
  }, [confirm, continueSession]);
  // The fields are invalid here (SPEC.md section 8, C99-000400), as on every other form.
  const showInvalid = useCallback(() => setMessage(CLIENT_MESSAGES['C99-000400']), [setMessage]);
  // Offered once the page offers the login: not while a partner's link is being checked.
  const passkey = usePasskeyLogin(verdict === 'ok' ? authorize : undefined, setMessage);

  // No OAuth parameters in the query and no saved client: Welcome creates one and comes back.
  if (!authorize) return <Navigate to="/" replace />;
  // A partner's link the authorize endpoint would refuse: told before any password is typed; a
  // known partner's other mistake goes back to it ('leaving', RFC 6749 section 4.1.2.1).
  if (verdict === 'refused') return <Navigate to="/problem/authorize" replace />;
  if (session && confirm) {
    return (
      <Suspense fallback={<WaitingPage heading="ログイン" />}>
        <AppConfirmStep confirm={confirm} redirectUri={authorize.get('redirect_uri')} onConfirm={() => continueSession(true)} />
      </Suspense>
    );
  }
  if (verdict === 'checking' || verdict === 'leaving' || session) return <WaitingPage heading="ログイン" />;

  const query = search.toString();
  // The app the member arrives from: this request's client, else the one the session came from.
  const chatbotHelp = offersChatbotHelp(authorize.get('client_id') ?? getSession().comesFrom);
  const passkeyOnly = needsPasskey(authorize.get('acr_values'));
  return (
    <>
      <h1>ログイン</h1>
      <p className={styles.lead}>{passkeyOnly ? PASSKEY_MESSAGES.loginPasskeyRequired : 'メンバーIDでログインしてください。'}</p>
      {passkeyOnly && !passkey.supported && <p className={styles.lead}>{PASSKEY_MESSAGES.unsupported}</p>}
      <LoginAlert message={alert?.message} lock={alert?.lock} />
      {!passkeyOnly && (
        <form noValidate onSubmit={handleSubmit(run, showInvalid)}>
          <Field
            id="user_mail"
            label="メールアドレスまたは携帯電話番号"
            type="text"
            inputMode="email"
            autoComplete={passkey.autofill ? 'username webauthn' : 'username'}
            {...field('user_mail')}
          />
          <Field
            id="user_pass"
            label="パスワード"
            type="password"
            autoComplete="current-password"
            {...field('user_pass')}
          />
          <Button type="submit" pending={pending}>
            ログイン
          </Button>
        </form>
      )}
      {passkey.supported && (
        <div className={styles.passkey}>
          <Button type="button" variant="secondary" pending={passkey.pending} onClick={passkey.signIn}>
            {PASSKEY_MESSAGES.loginButton}
          </Button>
        </div>
      )}
      <ul className={styles.links}>
        <li>
          <Link to={query ? `/signup/card?${query}` : '/signup/card'}>カードで新規登録</Link>
        </li>
        <li>
          <Link to="/recover/mail">パスワードをお忘れの方</Link>
        </li>
        <li>
          <ExternalLink href={LINKS.help}>ヘルプ</ExternalLink>
        </li>
        {chatbotHelp && (
          <li>
            <ExternalLink href={LINKS.chatbot}>チャットボットでお問い合わせ</ExternalLink>
          </li>
        )}
      </ul>
    </>
  );
}
