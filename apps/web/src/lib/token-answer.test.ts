import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenResponseSchema } from '@sso/contracts/auth';
import { readTokenAnswer } from './token-answer.ts';

/** SPEC.md section 3: "A mismatch with these shapes only logs a warning." */
describe('reading a token answer', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  afterEach(() => warn.mockClear());

  it('takes an answer of the contract without a warning', () => {
    expect(readTokenAnswer(tokenResponseSchema, { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 3600 }, 'x')).toEqual({ access_token: 'a', refresh_token: 'r' });
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['expires_in a string', { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: '3600' }],
    ['token_type missing', { access_token: 'a', refresh_token: 'r', expires_in: 3600 }],
    ['scope a number, a field more', { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 3600, scope: 1, extra: 'x' }],
  ])('warns and goes on when it carries the tokens (%s)', (_name, body) => {
    expect(readTokenAnswer(tokenResponseSchema, body, 'code exchange')).toEqual({ access_token: 'a', refresh_token: 'r' });
    expect(warn).toHaveBeenCalledWith('code exchange: the answer does not match the contract', expect.anything());
  });

  it('gives no refresh token when the answer has none (the caller says whether it needs one)', () => {
    expect(readTokenAnswer(tokenResponseSchema, { access_token: 'a', token_type: 'Bearer', expires_in: 3600 }, 'x')).toEqual({ access_token: 'a' });
  });

  it.each([
    ['no access token', { refresh_token: 'r', token_type: 'Bearer', expires_in: 3600 }],
    ['an empty access token', { access_token: '', refresh_token: 'r' }],
    ['an access token that is no string', { access_token: 12, refresh_token: 'r' }],
    ['no body', undefined],
  ])('fails with the unexpected message when it lacks a needed field (%s)', (_name, body) => {
    expect(() => readTokenAnswer(tokenResponseSchema, body, 'x')).toThrow('予期しない問題のため処理できませんでした。');
  });
});
