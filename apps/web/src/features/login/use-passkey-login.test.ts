import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { stubBrowserGlobals, settle } from '../../lib/test-browser-globals.ts';

vi.mock('react', async (importOriginal) => (await import('../../ui/test-hook-harness.ts')).withHarness(await importOriginal<object>()));
const navigate = vi.fn();
vi.mock('react-router', async (importOriginal) => ({ ...(await importOriginal<object>()), useNavigate: () => navigate }));
const submitAuthorizeForm = vi.fn();
vi.mock('../../lib/hand-off.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  submitAuthorizeForm: (...args: unknown[]) => submitAuthorizeForm(...args),
}));
/** The browser's ceremonies and the server's answers, as each test says (the sign-in's own steps, passkey-sign-in.ts, run as they are). */
const sign = {
  autofillSupported: vi.fn<() => Promise<boolean>>(),
  /** The autofill's conditional ceremony (`autofill` true) or the button's. */
  authenticate: vi.fn<(options: unknown, autofill?: boolean) => Promise<unknown>>(),
  cancelCeremony: vi.fn(),
  passkeyLoginOptions: vi.fn<(clientId: string) => Promise<unknown>>(),
  passkeySignIn: vi.fn<(clientId: string, credential: unknown) => Promise<unknown>>(),
};
vi.mock('../../lib/webauthn.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  autofillSupported: () => sign.autofillSupported(),
  authenticate: (options: unknown, autofill?: boolean) => sign.authenticate(options, autofill),
  cancelCeremony: () => sign.cancelCeremony(),
}));
vi.mock('./passkey-login-api.ts', () => ({
  passkeyLoginOptions: (clientId: string) => sign.passkeyLoginOptions(clientId),
  passkeySignIn: (clientId: string, credential: unknown) => sign.passkeySignIn(clientId, credential),
}));

stubBrowserGlobals();
const { render } = await import('../../ui/test-hook-harness.ts');
const { usePasskeyLogin } = await import('./use-passkey-login.ts');
const { CeremonyFailed } = await import('../../lib/webauthn.ts');
const { ApiFailure } = await import('../../lib/result.ts');
// Loaded once here, so that the hook's import() of it settles within a tick, as in a warm browser.
await import('./passkey-sign-in.ts');

const authorize = new URLSearchParams({ client_id: 'SIAP009', redirect_uri: 'http://sso.test/content/oauth/callback', state: 's' });
const STEP = { id: 'member@example.com', password: '', ticket: 'ticket-1', terms: [] };
const CHOSEN = { id: 'cred-from-autofill' };
/** A choice in the autofill that never comes (the member types a password instead). */
const never = () => new Promise<unknown>(() => undefined);

/** Mounts the hook on a login page that offers the login; `messages` is what the page was told to show. */
async function mounted(params: URLSearchParams | undefined) {
  const messages: (string | undefined)[] = [];
  const view = render((p: { authorize: URLSearchParams | undefined }) => usePasskeyLogin(p.authorize, (m) => messages.push(m)), { authorize: params });
  await settle();
  await settle();
  return { view, messages, shown: () => messages.filter(Boolean) };
}

const OPTIONS = { challenge: 'c', allowCredentials: [] };
/** The explicit ceremonies and the conditional ones, as the hook started them. */
const ceremonies = (autofill: boolean) => sign.authenticate.mock.calls.filter((c) => Boolean(c[1]) === autofill).length;

