/**
 * A coarse description of the device behind a User-Agent header, for the member's activity log
 * (SPEC.md section 1): "Chrome / Windows", "Safari / iPhone", "その他". Only the browser family and the
 * platform are kept, never the raw header: enough for a member to recognise a sign-in that was not
 * theirs, and nothing that fingerprints them.
 */

/** Shown for a browser or platform this function does not recognise. */
export const UNKNOWN_DEVICE = 'その他';

/** Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
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

/**
 * "<browser> / <platform>", with その他 for an unrecognised part, or その他 alone when neither is
 * recognised; null when the request sent no User-Agent at all (nothing to describe).
 */
export function describeDevice(userAgent: string | undefined): string | null {
  const ua = userAgent?.trim().slice(0, 512) ?? '';
  if (!ua) return null;
  const browser = first(BROWSERS, ua);
  const platform = first(PLATFORMS, ua);
  if (!browser && !platform) return UNKNOWN_DEVICE;
  return `${browser ?? UNKNOWN_DEVICE} / ${platform ?? UNKNOWN_DEVICE}`;
}
