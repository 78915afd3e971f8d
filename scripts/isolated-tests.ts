/**
 * The server-side test files that run isolated (vitest.config.ts, project `unit`) although their
 * directories share modules between files (project `unit-shared`): each replaces a module
 * (`vi.mock`) or counts through a patched prototype, which a module cache shared with other files
 * would undo or spread. A spy the file restores itself (`mockRestore`, `vi.restoreAllMocks`) needs
 * no isolation. scripts/isolated-tests.test.ts finds every such file and holds this list to them.
 */
export const ISOLATED = [
  'apps/server/src/modules/recover/reset-cost.test.ts',
  'apps/server/src/modules/login/login-commits.test.ts',
];
