import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SCREEN_TEXTS } from '@sso/contracts/passkey-screens';
import type { Passkey } from '@sso/contracts/passkeys';
import { PASSKEY_NAME_MAX } from '@sso/contracts/passkeys';
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
    kind: p.synced ? PASSKEY_MESSAGES.synced : PASSKEY_MESSAGES.deviceBound,
  };
}

/** Platforms by their user-agent marks, the more specific first (an iPad's Safari says "Macintosh"; Android says "Linux"). */
const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'Chromebook'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Linux/, 'Linux'],
];
/** Browsers by their marks, the more specific first (Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari"). */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const first = (marks: [RegExp, string][], userAgent: string) => marks.find(([mark]) => mark.test(userAgent))?.[1];

/**
 * The name a new passkey is offered ("WindowsのChrome"): the system and the browser it was made on,
 * which the member may change; 「パスキー」 when neither is known. Within PASSKEY_NAME_MAX. No
 * full-width brackets: the field's NFKC on blur (ui/input-normalise.ts) would change them.
 */
export function defaultPasskeyName(userAgent: string): string {
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  const name = browser && system ? `${system}の${browser}` : (browser ?? system ?? PASSKEY_MESSAGES.title);
  return name.slice(0, PASSKEY_NAME_MAX);
}

/** What the list offers under it: the registration, or why there is none (a browser without WebAuthn, the member's limit reached). */
export function registrationOffer(webauthn: boolean, count: number, limit: number): { offer: true } | { offer: false; reason: string } {
  if (!webauthn) return { offer: false, reason: PASSKEY_MESSAGES.unsupported };
  if (count >= limit) return { offer: false, reason: PASSKEY_SCREEN_TEXTS.limitReached };
  return { offer: true };
}
