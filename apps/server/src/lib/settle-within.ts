/**
 * What a call to another system came to within a wait: its value, or that it failed or did not
 * answer in time. The call is not cancelled (the port gives no way to); its late answer is dropped.
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; reason: 'failed'; error: unknown } | { ok: false; reason: 'timeout' };

export function settleWithin<T>(call: () => Promise<T>, waitMs: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, reason: 'timeout' }), waitMs);
    timer.unref();
    const done = (s: Settled<T>) => {
      clearTimeout(timer);
      resolve(s);
    };
    // A call that throws before its promise is made counts as failed, as a rejected one does.
    Promise.resolve()
      .then(call)
      .then(
        (value) => done({ ok: true, value }),
        (error: unknown) => done({ ok: false, reason: 'failed', error }),
      );
  });
}
