import { configDefaults, defineConfig } from 'vitest/config';
import { ISOLATED } from './scripts/isolated-tests.ts';

/** What the unit projects share. */
const unit = {
  environment: 'node' as const,
  testTimeout: 20_000,
  hookTimeout: 30_000,
  // Two files at once: vitest's default on 2 cores is one (cores - 1), and a file waits on
  // PostgreSQL's commits and database creation most of its time, not on the CPU. Each file has its
  // own databases and its own SMTP sink on a free port (test-app-core.ts).
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...unit,
          name: 'unit',
          include: ['apps/web/src/**/*.test.ts', 'apps/admin/src/**/*.test.ts', ...ISOLATED],
        },
      },
      {
        test: {
          ...unit,
          // The server's, the packages', the scripts' and the bench's tests share their workers' modules:
          // each test makes its own app on its own database (test-app-core.ts), and importing the server
          // afresh for each of these files took a third of the unit run. The files that replace a module
          // or patch a prototype run isolated, in `unit`, as the browser code's do (jsdom, stubbed globals).
          // A test-support module's own state lasts across the files a worker runs: what a file must
          // have to itself is counted by file (cards-kit.ts `nextHolder`).
          name: 'unit-shared',
          // One database per dialect migrated before the files start, which each test database copies
          // instead of running the 26 migrations again (test-support/migrated-templates.ts). Made once
          // for the run: the isolated server files of `unit` inherit it when both projects run, and
          // migrate their own databases when `unit` runs alone, which then needs no PostgreSQL.
          globalSetup: ['apps/server/src/test-support/migrated-templates.ts'],
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/lib/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: ['e2e/abuse/**'],
          environment: 'node',
          // The longest journeys (open sign-up to activation and Top; the open-account link and point
          // transfer) take about 32 s alone but 52–63 s beside another journey file on these 2 cores
          // (2026-11-24): past the 60 s they had, which made them fail on a busy machine, not a slow product.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A screen shows what it fetched after the page has loaded: the SPA starts, refreshes its token on
          // entry (SPEC.md section 4) and loads the screen's chunk before it asks the API. With two journeys
          // on these 2 cores that took more than expect.poll's default second (the points' zero-balance alert in
          // a CI rehearsal; the open sign-up's heading with a build beside them). A poll passes as soon as it
          // holds, so a longer bound costs only a failing journey's time.
          expect: { poll: { timeout: 10_000 } },
          // Two journey files at once (each its own server and Chromium): the machines have 2 cores,
          // and a journey waits on the browser and the network most of its time.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        // The abuse suite (docs/security.md): attack, race, fuzz, fault and two-node checks against running servers.
        test: {
          name: 'abuse',
          include: ['e2e/abuse/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts its own servers and loads them: one file at a time keeps the timing
          // measurements and the parallel-guess bounds free of the other files' load.
          fileParallelism: false,
        },
      },
    ],
  },
});
