import { describe, expect, it } from 'vitest';
import { SESSION_SCREEN_TEXTS as T } from '@sso/contracts/session-screens';
import { browserFacts, endingText, serviceFacts } from './session-view.ts';

const at = Date.UTC(2026, 0, 2, 1, 5);
/** 2027年2月27日 10:00 in Japan time. */
const ends = Date.UTC(2027, 1, 27, 1, 0);

/** What the list of signed-in browsers and services shows (decision 0026). */
describe('signed-in browsers and services, as listed', () => {
  it('names each ログアウト button with its browser and when it signed in, この端末 for this one', () => {
    const other = browserFacts({ id: 'b1', device: 'Chrome / Windows', created_at: at, last_used_at: at, last_service: 'Net Answer', expires_at: ends, current: false });
    expect(other.buttonLabel).toBe('「Chrome / Windows（2026年1月2日 10:05にログイン）」をログアウト');
    expect(other.lastService).toBe('Net Answer');
    const mine = browserFacts({ id: 'b2', device: null, created_at: at, last_used_at: at, last_service: null, expires_at: ends, current: true });
    expect(mine.title).toBe(T.unknownDevice);
    expect(mine.buttonLabel).toBe(`「${T.unknownDevice}（この端末）」をログアウト`);
    expect(mine.started).toEqual({ text: '2026年1月2日 10:05', iso: '2026-01-02T10:05+09:00' });
  });

  it('says when a browser\'s automatic login ends, in Japan time (SPEC.md section 9); a service has none of its own', () => {
    const browser = browserFacts({ id: 'b1', device: 'Chrome / Windows', created_at: at, last_used_at: at, last_service: null, expires_at: ends, current: true });
    expect(T.autoLoginEndsAt).toBe('自動ログインの有効期限');
    expect(browser.autoLoginEnds).toEqual({ text: '2027年2月27日 10:00', iso: '2027-02-27T10:00+09:00' });
    expect(serviceFacts({ id: 'f1', client_id: 'SIAP004', name: 'Net Answer', created_at: at, last_used_at: at, current: false }).autoLoginEnds).toBeUndefined();
  });

  it('names the button and says what logging out everywhere does, this browser included', () => {
    expect(T.endAll).toBe('すべての端末からログアウト');
    expect(T.endAllText).toContain('この端末もログアウト');
  });

  it('says what ending does: a browser with its services, a service alone, and this browser logged out too', () => {
    const service = serviceFacts({ id: 'f1', client_id: 'SIAP004', name: 'Net Answer', created_at: at, last_used_at: at, current: false });
    expect(service.lastService).toBeUndefined();
    expect(endingText(service)).toEqual([T.endServiceText]);
    expect(endingText({ ...service, kind: 'browser', current: true })).toEqual([T.endBrowserText, T.endCurrentText]);
  });
});
