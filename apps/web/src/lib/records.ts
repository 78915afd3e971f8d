import { CODE_CHALLENGE_METHOD, WEB_CLIENT_ID } from '@sso/contracts/constants';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { newPkcePair, randomString } from './pkce.ts';
import { readBrowserValue, readRecord, removeRecord, writeBrowserValue, writeRecord } from './storage.ts';

/** The browser-held records of SPEC.md section 3. */
export interface OAuthClientRecord {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  responseType: 'code';
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256';
}

export interface TokenRecord {
  terminalId: string;
  clientId?: string;
  redirectUri?: string;
  accessToken?: string;
  refreshToken?: string;
  issuedAt?: number;
}

export interface SessionRecord {
  comesFrom?: string;
  goesToTop?: boolean;
  redirectState?: string;
}

export const getOAuthClient = () => readRecord<OAuthClientRecord>('oauthClient');
export const clearOAuthClient = () => removeRecord('oauthClient');

/** Where the authorization server sends the web client back (SPEC.md section 4): /content/oauth/callback. */
export const webRedirectUri = (origin = globalThis.location.origin) => `${origin}/content/oauth/callback`;

let creating: Promise<OAuthClientRecord> | undefined;

/**
 * Creates the web client's record only if none was initialised (SPEC.md section 4): a fresh random
 * state and a PKCE pair. Single flight, so that a double effect cannot make two clients whose
 * states and challenges differ.
 */
export function ensureOAuthClient(origin = globalThis.location.origin): Promise<OAuthClientRecord> {
  const existing = getOAuthClient();
  if (existing && existing.scope !== WEB_SCOPE) {
    // A record made before the web client asked for its scopes (docs/decisions/0010-scopes-and-audience.md):
    // the same state and PKCE pair, so that a login under way still completes, with today's scope.
    const current = { ...existing, scope: WEB_SCOPE };
    writeRecord('oauthClient', current);
    return Promise.resolve(current);
  }
  if (existing) return Promise.resolve(existing);
  creating ??= (async () => {
    const pair = await newPkcePair();
    const record: OAuthClientRecord = {
      clientId: WEB_CLIENT_ID,
      redirectUri: webRedirectUri(origin),
      state: randomString(16),
      scope: WEB_SCOPE,
      responseType: 'code',
      codeVerifier: pair.codeVerifier,
      codeChallenge: pair.codeChallenge,
      codeChallengeMethod: CODE_CHALLENGE_METHOD,
    };
    writeRecord('oauthClient', record);
    return record;
  })().finally(() => {
    creating = undefined;
  });
  return creating;
}

/** A new state and PKCE pair for the next login, once a code has been used (SPEC.md section 4). */
export function regenerateOAuthClient(): Promise<OAuthClientRecord> {
  clearOAuthClient();
  return ensureOAuthClient();
}

export function authorizeParams(c: OAuthClientRecord): URLSearchParams {
  return new URLSearchParams({
    client_id: c.clientId,
    redirect_uri: c.redirectUri,
    state: c.state,
    scope: c.scope,
    response_type: c.responseType,
    code_challenge: c.codeChallenge,
    code_challenge_method: c.codeChallengeMethod,
  });
}

/**
 * The token record; its terminal id is a UUID made once per browser (SPEC.md section 3), so every tab
 * of the browser sends the same one, and kept when tokens are cleared. The tab's tokens stay in its
 * own record. A tab whose refresh token was issued to its own id keeps that id while the token lives
 * (the server binds a refresh token to its terminal); the first id the browser meets becomes its id.
 */
export function getTokenRecord(): TokenRecord {
  const record = readRecord<TokenRecord>('token');
  const own = record?.terminalId;
  const browser = readBrowserValue('terminalId');
  const terminalId = own && (record?.refreshToken || !browser) ? own : (browser ?? crypto.randomUUID());
  if (!browser) writeBrowserValue('terminalId', terminalId);
  if (record && own === terminalId) return record;
  const kept: TokenRecord = { ...record, terminalId };
  writeRecord('token', kept);
  return kept;
}

/** The access tokens this page has ended (markTokensEnding): its own memory, not a record of SPEC.md section 3. */
const endedTokens = new Set<string>();

export function saveTokens(t: { clientId: string; redirectUri: string; accessToken: string; refreshToken: string }, now = Date.now()): void {
  // A token stored is live, whatever this page ended before (markTokensEnding).
  endedTokens.delete(t.accessToken);
  writeRecord<TokenRecord>('token', { terminalId: getTokenRecord().terminalId, ...t, issuedAt: now });
}

/**
 * The stored tokens are ending (a logout from its first call, SPEC.md section 4; any clearing):
 * the server's 401 to a request made with their access token is that ending's doing, which its own
 * screen handles, and no expired login (api-client.ts). Known by the token itself, not by a time,
 * so that neither a clock set back nor two saves in one millisecond confuse two logins.
 */
export function markTokensEnding(): void {
  const { accessToken } = getTokenRecord();
  if (accessToken) endedTokens.add(accessToken);
}

/** Whether `accessToken` (by default the stored one) has been ended by this page (markTokensEnding). */
export const tokensEnded = (accessToken = getTokenRecord().accessToken): boolean => accessToken !== undefined && endedTokens.has(accessToken);

/** Clearing the token leaves only the terminal id (SPEC.md section 4); whose account it was goes with it. */
export function clearTokens(): void {
  markTokensEnding();
  writeRecord<TokenRecord>('token', { terminalId: getTokenRecord().terminalId });
  clearAccount();
}

/**
 * Whose account the kept login is (decision 0013): the header shows it before any change. Learnt
 * from /api/user once per login; a new login or a cleared token forgets it.
 */
export interface AccountRecord {
  userId: string;
  email: string;
}

export const getAccount = () => readRecord<AccountRecord>('account');
export const saveAccount = (a: AccountRecord) => writeRecord('account', a);
export const clearAccount = () => removeRecord('account');

/** Logged in: an access token and a refresh token are both present. */
export function isLoggedIn(): boolean {
  const t = readRecord<TokenRecord>('token');
  return Boolean(t?.accessToken && t.refreshToken);
}

/**
 * Whether this tab has tried the silent login from the browser's SSO session (decision 0026): once per
 * tab, session storage being the tab's (SPEC.md section 3).
 */
export const silentLoginTried = () => readRecord<boolean>('silentLogin') === true;
export const markSilentLoginTried = () => writeRecord('silentLogin', true);

export const getSession = () => readRecord<SessionRecord>('session') ?? {};
export const saveSession = (s: SessionRecord) => writeRecord('session', { ...getSession(), ...s });

/** The route a logged-out member wanted; restored once after login, then cleared. */
export const saveWantedRoute = (path: string) => writeRecord('wantedRoute', path);
export function takeWantedRoute(): string | undefined {
  const path = readRecord<string>('wantedRoute');
  removeRecord('wantedRoute');
  // Only a path of this app: never "//host" or "/\host", which browsers read as another site.
  return typeof path === 'string' && /^\/(?![/\\])/.test(path) ? path : undefined;
}
