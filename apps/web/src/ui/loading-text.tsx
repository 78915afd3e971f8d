import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import { useDelayed } from './use-delayed.ts';

/**
 * 'データを読み込んでいます...' once a wait lasts over 100 ms (SPEC.md sections 2, 8 and 9), as a
 * status that screen readers announce: a page waiting for where it goes next, or a screen whose code
 * is still loading.
 */
export function LoadingText() {
  const show = useDelayed(true, LIMITS.loadingTextDelayMs);
  return show ? <p role="status">{TEXTS.loading}</p> : null;
}
