import { call } from './account-change-kit.ts';
import type { TestApp } from './test-app.ts';

/** POST /api/auth/reauth: the session of `access` proves presence with the password (decision 0012). */
export const reauth = (t: TestApp, access: string, password: string) => call(t, '/api/auth/reauth', access, { password });

/** What a guarded endpoint answers a session without a fresh proof (RFC 9470). */
export const FRESH_PROOF_NEEDED = {
  status: 401,
  challenge: 'Bearer error="insufficient_user_authentication", error_description="a recent proof of presence is required", max_age=300',
  // The member has no passkey, and so needs none (decision 0024).
  body: { result_code: 300, result_message: 'ご本人確認のため、現在のパスワードを入力してください。', passkey: false, passkey_required: false },
};

/** A response as the fresh-proof refusal is compared: status, challenge and body. */
export const refusalOf = (res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) => ({
  status: res.statusCode,
  challenge: res.headers['www-authenticate'],
  body: res.json(),
});
