import { describe, expect, it } from 'vitest';
import { ApiFailure, errorRouteFor, failureFromBody, failureFromError, networkFailure, toResult } from './result.ts';

const NETWORK = 'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。';
const UNEXPECTED = '予期しない問題のため処理できませんでした。';
const RELOGIN = '操作を継続できません。お手数ですが再ログインしてください。';

describe('turning a failed request into a result', () => {
  it('gives the network message with the client-side special code when there is no response', () => {
    expect(networkFailure().result).toEqual({ result_code: 99999, result_message: NETWORK });
    expect(toResult(new TypeError('Failed to fetch'))).toEqual({ result_code: 99999, result_message: NETWORK });
    expect(toResult(new DOMException('timed out', 'TimeoutError'))).toEqual({ result_code: 99999, result_message: NETWORK });
  });

  it('gives the unexpected message for a non-HTTP error', () => {
    expect(toResult(new SyntaxError('bad json')).result_message).toBe(UNEXPECTED);
    expect(toResult('thrown string').result_message).toBe(UNEXPECTED);
    expect(errorRouteFor(toResult(new Error('x')).result_code)).toBe('/500');
  });

  it('uses a server result body as is, an OAuth error by its Japanese text (never the English description), else the unexpected message', () => {
    const body = { result_code: 200, result_message: 'IDまたはパスワードが正しくありません。' };
    expect(failureFromBody(400, body).result).toEqual(body);
    const used = { error: 'invalid_grant', error_description: 'authorization code is invalid or already used' };
    expect(failureFromBody(400, used).result.result_message).toBe(RELOGIN);
    expect(failureFromBody(400, { error: 'invalid_grant' }).result.result_message).toBe(RELOGIN);
    expect(failureFromBody(400, { error: 'some_new_error', error_description: 'English' }).result.result_message).toBe(UNEXPECTED);
    expect(failureFromBody(500, { error: 'server_error', error_description: 'internal error', reference: 'ab12' }).result).toEqual({
      result_code: 500,
      result_message: UNEXPECTED,
      reference: 'ab12',
    });
    expect(failureFromBody(502, '<html>').result.result_message).toBe(UNEXPECTED);
    const failure = new ApiFailure(body, 400);
    expect(failureFromError(failure)).toBe(failure);
  });

  it('routes result codes to the error pages', () => {
    expect(errorRouteFor(903)).toBe('/problem/signup/card/info');
    expect(errorRouteFor(904)).toBe('/problem/signup/card/chatbot');
    expect(errorRouteFor(501)).toBe('/503');
    expect(errorRouteFor(902)).toBe('/500');
    expect(errorRouteFor(99999)).toBe('/500');
    expect(errorRouteFor(12345)).toBe('/500');
  });
});
