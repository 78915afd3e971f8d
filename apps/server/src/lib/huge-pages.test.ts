import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricLabels, metricValue } from '../test-support/metrics.ts';
import { createTestApp } from '../test-support/test-app-core.ts';
import { hugePagesWarning, transparentHugePages } from './huge-pages.ts';

const GAUGE = 'sso_host_transparent_huge_pages';
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

describe('the server: its warning at the start and its gauge', () => {
  /** The warnings the app's start writes and the gauge's series while it runs, with the kernel's mode read from `file`. */
  async function started(file: string): Promise<{ warnings: string[]; series: Record<string, string | number>[]; never: number }> {
    const lines: string[] = [];
    const t = await createTestApp('sqlite', {}, { logStream: { write: (line: string) => void lines.push(line) }, hugePagesFile: file });
    try {
      const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40 && l.msg.includes('transparent huge pages'));
      return { warnings: warnings.map((l) => l.msg), series: await metricLabels(GAUGE), never: await metricValue(GAUGE, { state: 'never' }) };
    } finally {
      await t.close();
    }
  }

  it('warns once of huge pages turned off, and exports the mode in force', async () => {
    const never = modeFile('start-never', 'always madvise [never]\n');
    expect(await started(never)).toEqual({ warnings: [hugePagesWarning(never)], series: [{ state: 'never' }], never: 1 });
  });

  it('neither warns nor says never with madvise', async () => {
    expect(await started(modeFile('start-madvise', 'always [madvise] never\n'))).toEqual({ warnings: [], series: [{ state: 'madvise' }], never: 0 });
  });

  it('exports no series where the kernel does not say', async () => {
    expect(await started(join(dir, 'absent'))).toEqual({ warnings: [], series: [], never: 0 });
  });
});
