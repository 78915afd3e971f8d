import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/test-app-core.ts';
import { hugePagesWarning, transparentHugePages } from './huge-pages.ts';

const dir = mkdtempSync(join(tmpdir(), 'thp-'));
/** A file as the kernel writes it, the mode in force in brackets. */
const modeFile = (name: string, content: string): string => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('transparent huge pages', () => {
  it('reads the bracketed mode of each of the kernel\'s three', () => {
    expect(transparentHugePages(modeFile('always', '[always] madvise never\n'))).toBe('always');
    expect(transparentHugePages(modeFile('madvise', 'always [madvise] never\n'))).toBe('madvise');
    expect(transparentHugePages(modeFile('never', 'always madvise [never]\n'))).toBe('never');
  });

  it('is unknown where the file is missing or says no mode', () => {
    expect(transparentHugePages(join(dir, 'absent'))).toBeUndefined();
    expect(transparentHugePages(modeFile('empty', ''))).toBeUndefined();
    expect(transparentHugePages(modeFile('unbracketed', 'always madvise never\n'))).toBeUndefined();
  });

  it('warns with never only, naming the file and where the cost is measured', () => {
    const never = modeFile('warn-never', 'always madvise [never]\n');
    expect(hugePagesWarning(never)).toContain(`${never}: never`);
    expect(hugePagesWarning(never)).toContain('docs/operations.md, "Sizing"');
    expect(hugePagesWarning(modeFile('warn-madvise', 'always [madvise] never\n'))).toBeUndefined();
    expect(hugePagesWarning(modeFile('warn-always', '[always] madvise never\n'))).toBeUndefined();
    expect(hugePagesWarning(join(dir, 'absent'))).toBeUndefined();
  });
});

describe("the server's start", () => {
  /** The warnings the app's start writes with the kernel's mode read from `file`. */
  async function startWarnings(file: string): Promise<string[]> {
    const lines: string[] = [];
    const t = await createTestApp('sqlite', {}, { logStream: { write: (line: string) => void lines.push(line) }, hugePagesFile: file });
    await t.close();
    return lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40).map((l) => l.msg);
  }

  it('warns once of huge pages turned off, and not with madvise', async () => {
    const never = modeFile('start-never', 'always madvise [never]\n');
    expect((await startWarnings(never)).filter((m) => m.includes('transparent huge pages'))).toEqual([hugePagesWarning(never)]);
    expect((await startWarnings(modeFile('start-madvise', 'always [madvise] never\n'))).filter((m) => m.includes('transparent huge pages'))).toEqual([]);
  });
});
