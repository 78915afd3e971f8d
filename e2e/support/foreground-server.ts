import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

/** A server program run in the foreground for a test (nginx, Apache), from a temporary directory of its own. */
export interface ForegroundServer {
  /** Its standard error and its error log file, as written so far. */
  log(): string;
  /** Ends it (SIGTERM, then waits for its exit) and removes its directory. */
  stop(): Promise<void>;
}

export interface ForegroundServerOptions {
  /** The program's name, for the errors. */
  name: string;
  command: string;
  args: string[];
  /** The directory it runs from: removed when it stops. */
  dir: string;
  /** Where it writes its error log. */
  errorLog: string;
  /** A URL that answers 2xx once it serves. */
  readyUrl: string;
  /**
   * A text that its answer at `readyUrl` holds: it tells the program from another server that took
   * the port between the test's choosing it and the program's start (whose own bind then fails).
   */
  readyText?: string;
  /**
   * In a process group of its own (Apache's stop signals its whole group, which must not be the test
   * runner's); it is then ended if the test runner exits without stopping it.
   */
  detached?: boolean;
}

const tail = (text: string) => text.slice(-2000);

/** Starts the program and waits until `readyUrl` answers (10 s at most); a program that exits or does not answer is stopped, and its log thrown. */
export async function startForegroundServer(o: ForegroundServerOptions): Promise<ForegroundServer> {
  const child = spawn(o.command, o.args, { stdio: ['ignore', 'ignore', 'pipe'], detached: o.detached ?? false });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const orphaned = () => child.kill('SIGTERM');
  if (o.detached) process.once('exit', orphaned);
  const log = () => {
    let file = '';
    try {
      file = readFileSync(o.errorLog, 'utf8');
    } catch {
      // no log written yet
    }
    return `${stderr}${file}`.trim();
  };
  const stop = async () => {
    process.off('exit', orphaned);
    if (!exited()) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(o.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    let failure: string | undefined;
    if (exited()) failure = `${o.name} exited: ${tail(log())}`;
    else {
      try {
        const res = await fetch(o.readyUrl);
        const body = await res.text();
        if (res.ok && (o.readyText === undefined || body.includes(o.readyText))) return { log, stop };
        if (res.ok) failure = `${o.name}'s port answers with another server: ${tail(body)}`;
      } catch {
        // not listening yet
      }
      if (failure === undefined && Date.now() > deadline) failure = `${o.name} did not answer within 10 s: ${tail(log())}`;
    }
    if (failure !== undefined) {
      await stop();
      throw new Error(failure);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
