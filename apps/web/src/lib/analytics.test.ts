import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAnalytics, trackOutbound, type SendHit } from './analytics.ts';

describe('tag container', () => {
  it('loads only where a container id is configured', () => {
    const append = vi.fn();
    expect(startAnalytics(undefined, append)).toBe(false);
    expect(append).not.toHaveBeenCalled();
    expect(startAnalytics('GTM-AB12', append)).toBe(true);
    expect(append).toHaveBeenCalledWith('https://www.googletagmanager.com/gtm.js?id=GTM-AB12');
  });
});

describe('outbound link', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const url = 'https://www.example.co.jp/faq/';

  it('navigates once after 250 ms when the hit never answers', () => {
    const navigate = vi.fn();
    trackOutbound(url, navigate, () => undefined);
    vi.advanceTimersByTime(249);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith(url);
    vi.advanceTimersByTime(10_000);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('navigates at once when the hit answers, and not again at 250 ms or on a second answer', () => {
    const navigate = vi.fn();
    let answer = () => undefined as void;
    const send: SendHit = (_url, done) => void (answer = done);
    trackOutbound(url, navigate, send);
    vi.advanceTimersByTime(40);
    answer();
    expect(navigate).toHaveBeenCalledExactlyOnceWith(url);
    answer();
    vi.advanceTimersByTime(1_000);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('navigates once when the hit answers late, after the 250 ms fallback', () => {
    const navigate = vi.fn();
    let answer = () => undefined as void;
    trackOutbound(url, navigate, (_url, done) => void (answer = done));
    vi.advanceTimersByTime(250);
    answer();
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('navigates at once when sending the hit throws', () => {
    const navigate = vi.fn();
    trackOutbound(url, navigate, () => {
      throw new Error('blocked');
    });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(url);
  });
});
