import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS } from '@sso/contracts/passkey-screens';
import type { Passkey } from '@sso/contracts/passkeys';
import { PASSKEY_NAME_MAX } from '@sso/contracts/passkeys';
import { deviceParts } from '@sso/contracts/device';
import { formatJapanTime, japanIsoTime } from '../../lib/japan-time.ts';

/** What the list shows of a passkey, its times in Japan time as the activity log shows them. */
export interface PasskeyFacts {
  created: { text: string; iso: string };
  /** Never used: 未使用, and no time. */
  lastUsed: { text: string; iso?: string };
  /** Synced to the member's other devices (WebAuthn's backup state, BS) or on this device only. */
  kind: string;
}

export function passkeyFacts(p: Passkey): PasskeyFacts {
  return {
    created: { text: formatJapanTime(p.created_at), iso: japanIsoTime(p.created_at) },
    lastUsed: p.last_used_at === null ? { text: PASSKEY_SCREEN_TEXTS.unused } : { text: formatJapanTime(p.last_used_at), iso: japanIsoTime(p.last_used_at) },
    kind: p.synced ? PASSKEY_SETTINGS_MESSAGES.synced : PASSKEY_SETTINGS_MESSAGES.deviceBound,
  };
}

/**
 * The name a new passkey is offered: the browser and the platform it was made on, written as the
 * activity log writes a device ("Chrome / Windows"), so that the member recognises it there; the
 * one of them that is known, else 「パスキー」. The member may change it. Within PASSKEY_NAME_MAX.
 */
export function defaultPasskeyName(userAgent: string): string {
  const { browser, platform } = deviceParts(userAgent);
  const name = browser && platform ? `${browser} / ${platform}` : (browser ?? platform ?? PASSKEY_SETTINGS_MESSAGES.title);
  return name.slice(0, PASSKEY_NAME_MAX);
}

/** What the list offers under it: the registration, or why there is none (a browser without WebAuthn, the member's limit reached). */
export function registrationOffer(webauthn: boolean, count: number, limit: number): { offer: true } | { offer: false; reason: string } {
  if (!webauthn) return { offer: false, reason: PASSKEY_MESSAGES.unsupported };
  if (count >= limit) return { offer: false, reason: PASSKEY_SCREEN_TEXTS.limitReached };
  return { offer: true };
}
