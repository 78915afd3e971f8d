import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from './isolated-tests.ts';

/**
 * What a file that shares its worker's modules must not do (vitest.config.ts, project `unit-shared`):
 * replace a module, stub a global or the environment, or assign to a prototype, none of which is
 * undone for the next file.
 */
const NEEDS_ITS_OWN_MODULES = /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(|\.prototype\.\w+\s*=[^=]/;

describe('the unit tests that share modules', () => {
  it('leave every file that replaces a module, stubs a global or assigns to a prototype to the isolated project', () => {
    const root = new URL('..', import.meta.url).pathname;
    // The directories of unit-shared's globs (packages/*/src, apps/server/src, scripts, bench/lib).
    const dirs = [...readdirSync(`${root}packages`).map((p) => `packages/${p}/src`), 'apps/server/src', 'scripts', 'bench/lib'];
    const shared = dirs.flatMap((d) => readdirSync(`${root}${d}`, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules')).map((f) => `${d}/${f}`));
    expect(shared.length).toBeGreaterThan(100);
    // This file names the patterns, and is not one of them.
    const found = shared.filter((f) => f !== 'scripts/isolated-tests.test.ts' && NEEDS_ITS_OWN_MODULES.test(readFileSync(`${root}${f}`, 'utf8')));
    expect(found.sort()).toEqual([...ISOLATED].sort());
  });
});
