import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

stubBrowserGlobals();
const { handBackToPortal, openPortal, resumePortal } = await import('./portal-hand-back.ts');
const { saveSession } = await import('./records.ts');

describe('portal hand-back after a card change', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes back to a portal app through resume_app with client, state and esid', () => {
    saveSession({ comesFrom: 'SIAP006', redirectState: 'st-1' });
    const assign = vi.fn();
    const onBusy = vi.fn();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    expect(handBackToPortal('ES0000000102', assign, { doc, win: new EventTarget(), onBusy })).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(onBusy).toHaveBeenCalledOnce();
    const url = new URL(assign.mock.calls[0]?.[0] as string);
    expect(url.pathname).toBe('/api/redirect/resume_app');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'SIAP006', state: 'st-1', esid: 'ES0000000102' });
  });

  it('goes back to the second portal the same way (SPEC.md section 6: SIAP007, SIAP008)', () => {
    for (const comesFrom of ['SIAP007', 'SIAP008']) {
      saveSession({ comesFrom, redirectState: `${comesFrom}-state` });
      const assign = vi.fn();
      expect(handBackToPortal('ES2', assign, { onBusy: vi.fn(), doc: Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState }), win: new EventTarget() })).toBe(true);
      const url = new URL(assign.mock.calls[0]?.[0] as string);
      expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: comesFrom, state: `${comesFrom}-state`, esid: 'ES2' });
    }
  });

  it('opens a portal app with its own state when the member came from it, with none when from elsewhere', () => {
    const quiet = { onBusy: vi.fn(), doc: Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState }), win: new EventTarget() };
    const opened = (clientId: string) => {
      const assign = vi.fn();
      openPortal(clientId, assign, quiet)();
      return Object.fromEntries(new URL(assign.mock.calls[0]?.[0] as string).searchParams);
    };
    saveSession({ comesFrom: 'SIAP005', redirectState: 'portal-state-1' });
    expect(opened('SIAP005')).toEqual({ client_id: 'SIAP005', state: 'portal-state-1', esid: '' });
    expect(opened('SIAP007')).toEqual({ client_id: 'SIAP007', state: '', esid: '' });
  });

  it('does nothing outside a portal (the web itself, a partner, no origin)', () => {
    for (const comesFrom of ['SIAP009', 'SIAP002', 'SIAP004', undefined]) {
      saveSession({ comesFrom });
      const assign = vi.fn();
      expect(handBackToPortal('ES1', assign)).toBe(false);
      expect(assign).not.toHaveBeenCalled();
    }
  });

  it('opens a portal app with no secret in the URL, and watches it open (decision 0013)', () => {
    const assign = vi.fn();
    const onBusy = vi.fn();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const stop = resumePortal('SIAP005', '', '', assign, { doc, win: new EventTarget(), onBusy });
    const url = new URL(assign.mock.calls[0]?.[0] as string);
    expect(`${url.pathname}?${url.searchParams.toString()}`).toBe('/api/redirect/resume_app?client_id=SIAP005&state=&esid=');
    stop();
    vi.advanceTimersByTime(10_000);
    expect(onBusy).not.toHaveBeenCalled();
  });
});
