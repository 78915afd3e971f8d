import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

stubBrowserGlobals();
const { isCustomScheme, watchCustomScheme } = await import('./hand-off.ts');

/** A page whose visibility the test changes, as the browser does when an app opens. */
function fakePage() {
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
  const win = new EventTarget();
  const setVisibility = (state: DocumentVisibilityState) => {
    doc.visibilityState = state;
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { doc, win, setVisibility };
}

describe('custom URL scheme decision', () => {
  it('is a custom scheme for anything but http and https', () => {
    expect(isCustomScheme('portalapp://callback')).toBe(true);
    expect(isCustomScheme('jp.example.portal:/oauth')).toBe(true);
    expect(isCustomScheme('https://id.example.com/content/oauth/callback')).toBe(false);
    expect(isCustomScheme('http://localhost:8080/content/oauth/callback')).toBe(false);
    expect(isCustomScheme('HTTPS://partner.example.com/cb')).toBe(false);
  });

  it('is no custom scheme for a missing or unparsable redirect URI', () => {
    expect(isCustomScheme(null)).toBe(false);
    expect(isCustomScheme('')).toBe(false);
    expect(isCustomScheme('not a uri')).toBe(false);
  });
});

describe('custom URL scheme fallback', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes to busy after the 10 s grace when the page is still there', () => {
    const { doc, win } = fakePage();
    const onBusy = vi.fn();
    watchCustomScheme('portalapp://callback', { doc, win, onBusy });
    vi.advanceTimersByTime(9_999);
    expect(onBusy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onBusy).toHaveBeenCalledTimes(1);
  });

  it('stays when the app opened: the page was hidden, even if the member came back', () => {
    const { doc, win, setVisibility } = fakePage();
    const onBusy = vi.fn();
    watchCustomScheme('portalapp://callback', { doc, win, onBusy });
    setVisibility('hidden');
    vi.advanceTimersByTime(3_000);
    setVisibility('visible');
    vi.advanceTimersByTime(10_000);
    expect(onBusy).not.toHaveBeenCalled();
  });

  it('stays when the page was unloaded', () => {
    const { doc, win } = fakePage();
    const onBusy = vi.fn();
    watchCustomScheme('portalapp://callback', { doc, win, onBusy });
    win.dispatchEvent(new Event('pagehide'));
    vi.advanceTimersByTime(10_000);
    expect(onBusy).not.toHaveBeenCalled();
  });

  it('does not watch an http or https redirect URI, and can be stopped', () => {
    const { doc, win } = fakePage();
    const onBusy = vi.fn();
    watchCustomScheme('https://partner.example.com/cb', { doc, win, onBusy });
    const stop = watchCustomScheme('portalapp://callback', { doc, win, onBusy });
    stop();
    vi.advanceTimersByTime(20_000);
    expect(onBusy).not.toHaveBeenCalled();
  });
});
