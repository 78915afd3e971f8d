import { useCallback, useEffect, useRef, useState } from 'react';

/** What an action resolves to: 'leaving' keeps the buttons blocked while the page navigates away. */
export type ActionOutcome = void | 'leaving';

/**
 * Runs an action at most once at a time: buttons block repeated clicks while it is pending
 * (SPEC.md section 4, "Buttons"). A ref, not only state, so that a double click in one frame is
 * also blocked.
 */
export function usePendingAction<A extends unknown[]>(action: (...args: A) => Promise<ActionOutcome>) {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    // Back from a full-page hand-off, the browser may restore this page from its cache: unblock.
    const onPageShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      running.current = false;
      setPending(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  const run = useCallback(
    async (...args: A) => {
      if (running.current) return;
      running.current = true;
      setPending(true);
      let outcome: ActionOutcome = undefined;
      try {
        outcome = await action(...args);
      } finally {
        if (outcome !== 'leaving') {
          running.current = false;
          setPending(false);
        }
      }
    },
    [action],
  );
  return { pending, run };
}
