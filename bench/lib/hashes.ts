import { DEMO, passwordVerifications } from '@sso/server/test-support/internals';
import { createTestApp, postAuthorize } from '@sso/server/test-support';

/**
 * Password hashes per login (budget: exactly one; the login step and the authorize step must not
 * each hash the password). The server's argon2id verifications are counted in its own process
 * (`passwordVerifications`), so this drives the real app in this process, on its own SQLite
 * database, through `inject()`: the SPA's two requests per login, as login-page.tsx sends them.
 */
export async function hashesPerLogin(logins = 20): Promise<number> {
  const t = await createTestApp('sqlite');
  try {
    const before = passwordVerifications();
    for (let i = 0; i < logins; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { id: DEMO.card.email, password: DEMO.card.password, recaptcha_token: 'bench', client_id: 'SIAP009' },
      });
      const { result_code, login_ticket } = res.json() as { result_code: number; login_ticket?: string };
      if (result_code !== 0) throw new Error(`login step answered ${result_code}`);
      // As login-page.tsx posts it: the ticket and no reCAPTCHA token (decision 0011).
      const authorized = await postAuthorize(t.app, { ticket: login_ticket, recaptcha: '' });
      if (!new URL(String(authorized.headers.location)).searchParams.get('code')) throw new Error('authorize step issued no code');
    }
    return (passwordVerifications() - before) / logins;
  } finally {
    await t.close();
  }
}