describe('the passkey sign-in of the login page (decision 0024)', () => {
  beforeEach(() => {
    for (const f of Object.values(sign)) f.mockReset();
    sign.passkeyLoginOptions.mockResolvedValue(OPTIONS);
    submitAuthorizeForm.mockReset();
    navigate.mockReset();
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('offers nothing, and asks nothing, in a browser without WebAuthn', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    const { view } = await mounted(authorize);
    expect(view.output).toMatchObject({ supported: false, autofill: false });
    expect(sign.autofillSupported).not.toHaveBeenCalled();
    expect(sign.passkeyLoginOptions).not.toHaveBeenCalled();
  });

  it('waits for the login to be offered (a partner\'s link still being checked) before anything', async () => {
    sign.autofillSupported.mockResolvedValue(true);
    const { view } = await mounted(undefined);
    expect(view.output.supported).toBe(false);
    expect(sign.autofillSupported).not.toHaveBeenCalled();
  });

  it('offers the button without autofill where the browser has no conditional mediation', async () => {
    sign.autofillSupported.mockResolvedValue(false);
    const { view } = await mounted(authorize);
    expect(view.output).toMatchObject({ supported: true, autofill: false });
    expect(sign.authenticate).not.toHaveBeenCalled();
  });

  it('goes on as a password login with the passkey picked in the id field\'s autofill', async () => {
    sign.autofillSupported.mockResolvedValue(true);
    sign.authenticate.mockResolvedValue(CHOSEN);
    sign.passkeySignIn.mockResolvedValue(STEP);
    const { view } = await mounted(authorize);
    for (let i = 0; i < 4; i++) await settle();
    expect(view.output.autofill).toBe(true);
    expect(sign.passkeyLoginOptions).toHaveBeenCalledWith('SIAP009');
    expect(sign.authenticate).toHaveBeenCalledWith(OPTIONS, true);
    expect(sign.passkeySignIn).toHaveBeenCalledWith('SIAP009', CHOSEN);
    expect(submitAuthorizeForm).toHaveBeenCalledWith('/api/auth/authorize', authorize, { user_mail: 'member@example.com', user_pass: '', login_ticket: 'ticket-1' });
  });

  it('goes to the additional terms when the passkey login has outstanding terms', async () => {
    sign.autofillSupported.mockResolvedValue(false);
    sign.authenticate.mockResolvedValue(CHOSEN);
    sign.passkeySignIn.mockResolvedValue({ ...STEP, terms: ['0002'] });
    const { view } = await mounted(authorize);
    view.output.signIn();
    for (let i = 0; i < 4; i++) await settle();
    expect(sign.authenticate).toHaveBeenCalledWith(OPTIONS, undefined);
    expect(navigate).toHaveBeenCalledWith('/accept/additional_terms');
    expect(submitAuthorizeForm).not.toHaveBeenCalled();
  });

  it('says the ceremony did not complete when the member cancels the button\'s, and lets the autofill wait again', async () => {
    sign.autofillSupported.mockResolvedValue(true);
    const cancelled = new CeremonyFailed(Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }));
    sign.authenticate.mockImplementation((_options, autofill) => (autofill ? never() : Promise.reject(cancelled)));
    const { view, shown } = await mounted(authorize);
    for (let i = 0; i < 4; i++) await settle();
    expect(ceremonies(true)).toBe(1);
    view.output.signIn();
    for (let i = 0; i < 6; i++) await settle();
    expect(ceremonies(false)).toBe(1);
    expect(shown()).toEqual([PASSKEY_MESSAGES.cancelled]);
    expect(ceremonies(true)).toBe(2);
    expect(sign.passkeySignIn).not.toHaveBeenCalled();
  });

  it('shows nothing when the autofill\'s ceremony ends without a passkey, and does not start it over by itself', async () => {
    sign.autofillSupported.mockResolvedValue(true);
    sign.authenticate.mockRejectedValue(new CeremonyFailed(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    const { shown } = await mounted(authorize);
    for (let i = 0; i < 6; i++) await settle();
    expect(shown()).toEqual([]);
    expect(ceremonies(true)).toBe(1);
    expect(sign.passkeySignIn).not.toHaveBeenCalled();
  });

  it('shows the server\'s message for a refused passkey or a lock, as for a wrong password', async () => {
    sign.autofillSupported.mockResolvedValue(false);
    sign.authenticate.mockResolvedValue(CHOSEN);
    const { view, shown } = await mounted(authorize);
    sign.passkeySignIn.mockRejectedValueOnce(new ApiFailure({ result_code: RESULT.CREDENTIALS, result_message: PASSKEY_MESSAGES.notAccepted }, 400));
    view.output.signIn();
    for (let i = 0; i < 4; i++) await settle();
    sign.passkeySignIn.mockRejectedValueOnce(new ApiFailure({ result_code: RESULT.LOCKED, result_message: 'ロックされています。' }, 400));
    view.output.signIn();
    for (let i = 0; i < 4; i++) await settle();
    expect(shown()).toEqual([PASSKEY_MESSAGES.notAccepted, 'ロックされています。']);
  });
});
