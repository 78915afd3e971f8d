import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { signupStepResponseSchema } from '@sso/contracts/signup';
import { stubBrowserGlobals } from './test-browser-globals.ts';

stubBrowserGlobals();

const { apiPost } = await import('./api-client.ts');
const { ApiFailure } = await import('./result.ts');

const answer = (status: number, body: string) => vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })));
const answerJson = (status: number, body: unknown) => answer(status, JSON.stringify(body));
const STEP = { result_code: 0, result_message: 'ok', register_token: 'rt', destination_to: 'sms' };

/**
 * The client reads a success with the answer's contract schema (api-client.ts): SPEC.md section 3,
 * "A mismatch with these shapes only logs a warning"; section 8, the failures.
 */
describe('an answer read with its contract schema', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  beforeEach(() => warn.mockClear());
  afterAll(() => warn.mockRestore());

  it('comes back parsed when it matches: defaults applied, unknown fields dropped, no warning', async () => {
    answerJson(200, { ...STEP, extra: 'x' });
    const step = await apiPost('/api/signup/sms', signupStepResponseSchema, { json: {} });
    expect(step).toMatchObject({ ...STEP, terms: [] });
    expect(step).not.toHaveProperty('extra');
    expect(warn).not.toHaveBeenCalled();
  });

  it('comes back as it came when it does not match, with a warning named by `what` (else the path)', async () => {
    const offShape = { result_code: 0, result_message: 'ok', destination_to: 'fax' };
    answerJson(200, offShape);
    expect(await apiPost('/api/signup/sms', signupStepResponseSchema, { json: {}, what: 'SMS step' })).toEqual(offShape);
    expect(warn).toHaveBeenCalledWith('SMS step: the answer does not match the contract', expect.anything());
    answerJson(200, offShape);
    expect(await apiPost('/api/signup/pin', signupStepResponseSchema, { json: {} })).toEqual(offShape);
    expect(warn).toHaveBeenCalledWith('/api/signup/pin: the answer does not match the contract', expect.anything());
  });

  it('is the unexpected answer (500, C99-000999) when a success has no JSON body, as before any schema', async () => {
    answer(200, '<html>proxy page</html>');
    const failure = await apiPost('/api/signup/sms', signupStepResponseSchema, { json: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status: 200, result: { result_code: 500, result_message: CLIENT_MESSAGES['C99-000999'] } });
  });

  it.each([
    ['902 with the outstanding terms', 200, { result_code: 902, result_message: '規約に同意してください。', terms: ['ServiceOnNetAnswer'] }],
    ['901 with its validation errors', 400, { result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key: 'pin', message: 'x' }] }],
    ['300 access denied', 403, { result_code: 300, result_message: 'x' }],
  ])('throws a failure (%s) with the body as it came, never reading it with the success schema', async (_name, status, body) => {
    const parse = vi.spyOn(signupStepResponseSchema, 'safeParse');
    answerJson(status, body);
    const failure = await apiPost('/api/signup/sms', signupStepResponseSchema, { json: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status, result: body });
    expect(parse).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it("reads a login-route call's answer with the schema it names, loaded with the request (login-answers.ts)", async () => {
    answerJson(200, { result_code: 0, result_message: 'ok', user_id: 'u1', email: 'a@example.jp', extra: 'x' });
    expect(await apiPost('/api/user', 'userResponseSchema', { auth: true })).toEqual({ result_code: 0, result_message: 'ok', user_id: 'u1', email: 'a@example.jp' });
    expect(warn).not.toHaveBeenCalled();
    answerJson(200, { result_code: 0, result_message: 'ok', user_id: 7 });
    expect(await apiPost('/api/user', 'userResponseSchema', { auth: true })).toEqual({ result_code: 0, result_message: 'ok', user_id: 7 });
    expect(warn).toHaveBeenCalledWith('/api/user: the answer does not match the contract', expect.anything());
  });
});
