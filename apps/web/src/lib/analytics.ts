import { LIMITS } from '@sso/contracts/constants';

/** Origin of the tag container script; the server's CSP allows it only when ANALYTICS_SCRIPT_ORIGINS names it. */
export const TAG_CONTAINER_ORIGIN = 'https://www.googletagmanager.com';

type DataLayer = Record<string, unknown>[];
const dataLayer = (): DataLayer => ((globalThis as { dataLayer?: DataLayer }).dataLayer ??= []);
let containerLoaded = false;

/** Appends an async external script: no inline code, so the CSP needs only the script's origin. */
export function appendScript(src: string, onLoad?: () => void): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  if (onLoad) script.addEventListener('load', onLoad);
  document.head.appendChild(script);
}

/**
 * Loads the tag container of the environment (SPEC.md section 9), only where a container id is
 * configured (envSettings in env.ts). Returns whether it loads.
 */
export function startAnalytics(containerId: string | undefined, append: (src: string) => void = appendScript): boolean {
  if (!containerId) return false;
  dataLayer().push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  append(`${TAG_CONTAINER_ORIGIN}/gtm.js?id=${encodeURIComponent(containerId)}`);
  containerLoaded = true;
  return true;
}

/** Sends the hit for an outbound link and calls `done` once it is sent. */
export type SendHit = (url: string, done: () => void) => void;

/** The container's hit: its eventCallback answers when the hit is sent; without a container, answers at once. */
export const sendOutboundHit: SendHit = (url, done) => {
  if (!containerLoaded) return done();
  dataLayer().push({ event: 'outbound_click', outbound_url: url, eventCallback: done, eventTimeout: LIMITS.analyticsOutboundMs });
};

/**
 * An outbound link (SPEC.md section 9): sends the hit, then navigates once, when the hit answers or
 * after LIMITS.analyticsOutboundMs (250 ms), whichever comes first.
 */
export function trackOutbound(url: string, navigate: (url: string) => void, send: SendHit = sendOutboundHit): void {
  let gone = false;
  const go = () => {
    if (gone) return;
    gone = true;
    clearTimeout(timer);
    navigate(url);
  };
  const timer = setTimeout(go, LIMITS.analyticsOutboundMs);
  try {
    send(url, go);
  } catch {
    go();
  }
}

/**
 * onClick for an external link that opens in the same tab: a plain left click waits for the hit
 * (trackOutbound); clicks with a modifier or on target=_blank links are left to the browser.
 */
export function onOutboundClick(event: {
  currentTarget: HTMLAnchorElement;
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}): void {
  const a = event.currentTarget;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || a.target === '_blank') return;
  event.preventDefault();
  trackOutbound(a.href, (url) => globalThis.location.assign(url));
}
