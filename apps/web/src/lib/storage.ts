/**
 * Browser-held records (SPEC.md section 3): session storage first, then cookies, then nothing with
 * one warning. Values are JSON.
 */
type Backend = { get(key: string): string | null; set(key: string, value: string): void; remove(key: string): void };

const PREFIX = 'sso.';

function sessionBackend(): Backend | undefined {
  try {
    const s = globalThis.sessionStorage;
    const probe = `${PREFIX}probe`;
    s.setItem(probe, '1');
    s.removeItem(probe);
    return { get: (k) => s.getItem(k), set: (k, v) => s.setItem(k, v), remove: (k) => s.removeItem(k) };
  } catch {
    return undefined;
  }
}

function cookieBackend(): Backend | undefined {
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
        doc.cookie = `${encodeURIComponent(k)}=${encodeURIComponent(v)}${attrs}`;
      },
      remove: (k) => {
        doc.cookie = `${encodeURIComponent(k)}=; Max-Age=0${attrs}`;
      },
    };
  } catch {
    return undefined;
  }
}

let backend: Backend | null | undefined;

function current(): Backend | null {
  if (backend !== undefined) return backend;
  backend = sessionBackend() ?? cookieBackend() ?? null;
  if (!backend) console.warn('storage is disabled: nothing will be kept across page loads');
  return backend;
}

/** For tests: forget the chosen backend so that the next access probes again. */
export function resetStorageForTests(): void {
  backend = undefined;
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
