import { apiBase, customSchemeGraceMs } from './env.ts';
import { go } from './navigation.ts';

/** The authorize endpoints the hidden form posts to (SPEC.md section 7): after login, after sign-up. */
export const LOGIN_AUTHORIZE_PATH = '/api/auth/authorize';
export const SIGNUP_AUTHORIZE_PATH = '/api/signup/authorize';

/**
 * The authorize hand-off (SPEC.md section 4): a hidden form posts to the server's authorize endpoint
 * `path` with the authorize parameters in its query; the server answers 303 to the client's redirect
 * URI with the code. A portal app's custom URL scheme gets the busy fallback.
 */
export function submitAuthorizeForm(path: string, authorize: URLSearchParams, fields: Record<string, string | string[]>): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = `${apiBase()}${path}?${authorize.toString()}`;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = v;
      form.appendChild(input);
    }
  }
  document.body.appendChild(form);
  form.submit();
  watchCustomScheme(authorize.get('redirect_uri'));
}

/** A portal app's redirect URI uses its own URL scheme: anything but http and https (SPEC.md section 1). */
export function isCustomScheme(redirectUri: string | null | undefined): boolean {
  if (!redirectUri) return false;
  try {
    const { protocol } = new URL(redirectUri);
    return protocol !== 'http:' && protocol !== 'https:';
  } catch {
    return false;
  }
}

export interface WatchOptions {
  doc?: EventTarget & { readonly visibilityState: DocumentVisibilityState };
  win?: EventTarget;
  graceMs?: number;
  onBusy?: () => void;
}

/**
 * The custom-URL-scheme fallback (SPEC.md section 4; 10 s by section 9). A redirect to a custom
 * scheme leaves this page in place: an app that opens hides or unloads it. If the page was never
 * hidden nor unloaded during the grace period and is still visible, the app did not open, and the
 * member goes to /problem/busy. Returns a function that stops watching.
 */
export function watchCustomScheme(redirectUri: string | null | undefined, options: WatchOptions = {}): () => void {
  if (!isCustomScheme(redirectUri)) return () => undefined;
  return watchAppOpen(options);
}

/**
 * Watches for a portal app to open after a hand-back whose final redirect is to the app's custom
 * scheme (the server's redirect decides the scheme, so the page cannot see it): the fallback of
 * watchCustomScheme, unconditionally.
 */
export function watchAppOpen(options: WatchOptions = {}): () => void {
  const { doc = document, win = window, graceMs = customSchemeGraceMs(), onBusy = () => go('/problem/busy') } = options;
  let left = false;
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') left = true;
  };
  const onPageHide = () => {
    left = true;
  };
  const stop = () => {
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', onPageHide);
  };
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', onPageHide);
  const timer = setTimeout(() => {
    stop();
    if (!left && doc.visibilityState === 'visible') onBusy();
  }, graceMs);
  return stop;
}
