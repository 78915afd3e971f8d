import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRecord, resetStorageForTests, writeRecord } from './storage.ts';

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

describe('storage fallback', () => {
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
