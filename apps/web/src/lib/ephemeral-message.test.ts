import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();
const { peekEphemeralMessage, peekEphemeralReference, setEphemeralMessage, takeEphemeralMessage } = await import('./ephemeral-message.ts');

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

  it('carries the server\'s support reference for as long as the message, and only one shaped as the server makes it', () => {
    setEphemeralMessage('boom', '3f2a9c1b');
    expect(peekEphemeralReference()).toBe('3f2a9c1b');
    vi.advanceTimersByTime(501);
    expect(peekEphemeralReference()).toBeUndefined();
    for (const odd of ['<b>x</b>', '3F2A9C1B', '3f2a9c1b0', undefined]) {
      setEphemeralMessage('boom', odd);
      expect(peekEphemeralReference(), String(odd)).toBeUndefined();
    }
  });
});
