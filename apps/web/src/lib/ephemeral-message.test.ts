import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();
const { peekEphemeralMessage, setEphemeralMessage, takeEphemeralMessage } = await import('./ephemeral-message.ts');

describe('ephemeral message', () => {
  beforeEach(() => {
    store.clear();
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-04-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('is valid for 500 ms', () => {
    setEphemeralMessage('boom');
    vi.advanceTimersByTime(500);
    expect(peekEphemeralMessage()).toBe('boom');
    vi.advanceTimersByTime(1);
    expect(peekEphemeralMessage()).toBeUndefined();
  });

  it('is read once by take, and peek does not consume it', () => {
    setEphemeralMessage('once');
    expect(peekEphemeralMessage()).toBe('once');
    expect(takeEphemeralMessage()).toBe('once');
    expect(takeEphemeralMessage()).toBeUndefined();
  });

  it('a late reader gets nothing even if the record is still stored', () => {
    setEphemeralMessage('late');
    vi.advanceTimersByTime(2_000);
    expect(takeEphemeralMessage()).toBeUndefined();
  });
});
