import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES, TEXTS } from './messages.ts';

/** SPEC.md sits in the shared/ folder beside the repository (as for the spec-coverage test). */
const specPath = fileURLToPath(new URL('../../../../shared/SPEC.md', import.meta.url));

function readSpec(): string {
  if (!existsSync(specPath)) throw new Error(`SPEC.md not found at ${specPath}`);
  return readFileSync(specPath, 'utf8');
}

describe('the texts of SPEC.md section 8, word for word', () => {
  it('has every client message of the table, and no other', () => {
    const rows = [...readSpec().matchAll(/^\| (C99-\d{6}) \| ([^|]+) \|/gm)].map((m) => [m[1], m[2]?.trim()]);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(CLIENT_MESSAGES).toEqual(Object.fromEntries(rows));
  });

  it('has every quoted "other text"', () => {
    const line = readSpec().split('\n').find((l) => l.startsWith('Other texts are:')) ?? '';
    const quoted = [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(quoted).toHaveLength(5);
    expect(quoted).toEqual([TEXTS.loading, TEXTS.loadFailed, TEXTS.identityUnconfirmed, TEXTS.registerFailed, TEXTS.slow]);
    expect(TEXTS.notFound).toMatch(/見つかりません/);
  });
});
