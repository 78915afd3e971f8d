import { deviceParts } from '@sso/contracts/device';

/**
 * A coarse description of the device behind a User-Agent header, for the member's activity log
 * (SPEC.md section 1): "Chrome / Windows", "Safari / iPhone", "その他" (packages/contracts/src/device.ts).
 */

/** Shown for a browser or platform this function does not recognise. */
export const UNKNOWN_DEVICE = 'その他';

/**
 * "<browser> / <platform>", with その他 for an unrecognised part, or その他 alone when neither is
 * recognised; null when the request sent no User-Agent at all (nothing to describe).
 */
export function describeDevice(userAgent: string | undefined): string | null {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return null;
  const { browser, platform } = deviceParts(ua);
  if (!browser && !platform) return UNKNOWN_DEVICE;
  return `${browser ?? UNKNOWN_DEVICE} / ${platform ?? UNKNOWN_DEVICE}`;
}
