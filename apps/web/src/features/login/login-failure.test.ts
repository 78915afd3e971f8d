import { describe, expect, it, vi } from 'vitest';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { ApiFailure } = await import('../../lib/result.ts');
const { retryNotice, showLoginFailure } = await import('./login-failure.ts');

/** The lock's 203 is shown on the login page with whose lock it is (login-alert.tsx; decisions 0003 and 0007). */
describe('a failed login step on the login page', () => {
  it("shows the lock's message with whose lock it is: the address's when the server says so, else the id's", () => {
    const shown = (body: object) => {
      const setMessage = vi.fn();
      expect(showLoginFailure(new ApiFailure({ result_code: RESULT.LOCKED, result_message: SERVER_MESSAGES.locked, ...body }, 400), { setMessage })).toBeUndefined();
      return setMessage.mock.calls;
    };
    expect(shown({ lock: 'address' })).toEqual([[SERVER_MESSAGES.locked, 'address']]);
    expect(shown({})).toEqual([[SERVER_MESSAGES.locked, 'account']]);
    expect(shown({ lock: 'something else' })).toEqual([[SERVER_MESSAGES.locked, 'account']]);
  });

  it('shows the wrong credentials without any lock', () => {
    const setMessage = vi.fn();
    showLoginFailure(new ApiFailure({ result_code: RESULT.CREDENTIALS, result_message: SERVER_MESSAGES.credentials }, 400), { setMessage });
    expect(setMessage.mock.calls).toEqual([[SERVER_MESSAGES.credentials]]);
  });

  it("shows, when the authorize endpoint sent the member back, the login step's message for the same reason, and nothing for anything else", () => {
    expect(retryNotice('credentials')).toEqual({ message: SERVER_MESSAGES.credentials });
    expect(retryNotice('locked')).toEqual({ message: SERVER_MESSAGES.locked, lock: 'account' });
    expect(retryNotice('address')).toEqual({ message: SERVER_MESSAGES.locked, lock: 'address' });
    expect(retryNotice('suspended')).toEqual({ message: SERVER_MESSAGES.suspended });
    expect(retryNotice('recaptcha')).toEqual({ message: SERVER_MESSAGES.recaptcha });
    for (const other of [null, '', 'toString', '<script>']) expect(retryNotice(other)).toBeUndefined();
  });
});
