/**
 * The login context held while the member reads additional terms: in memory only, never in
 * storage or history state, because it holds the password (or, after a passkey, the login ticket
 * that stands for it: decision 0024). A reload loses it (back to Welcome).
 */
export interface LoginContext {
  /** The hidden fields of the authorize form: the login held in memory and its ticket. */
  fields: AuthorizeFields;
  terms: string[];
  authorize: URLSearchParams;
}

/**
 * The authorize form's login fields (SPEC.md section 7), with the login step's ticket when it answered
 * one; or, when the browser's SSO session completes the request, nothing but that (decision 0026).
 */
export type AuthorizeFields = { user_mail: string; user_pass: string; login_ticket?: string } | { continue_session: '1'; confirmed?: '1' };

/** The session's fields; `confirmed` once the member confirmed the app on its screen (decision 0027). */
export const sessionFields = (confirmed: boolean): AuthorizeFields => (confirmed ? { continue_session: '1', confirmed: '1' } : { continue_session: '1' });

export const authorizeFields = (id: string, password: string, ticket: string | undefined): AuthorizeFields => ({
  user_mail: id,
  user_pass: password,
  ...(ticket ? { login_ticket: ticket } : {}),
});

/** The authorize form can log in with these fields: the id, and the password or the login ticket that stands for it (decision 0024). */
export const canAuthorize = (fields: AuthorizeFields | undefined): boolean =>
  fields !== undefined && ('continue_session' in fields || Boolean(fields.user_mail && (fields.user_pass || fields.login_ticket)));

let context: LoginContext | undefined;

export const setLoginContext = (c: LoginContext) => {
  context = c;
};
export const getLoginContext = () => context;
