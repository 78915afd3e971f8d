import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES, oauthErrorMessage, TEXTS } from './messages.ts';

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

describe('the Japanese of every OAuth error a member can meet (RFC 6749 sections 4.1.2.1 and 5.2)', () => {
  const codes = [
    'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'unsupported_response_type',
    'invalid_scope', 'access_denied', 'server_error', 'temporarily_unavailable', 'login_required', 'consent_required',
    'interaction_required', 'account_selection_required', 'invalid_token', 'insufficient_scope',
  ];

  it('gives each code a Japanese text, with no English word in it', () => {
    for (const code of codes) {
      const text = oauthErrorMessage(code);
      expect(text, code).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(text, code).not.toMatch(/[a-z]{3,}/);
    }
  });

  it('asks for a new login for a used or expired code, and gives the unexpected message for an unknown code', () => {
    expect(oauthErrorMessage('invalid_grant')).toBe(CLIENT_MESSAGES['C99-000500']);
    expect(oauthErrorMessage('no_such_error')).toBe(CLIENT_MESSAGES['C99-000999']);
    expect(oauthErrorMessage('__proto__')).toBe(CLIENT_MESSAGES['C99-000999']);
  });
});
