import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reCAPTCHA siteverify endpoint on this machine for the production build under load
 * (RECAPTCHA_VERIFY_URL, ports/recaptcha.ts): it answers as Google's does for a human, `success`
 * with a score of 0.9 for any non-empty token, and with no action, which the port then does not
 * compare. The benchmark's production run needs it: production requires RECAPTCHA_SECRET, and
 * this machine cannot reach Google.
 */
export async function startRecaptchaSimulator(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const token = new URLSearchParams(body).get('response') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(token ? { success: true, score: 0.9 } : { success: false, 'error-codes': ['missing-input-response'] }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
