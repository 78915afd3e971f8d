import { LoadingText } from './loading-text.tsx';

/**
 * A page that only waits for where it goes next (the welcome, the login callbacks): its heading,
 * and the loading text once the wait lasts over 100 ms (SPEC.md sections 2 and 9).
 */
export function WaitingPage({ heading }: { heading: string }) {
  return (
    <>
      <h1>{heading}</h1>
      <LoadingText />
    </>
  );
}
