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
