import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const submitAuthorizeForm = vi.fn();
vi.mock('../../lib/hand-off.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  submitAuthorizeForm: (...args: unknown[]) => submitAuthorizeForm(...args),
}));

const store = stubBrowserGlobals();
const { continueLogin } = await import('./login-continuation.ts');
const { canAuthorize, getLoginContext } = await import('./login-context.ts');
const { agreeAndAuthorize } = await import('./login-api.ts');
const { getSession } = await import('../../lib/records.ts');
const { setRecaptchaPort } = await import('../../lib/recaptcha.ts');

const authorize = new URLSearchParams({ client_id: 'SIAP005', redirect_uri: 'sso-portal://callback', state: 's', code_challenge: 'c', code_challenge_method: 'S256' });
/** What /api/auth/passkey/login answered, as passkey-login-api.ts gives it. */
const passkeyStep = (terms: string[]) => ({ id: 'member@example.com', password: '', ticket: 'ticket-1', terms });

describe('a passkey login goes on as a password login (SPEC.md section 4, decision 0024)', () => {
  beforeEach(() => {
    store.clear();
    submitAuthorizeForm.mockReset();
  });

  it('posts the authorize form at once with the id, an empty password and the ticket when no terms are outstanding', () => {
    const toTerms = vi.fn();
    expect(continueLogin(passkeyStep([]), authorize, toTerms)).toBe('leaving');
    expect(submitAuthorizeForm).toHaveBeenCalledTimes(1);
    expect(submitAuthorizeForm.mock.calls[0]).toEqual(['/api/auth/authorize', authorize, { user_mail: 'member@example.com', user_pass: '', login_ticket: 'ticket-1' }]);
    expect(toTerms).not.toHaveBeenCalled();
    // The session records the app the member came from, as after a password.
    expect(getSession().comesFrom).toBe('SIAP005');
  });

  it('holds the login for the additional terms, then posts it with the agreed terms and no password', async () => {
    const toTerms = vi.fn();
    expect(continueLogin(passkeyStep(['0002']), authorize, toTerms)).toBe('leaving');
    expect(submitAuthorizeForm).not.toHaveBeenCalled();
    expect(toTerms).toHaveBeenCalledTimes(1);
    const context = getLoginContext();
    expect(context).toEqual({ fields: { user_mail: 'member@example.com', user_pass: '', login_ticket: 'ticket-1' }, terms: ['0002'], authorize });
    expect(canAuthorize(context?.fields)).toBe(true);
    setRecaptchaPort({ token: async (action) => `${action}-fresh` });
    await agreeAndAuthorize(context!);
    expect(submitAuthorizeForm.mock.calls[0]?.[2]).toEqual({
      user_mail: 'member@example.com',
      user_pass: '',
      login_ticket: 'ticket-1',
      recaptcha_token: 'Authorize-fresh',
      terms: ['0002'],
    });
  });

  it('keeps the password login as it was: the password posted with its ticket', () => {
    continueLogin({ id: 'member@example.com', password: 'Pass1234', ticket: 't-2', terms: [] }, authorize, vi.fn());
    expect(submitAuthorizeForm.mock.calls[0]?.[2]).toEqual({ user_mail: 'member@example.com', user_pass: 'Pass1234', login_ticket: 't-2' });
  });

  it('lets the terms page post only a login it can complete: an id with a password or a ticket', () => {
    expect(canAuthorize({ user_mail: 'a@example.com', user_pass: 'Pass1234' })).toBe(true);
    expect(canAuthorize({ user_mail: 'a@example.com', user_pass: '', login_ticket: 't' })).toBe(true);
    expect(canAuthorize({ user_mail: 'a@example.com', user_pass: '' })).toBe(false);
    expect(canAuthorize({ user_mail: '', user_pass: '', login_ticket: 't' })).toBe(false);
    expect(canAuthorize(undefined)).toBe(false);
  });
});

describe('the browser\'s SSO session goes on without the form (decision 0026)', () => {
  beforeEach(() => {
    store.clear();
    submitAuthorizeForm.mockReset();
  });

  it('posts nothing secret when no terms are outstanding: the session is the cookie', () => {
    expect(continueLogin({ session: true, terms: [] }, authorize, vi.fn())).toBe('leaving');
    expect(submitAuthorizeForm.mock.calls[0]).toEqual(['/api/auth/authorize', authorize, { continue_session: '1' }]);
    expect(getSession().comesFrom).toBe('SIAP005');
  });

  it('shows the additional terms first, then posts them with the session and no reCAPTCHA', async () => {
    const toTerms = vi.fn();
    continueLogin({ session: true, terms: ['ServiceOnNetAnswer'] }, authorize, toTerms);
    expect(toTerms).toHaveBeenCalledTimes(1);
    const context = getLoginContext();
    expect(canAuthorize(context?.fields)).toBe(true);
    setRecaptchaPort({ token: async () => { throw new Error('no reCAPTCHA is asked for'); } });
    await agreeAndAuthorize(context!);
    expect(submitAuthorizeForm.mock.calls[0]?.[2]).toEqual({ continue_session: '1', terms: ['ServiceOnNetAnswer'] });
  });
});
