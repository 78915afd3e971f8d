/**
 * Browser-held records (SPEC.md section 3): session storage first, then cookies, then nothing with
 * one warning. Values are JSON. The few values made once per browser have their own store below.
 */
type Backend = { get(key: string): string | null; set(key: string, value: string): void; remove(key: string): void };

const PREFIX = 'sso.';

/** `storage` is read inside the guard: where the browser blocks storage, reading the property itself throws (SecurityError). */
function webStorageBackend(storage: () => Storage | undefined): Backend | undefined {
  try {
    const s = storage();
    if (!s) return undefined;
    const probe = `${PREFIX}probe`;
    s.setItem(probe, '1');
    s.removeItem(probe);
    return { get: (k) => s.getItem(k), set: (k, v) => s.setItem(k, v), remove: (k) => s.removeItem(k) };
  } catch {
    return undefined;
  }
}

/** Cookies: for the tab's records a session cookie; `lasting` for a value kept across browser restarts. */
function cookieBackend(lasting = ''): Backend | undefined {
  try {
    const doc = globalThis.document;
    if (!doc || !globalThis.navigator?.cookieEnabled) return undefined;
    const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
    const attrs = `; Path=/content; SameSite=Strict${secure}`;
    return {
      get: (k) => {
        const hit = doc.cookie.split('; ').find((c) => c.startsWith(`${encodeURIComponent(k)}=`));
        return hit ? decodeURIComponent(hit.slice(hit.indexOf('=') + 1)) : null;
      },
      set: (k, v) => {
        doc.cookie = `${encodeURIComponent(k)}=${encodeURIComponent(v)}${attrs}${lasting}`;
      },
      remove: (k) => {
        doc.cookie = `${encodeURIComponent(k)}=; Max-Age=0${attrs}`;
      },
    };
  } catch {
    return undefined;
  }
}

/** A lasting cookie's life: 400 days, the longest browsers keep one (RFC 6265bis section 5.6.2). */
const LASTING = `; Max-Age=${400 * 24 * 60 * 60}`;

let backend: Backend | null | undefined;
let browserBackend: Backend | null | undefined;

function current(): Backend | null {
  if (backend !== undefined) return backend;
  backend = webStorageBackend(() => globalThis.sessionStorage) ?? cookieBackend() ?? null;
  if (!backend) console.warn('storage is disabled: nothing will be kept across page loads');
  return backend;
}

/**
 * Where a value made once per browser lives (SPEC.md section 3, the token record's terminalId): shared
 * by the browser's tabs, so local storage, else a lasting cookie, else nowhere (the caller keeps the
 * tab's own). Session storage is the tab's, so it cannot be this store.
 */
function browserWide(): Backend | null {
  browserBackend ??= webStorageBackend(() => globalThis.localStorage) ?? cookieBackend(LASTING) ?? null;
  return browserBackend;
}

/** For tests: forget the chosen backends so that the next access probes again. */
export function resetStorageForTests(): void {
  backend = undefined;
  browserBackend = undefined;
}

export function readBrowserValue(name: string): string | undefined {
  return browserWide()?.get(PREFIX + name) ?? undefined;
}

export function writeBrowserValue(name: string, value: string): void {
  browserWide()?.set(PREFIX + name, value);
}

export function readRecord<T>(name: string): T | undefined {
  const raw = current()?.get(PREFIX + name);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function writeRecord<T>(name: string, value: T): void {
  current()?.set(PREFIX + name, JSON.stringify(value));
}

export function removeRecord(name: string): void {
  current()?.remove(PREFIX + name);
}
