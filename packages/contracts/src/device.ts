/**
 * The browser family and the platform of a User-Agent header, by their marks: what the member's
 * activity log calls a device ("Chrome / Windows", SPEC.md section 1) and what a new passkey is
 * offered as its name (docs/decisions/0024-passkeys.md). Only the two are kept, never the raw
 * header: enough for a member to recognise a device, and nothing that fingerprints them.
 */

/**
 * Order matters: the in-app browsers first (LINE's and the Yahoo! JAPAN app's, which most Japanese
 * members open links in: their headers also say "Safari" or "Chrome"; LINE adds "Line/<version>",
 * the Yahoo! JAPAN app "YJApp-IOS" or "YJApp-ANDROID"), then Edge, Opera and Samsung Internet, which
 * also say "Chrome", and Chrome, which also says "Safari".
 */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bLine\/\d/, 'LINE'],
  [/\bYJApp-(IOS|ANDROID)\b/, 'Yahoo! JAPAN'],
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** iPhone and iPad before Mac (their headers say "like Mac OS X"), Android before Linux. */
const PLATFORMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: ReadonlyArray<readonly [RegExp, string]>, ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1];

/** The browser and the platform a User-Agent names; either is undefined when not recognised. */
export function deviceParts(userAgent: string): { browser?: string; platform?: string } {
  const ua = userAgent.slice(0, 512);
  return { browser: first(BROWSERS, ua), platform: first(PLATFORMS, ua) };
}
