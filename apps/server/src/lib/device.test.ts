import { describe, expect, it } from 'vitest';
import { describeDevice } from './device.ts';

/** Real User-Agent headers of current browsers (as the browsers send them). */
const AGENTS = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  // In-app browsers most Japanese members open links in: LINE's and the Yahoo! JAPAN app's, each on iOS and on Android.
  lineIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0',
  lineAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/128.0.6613.127 Mobile Safari/537.36 Line/14.14.0/IAB',
  yahooIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 YJApp-IOS jp.co.yahoo.ipn.appli/4.52.0',
  yahooAndroid:
    'Mozilla/5.0 (Linux; Android 14; SC-53C Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 YJApp-ANDROID jp.co.yahoo.android.yjtop/4.10.0',
  // A page that merely names LINE is not LINE's browser.
  chromeAboutLine:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Online/1.0',
  curl: 'curl/8.5.0',
  // An app's own client: the platform is known, the browser is not.
  androidApp: 'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)',
};

describe('describeDevice', () => {
  it.each([
    ['chromeWindows', 'Chrome / Windows'],
    ['safariIphone', 'Safari / iPhone'],
    ['safariMac', 'Safari / Mac'],
    ['chromeAndroid', 'Chrome / Android'],
    ['firefoxWindows', 'Firefox / Windows'],
    ['firefoxLinux', 'Firefox / Linux'],
    ['firefoxAndroid', 'Firefox / Android'],
    ['edgeWindows', 'Edge / Windows'],
    ['chromeIphone', 'Chrome / iPhone'],
    ['safariIpad', 'Safari / iPad'],
    ['androidApp', 'その他 / Android'],
    ['lineIphone', 'LINE / iPhone'],
    ['lineAndroid', 'LINE / Android'],
    ['yahooIphone', 'Yahoo! JAPAN / iPhone'],
    ['yahooAndroid', 'Yahoo! JAPAN / Android'],
    ['chromeAboutLine', 'Chrome / Windows'],
  ] as const)('describes %s as %s', (agent, expected) => {
    expect(describeDevice(AGENTS[agent])).toBe(expected);
  });

  it('answers その他 for an agent it does not recognise at all', () => {
    expect(describeDevice(AGENTS.curl)).toBe('その他');
    expect(describeDevice('lightMyRequest')).toBe('その他');
  });

  it('answers null when there is no User-Agent to describe', () => {
    expect(describeDevice(undefined)).toBeNull();
    expect(describeDevice('')).toBeNull();
    expect(describeDevice('   ')).toBeNull();
  });

  it('never returns more than the coarse description, whatever the header holds', () => {
    const long = `${AGENTS.chromeWindows} ${'x'.repeat(10_000)} secret-token-123`;
    expect(describeDevice(long)).toBe('Chrome / Windows');
  });
});
