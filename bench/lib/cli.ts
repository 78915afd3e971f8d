import type { DatabaseKind } from './system.ts';

/** A line on standard output (the bench commands print their progress and tables). */
export const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A command-line option that must be a positive number. */
export function positiveNumber(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not ${v}`);
  return n;
}

/** The --database option: the system's database. */
export function databaseKind(v: string | undefined): DatabaseKind {
  if (v !== 'sqlite' && v !== 'postgres') throw new Error('--database must be sqlite or postgres');
  return v;
}

/** Runs a command's main and exits with its code; a run that broke exits 2 with its error. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(2);
    },
  );
}
