/**
 * Where the console keeps the operator token (docs/decisions/0032-operator-identity.md): in memory,
 * mirrored in the tab's sessionStorage so that a reload of the tab keeps the session; never in
 * localStorage, which outlives the tab and is shared by every tab of the origin. The token itself dies
 * on the server 15 minutes after its last use or 8 hours after the sign-in, whatever the browser keeps.
 */
export const TOKEN_KEY = 'sso.admin.operator-token';

/** The part of the Web Storage API the store uses: sessionStorage in the browser, a map in the tests. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface TokenStore {
  get(): string | undefined;
  set(token: string): void;
  clear(): void;
}

/** A token store over the tab's storage; a storage that throws (a private window's quota, a policy) leaves the token in memory only. */
export function tokenStore(storage: TabStorage | undefined): TokenStore {
  let token: string | undefined;
  try {
    token = storage?.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    token = undefined;
  }
  const attempt = (f: () => void) => {
    try {
      f();
    } catch {
      // Memory alone still holds it: the session lasts until the tab reloads.
    }
  };
  return {
    get: () => token,
    set(next) {
      token = next;
      attempt(() => storage?.setItem(TOKEN_KEY, next));
    },
    clear() {
      token = undefined;
      attempt(() => storage?.removeItem(TOKEN_KEY));
    },
  };
}

/** The console's one store: the browser's sessionStorage when there is one. */
export const operatorToken = tokenStore(typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
