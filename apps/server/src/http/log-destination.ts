import pino from 'pino';

/** How long a log line may wait in the buffer before it is written (docs/operations.md, "Logs"). */
export const LOG_FLUSH_MS = 1_000;
/** The buffer's size before a write: about two hundred request lines. */
const LOG_BUFFER_BYTES = 32 * 1024;
/** The most written in one system call: above the buffer's size, which SonicBoom requires. */
const LOG_WRITE_BYTES = 64 * 1024;

/** SonicBoom in `contentMode: 'buffer'`, whose `write` takes bytes (its types declare the text mode's only). */
interface BytesDestination {
  write(bytes: Buffer): boolean;
  flush(): void;
}

/**
 * Where the server's log goes (stdout unless `dest` names a file descriptor or a path): pino's
 * asynchronous destination, which buffers lines and writes them `LOG_BUFFER_BYTES` at a time instead
 * of one write a line, so that a request's log line costs the event loop a copy into the buffer
 * rather than a system call (docs/performance.md, "Request logs"). The buffer is written at the
 * latest every `LOG_FLUSH_MS`, so that a quiet server's lines are not held back, and at the
 * process's exit (pino flushes such a destination then); a process killed outright (SIGKILL, the
 * OOM killer) loses at most that last second.
 *
 * Each line is handed over as bytes (SonicBoom's `contentMode: 'buffer'`): given text, SonicBoom
 * measures the UTF-8 length of everything still unwritten at every line, so that a line cost more
 * the fuller the buffer was.
 */
export function logDestination(dest: number | string = 1, flushMs = LOG_FLUSH_MS): { stream: pino.DestinationStream; close(): void } {
  const buffered = pino.destination({ dest, sync: false, minLength: LOG_BUFFER_BYTES, maxWrite: LOG_WRITE_BYTES, contentMode: 'buffer' }) as unknown as BytesDestination;
  const timer = setInterval(() => buffered.flush(), flushMs);
  timer.unref();
  return {
    // Looked up at each line: pino replaces the destination's `write` once its reader has gone (EPIPE).
    stream: { write: (line: string) => buffered.write(Buffer.from(line)) },
    close: () => {
      clearInterval(timer);
      buffered.flush();
    },
  };
}
