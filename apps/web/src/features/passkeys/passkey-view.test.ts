import { describe, expect, it } from 'vitest';
import { defaultPasskeyName, passkeyFacts } from './passkey-view.ts';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';

// 2026-11-23 05:05 UTC is 14:05 in Japan.
const AT = Date.UTC(2026, 10, 23, 5, 5);

describe('what the passkey list shows (decision 0024)', () => {
  it('shows when a passkey was registered and last used, in Japan time, as the activity log does', () => {
    const facts = passkeyFacts({ id: 'p1', name: 'iPhone', created_at: AT, last_used_at: AT + 60 * 60 * 1000, synced: true });
    expect(facts.created).toEqual({ text: '2026年11月23日 14:05', iso: '2026-11-23T14:05+09:00' });
    expect(facts.lastUsed).toEqual({ text: '2026年11月23日 15:05', iso: '2026-11-23T15:05+09:00' });
  });

  it('says 未使用 for a passkey never used, with no time', () => {
    expect(passkeyFacts({ id: 'p1', name: 'x', created_at: AT, last_used_at: null, synced: false }).lastUsed).toEqual({ text: '未使用' });
  });

  it('tells a synced passkey from one on this device only', () => {
    expect(passkeyFacts({ id: 'p1', name: 'x', created_at: AT, last_used_at: null, synced: true }).kind).toBe(PASSKEY_SETTINGS_MESSAGES.synced);
    expect(passkeyFacts({ id: 'p1', name: 'x', created_at: AT, last_used_at: null, synced: false }).kind).toBe(PASSKEY_SETTINGS_MESSAGES.deviceBound);
  });
});

describe('the name a new passkey is offered', () => {
  it('names the browser and the platform as the activity log names a device, the specific marks before the general ones', () => {
    const ua = {
      chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      chromeIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      samsungAndroid: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0',
      safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    };
    expect(defaultPasskeyName(ua.chromeWindows)).toBe('Chrome / Windows');
    expect(defaultPasskeyName(ua.edgeWindows)).toBe('Edge / Windows');
    expect(defaultPasskeyName(ua.safariIphone)).toBe('Safari / iPhone');
    expect(defaultPasskeyName(ua.chromeIphone)).toBe('Chrome / iPhone');
    expect(defaultPasskeyName(ua.chromeAndroid)).toBe('Chrome / Android');
    expect(defaultPasskeyName(ua.samsungAndroid)).toBe('Samsung Internet / Android');
    expect(defaultPasskeyName(ua.firefoxMac)).toBe('Firefox / Mac');
    expect(defaultPasskeyName(ua.safariMac)).toBe('Safari / Mac');
  });

  it('falls back to what it knows, else 「パスキー」', () => {
    expect(defaultPasskeyName('SomeBot/1.0 (Windows NT 10.0)')).toBe('Windows');
    expect(defaultPasskeyName('')).toBe('パスキー');
  });
});
