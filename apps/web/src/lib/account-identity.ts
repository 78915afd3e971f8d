import { apiPost, ApiFailure, refreshTokens } from './api-client.ts';
import { getAccount, isLoggedIn, saveAccount, type AccountRecord } from './records.ts';

/**
 * Whose account a login opens (decision 0013): /api/user's id and e-mail. The header reads it on
 * every page, so its schema is one of the login route's (login-answers.ts, loaded with the request);
 * a mismatch only warns (SPEC.md section 3), so the id and e-mail are checked here.
 */
export async function fetchAccount(accessToken?: string): Promise<AccountRecord> {
  const body = await apiPost('/api/user', 'userResponseSchema', { auth: true, refreshOn401: false, ...(accessToken ? { accessToken } : {}) });
  if (typeof body.user_id !== 'string' || typeof body.email !== 'string') throw new Error('the user answer has no id or e-mail');
  return { userId: body.user_id, email: body.email };
}

/**
 * The account of this browser's kept login if it is still live: asked of the server (an expired
 * access token is renewed once); undefined when there is no login or the server no longer knows it.
 * Never goes to the error flow: a dead login is simply none.
 */
export async function liveAccount(): Promise<AccountRecord | undefined> {
  if (!isLoggedIn()) return undefined;
  let account: AccountRecord | undefined;
  try {
    account = await fetchAccount();
  } catch (e) {
    if (!(e instanceof ApiFailure && e.status === 401) || (await refreshTokens()).kind !== 'renewed') return undefined;
    account = await fetchAccount().catch(() => undefined);
  }
  if (account) saveAccount(account);
  return account;
}

/** The kept login's account as the header shows it: the one learnt for this login, else asked once. */
export const keptAccount = async (): Promise<AccountRecord | undefined> => (isLoggedIn() ? (getAccount() ?? liveAccount()) : undefined);
