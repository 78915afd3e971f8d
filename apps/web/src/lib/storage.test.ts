import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBrowserValue, readRecord, removeRecord, resetStorageForTests, writeBrowserValue, writeRecord } from './storage.ts';
import { stubMemoryStorage } from './test-browser-globals.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  resetStorageForTests();
});

const brokenSessionStorage = {
  getItem: () => {
    throw new Error('disabled');
  },
  setItem: () => {
    throw new Error('disabled');
  },
  removeItem: () => undefined,
};

function cookieJar() {
  const jar = { value: '' };
  vi.stubGlobal('navigator', { cookieEnabled: true });
  vi.stubGlobal('document', {
    get cookie() {
      return jar.value;
    },
    set cookie(v: string) {
      jar.value = v;
    },
  });
  return jar;
}

describe('storage fallback', () => {
  it('prefers session storage when it works', () => {
    const saved = stubMemoryStorage('sessionStorage');
    const jar = cookieJar();
    writeRecord('session', { goesToTop: true });
    expect(jar.value).toBe('');
    expect([...saved.values()]).toEqual([JSON.stringify({ goesToTop: true })]);
    expect(readRecord('session')).toEqual({ goesToTop: true });
    removeRecord('session');
    expect(readRecord('session')).toBeUndefined();
  });

  it('sets no Secure attribute on a plain http page', () => {
    vi.stubGlobal('sessionStorage', brokenSessionStorage);
    vi.stubGlobal('location', { protocol: 'http:' });
    const jar = cookieJar();
    writeRecord('session', { comesFrom: 'SIAP009' });
    expect(jar.value).toContain('SameSite=Strict');
    expect(jar.value).not.toContain('Secure');
  });

  it('falls back to cookies when session storage is disabled', () => {
    let jar = '';
    vi.stubGlobal('sessionStorage', brokenSessionStorage);
    vi.stubGlobal('navigator', { cookieEnabled: true });
    vi.stubGlobal('location', { protocol: 'https:' });
    vi.stubGlobal('document', {
      get cookie() {
        return jar;
      },
      set cookie(v: string) {
        jar = v;
      },
    });
    writeRecord('session', { comesFrom: 'SIAP002' });
    expect(jar).toContain('SameSite=Strict');
    expect(jar).toContain('Secure');
    jar = jar.split(';')[0]!;
    expect(readRecord('session')).toEqual({ comesFrom: 'SIAP002' });
  });

  it('keeps nothing, with one warning, when neither works', () => {
    vi.stubGlobal('sessionStorage', brokenSessionStorage);
    vi.stubGlobal('navigator', { cookieEnabled: false });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeRecord('session', { goesToTop: true });
    expect(readRecord('session')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('the browser-wide store of a value made once per browser (SPEC.md section 3, terminalId)', () => {
  it('uses local storage, shared by the tabs, and never session storage', () => {
    const local = stubMemoryStorage('localStorage');
    writeBrowserValue('terminalId', 'id-1');
    expect(local.get('sso.terminalId')).toBe('id-1');
    expect(readBrowserValue('terminalId')).toBe('id-1');
  });

  it('falls back to a lasting cookie where the browser blocks storage, whose very property then throws', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new Error('SecurityError: The operation is insecure.');
      },
    });
    try {
      vi.stubGlobal('location', { protocol: 'https:' });
      const jar = cookieJar();
      writeBrowserValue('terminalId', 'id-4');
      expect(jar.value).toMatch(/^sso\.terminalId=id-4;/);
    } finally {
      Reflect.deleteProperty(globalThis, 'localStorage');
    }
  });

  it('falls back to a lasting cookie when local storage is disabled, and to nothing without cookies', () => {
    vi.stubGlobal('localStorage', brokenSessionStorage);
    vi.stubGlobal('location', { protocol: 'https:' });
    const jar = cookieJar();
    writeBrowserValue('terminalId', 'id-2');
    expect(jar.value).toMatch(/^sso\.terminalId=id-2; Path=\/content; SameSite=Strict; Secure; Max-Age=34560000$/);
    jar.value = jar.value.split(';')[0]!;
    expect(readBrowserValue('terminalId')).toBe('id-2');
    resetStorageForTests();
    vi.stubGlobal('navigator', { cookieEnabled: false });
    writeBrowserValue('terminalId', 'id-3');
    expect(readBrowserValue('terminalId')).toBeUndefined();
  });
});
