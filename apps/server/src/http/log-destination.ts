import pino from 'pino';

/** How long a log line may wait in the buffer before it is written (docs/operations.md, "Logs"). */
export const LOG_FLUSH_MS = 1_000;
/** The buffer's size before a write: a few dozen request lines. */
const LOG_BUFFER_BYTES = 8_192;

/**
 * Where the server's log goes (stdout unless `dest` names a file descriptor or a path): pino's
 * asynchronous destination, which buffers lines and writes them `LOG_BUFFER_BYTES` at a time instead
 * of one write a line, so that a request's log line costs the event loop a copy into the buffer
 * rather than a system call (docs/performance.md). The buffer is written at the latest every
 * `LOG_FLUSH_MS`, so that a quiet server's lines are not held back, and at the process's exit (pino
 * flushes such a destination then); a process killed outright (SIGKILL, the OOM killer) loses at
 * most that last second.
 */
export function logDestination(dest: number | string = 1, flushMs = LOG_FLUSH_MS): { stream: pino.DestinationStream; close(): void } {
  const stream = pino.destination({ dest, sync: false, minLength: LOG_BUFFER_BYTES });
  const timer = setInterval(() => stream.flush(), flushMs);
  timer.unref();
  return {
    stream,
    close: () => {
      clearInterval(timer);
      stream.flush();
    },
  };
}
