import { describe, expect, it } from 'vitest';
import { call, UA } from '../test-support/account-change-kit.ts';
import { LoginBrowser, memberWithPasskey } from '../test-support/passkey-kit.ts';
import { bearer, withTestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';

const MALFORMED = { result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [] };

/** A WebAuthn answer whose `response` holds an array nested `depth` deep: 2 bytes a level, under the 64 KiB body limit. */
const bombed = (depth: number) => `{"id":"a","rawId":"a","type":"public-key","response":{"clientDataJSON":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

/**
 * A JSON body nested deeper than any contract's (found by an attack round: 20,000 levels inside a
 * passkey answer overflowed the stack in the schema's refinement, a 500 and a stack trace a request):
 * refused before any validation with the 901 body, or RFC 6749's invalid_request on an OAuth
 * endpoint (SPEC.md section 8; ARCHITECTURE.md "One error type").
 */
describe.each(DIALECTS)('JSON bodies nested too deep (%s)', (dialect) => {
  const lines: string[] = [];
  const t = withTestApp(dialect, { LOG_LEVEL: 'info' }, { logStream: { write: (line) => lines.push(line) } });

  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { 'user-agent': UA, 'content-type': 'application/json', ...headers }, payload: body });

  it('answers 400 with the 901 body on the passkey sign-in, registration and step-up, logs no stack, and the server goes on', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const bomb = bombed(20_000);
    expect(Buffer.byteLength(bomb)).toBeLessThan(64 * 1024);
    lines.length = 0;
    const answers = [
      await post('/api/auth/passkey/login', `{"client_id":"SIAP009","credential":${bomb}}`),
      await post('/api/auth/passkey/register', `{"name":"x","credential":${bomb}}`, bearer(member.access_token)),
      await post('/api/auth/reauth/passkey', `{"credential":${bomb}}`, bearer(member.access_token)),
      // A bare bomb, and one of objects.
      await post('/api/auth/passkey/login', bomb.replace('{"id"', '[{"id"')),
      await post('/api/auth/passkey/login', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
    ];
    for (const res of answers) expect([res.statusCode, res.json()], res.body).toEqual([400, MALFORMED]);
    const log = lines.join('');
    expect(log).not.toContain('"stack"');
    expect(log).not.toContain('RangeError');
    expect(log).toContain('JSON body nested too deep');
    // The same routes still answer normal bodies: the sign-in goes through.
    const signedIn = await new LoginBrowser().signIn(t, authenticator);
    expect(signedIn.json().result_code, signedIn.body).toBe(0);
    expect((await call(t, '/api/auth/passkeys', member.access_token)).json().passkeys).toHaveLength(1);
  });

  it('answers invalid_request on an OAuth endpoint', async () => {
    const res = await post('/api/auth/token', `{"grant_type":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('lets a body nested as deep as the bound through, and brackets inside strings count for nothing', async () => {
    // 32 levels in all (the body, the credential, its response, 29 arrays): past the bound's check, refused as a passkey.
    const deepButFair = await post('/api/auth/passkey/login', `{"client_id":"SIAP009","credential":${bombed(29)}}`);
    expect(deepButFair.json().result_code, deepButFair.body).toBe(200);
    const oneDeeper = await post('/api/auth/passkey/login', `{"client_id":"SIAP009","credential":${bombed(30)}}`);
    expect([oneDeeper.statusCode, oneDeeper.json()]).toEqual([400, MALFORMED]);
    // A string full of brackets is no nesting: an ordinary unknown-credential answer.
    const strings = await post('/api/auth/passkey/login', JSON.stringify({ client_id: 'SIAP009', credential: { id: '[{'.repeat(600), rawId: 'a', type: 'public-key', response: { a: '\\"[[[[' } } }));
    expect(strings.json().result_code, strings.body).toBe(200);
  });
});
