import { useEffect, useRef, type RefObject } from 'react';

/** How long a page may take to show its heading after a route change (its code is already loaded). */
const WAIT_FOR_HEADING_MS = 5_000;

/** Focuses the page heading, made focusable by script only (tabIndex -1), so that it is not a tab stop. */
function focusHeading(main: HTMLElement): boolean {
  const heading = main.querySelector('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * After a route change, not on the first load, focus moves to the new page's h1 (WCAG 2.2 2.4.3
 * focus order; a single-page app otherwise leaves focus on the link that is gone, and a screen
 * reader says nothing of the new page). A page that shows its heading a moment later (after its
 * data) is waited for.
 */
export function useHeadingFocus(main: RefObject<HTMLElement | null>, routeKey: string): void {
  // The key of the first page, not a flag: React's strict mode runs an effect twice on mount.
  const firstKey = useRef(routeKey);
  useEffect(() => {
    if (routeKey === firstKey.current) return;
    const root = main.current;
    if (!root || focusHeading(root)) return;
    const observer = new MutationObserver(() => {
      if (focusHeading(root)) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), WAIT_FOR_HEADING_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [main, routeKey]);
}
