import { vi } from 'vitest';

/** For unit tests in Node: an in-memory web storage as `sessionStorage` or `localStorage`. Returns its map. */
export function stubMemoryStorage(name: 'sessionStorage' | 'localStorage', store = new Map<string, string>()): Map<string, string> {
  vi.stubGlobal(name, {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  return store;
}

/** For unit tests in Node: an in-memory session storage and a page location. Returns the storage map. */
export function stubBrowserGlobals(): Map<string, string> {
  const store = stubMemoryStorage('sessionStorage');
  vi.stubGlobal('location', { origin: 'http://sso.test', port: '', hostname: 'sso.test', protocol: 'http:' });
  return store;
}

/** For unit tests: an API answer as fetch gives it, a JSON body with its status (and any further headers). */
export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** For unit tests: lets every pending promise, timer of 0 ms and dynamic import run. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
