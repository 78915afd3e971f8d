/**
 * The login context held while the member reads additional terms: in memory only, never in
 * storage or history state, because it holds the password. A reload loses it (back to Welcome).
 */
export interface LoginContext {
  id: string;
  password: string;
  terms: string[];
  authorize: URLSearchParams;
}

let context: LoginContext | undefined;

export const setLoginContext = (c: LoginContext) => {
  context = c;
};
export const getLoginContext = () => context;
