import { describe, expect, it } from 'vitest';
import { errorRouteFor, failureFromBody, networkFailure } from './result.ts';

describe('turning a failed request into a result', () => {
  it('gives the network message with the client-side special code when there is no response', () => {
    expect(networkFailure().result).toEqual({
      result_code: 99999,
      result_message: 'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。',
    });
  });

  it('uses a server result body as is, an OAuth error description, else the unexpected message', () => {
    const body = { result_code: 200, result_message: 'IDまたはパスワードが正しくありません。' };
    expect(failureFromBody(400, body).result).toEqual(body);
    expect(failureFromBody(400, { error: 'invalid_grant', error_description: 'expired' }).result.result_message).toBe('expired');
    expect(failureFromBody(400, { error: 'invalid_grant' }).result.result_message).toBe('予期しない問題のため処理できませんでした。');
    expect(failureFromBody(502, '<html>').result.result_message).toBe('予期しない問題のため処理できませんでした。');
  });

  it('routes result codes to the error pages', () => {
    expect(errorRouteFor(903)).toBe('/problem/signup/card/info');
    expect(errorRouteFor(904)).toBe('/problem/signup/card/chatbot');
    expect(errorRouteFor(501)).toBe('/503');
    expect(errorRouteFor(902)).toBe('/500');
    expect(errorRouteFor(12345)).toBe('/500');
  });
});
