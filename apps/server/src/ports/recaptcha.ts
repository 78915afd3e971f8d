import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tracedCall } from '../lib/tracing.ts';

/** reCAPTCHA port (SPEC.md section 7): verifies the token the SPA fetched for an action. */
export interface RecaptchaVerifier {
  verify(token: string, action: string, remoteIp?: string): Promise<boolean>;
}

/**
 * Development verifier, used when RECAPTCHA_SECRET is unset: any non-empty token passes except
 * those starting with `fail`, which answer as an invalid token (result 205). Documented in the README.
 */
export const developmentRecaptcha: RecaptchaVerifier = {
  verify: async (token) => token.length > 0 && !token.startsWith('fail'),
};

/** Google's verification endpoint (RECAPTCHA_VERIFY_URL's default). */
export const GOOGLE_SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** How long a verification may take before it counts as failed. */
const VERIFY_TIMEOUT_MS = 5_000;

/** The most of an answer read: siteverify answers a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One POST of a form, answered with JSON (undefined: no answer, a status other than 200, too long,
 * or not JSON), through node:http(s) with keep-alive connections of its own. Not `fetch`: on the
 * production build's login, `fetch` (undici's web streams, an AbortSignal per call) took more of the
 * event loop than the rest of the request's own work (docs/performance.md, "The login").
 */
function postForm(url: URL, form: URLSearchParams, agent: HttpAgent | HttpsAgent, timeoutMs: number, traceHeaders: Record<string, string>): Promise<unknown> {
  const body = form.toString();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, { method: 'POST', agent, timeout: timeoutMs, headers: { ...traceHeaders, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (c: Buffer) => {
        length += c.length;
        if (length > MAX_ANSWER_BYTES) req.destroy();
        else chunks.push(c);
      });
      res.on('end', () => {
        if (res.statusCode !== 200 || length > MAX_ANSWER_BYTES) return resolve(undefined);
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
      // An answer cut off (too long, or the connection lost) has no 'end': Node 20 settles it with
      // 'error' above, and 'close', which every answer ends with, is the backstop; after either this changes nothing.
      res.on('close', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}

/**
 * Google's siteverify, for a configured secret, at `verifyUrl` (Google's, or another answering the
 * same way: a proxy, or a staging system's simulator). A network failure, a timeout and an answer
 * that is not siteverify's count as not verified.
 */
export function googleRecaptcha(secret: string, minScore: number, verifyUrl: string = GOOGLE_SITEVERIFY_URL, timeoutMs: number = VERIFY_TIMEOUT_MS): RecaptchaVerifier {
  const url = new URL(verifyUrl);
  const agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  // A CLIENT span carrying traceparent when tracing is on (lib/tracing.ts): not `fetch`, so not the undici instrumentation's.
  const span = { 'http.request.method': 'POST', 'server.address': url.hostname, 'url.full': `${url.origin}${url.pathname}` };
  return {
    async verify(token, action, remoteIp) {
      if (!token) return false;
      const form = new URLSearchParams({ secret, response: token, ...(remoteIp ? { remoteip: remoteIp } : {}) });
      const data = (await tracedCall('POST', span, (headers) => postForm(url, form, agent, timeoutMs, headers))) as { success?: unknown; action?: unknown; score?: unknown } | undefined;
      if (typeof data !== 'object' || data === null) return false;
      // reCAPTCHA v2 answers no score: a pass is a pass.
      const score = data.score === undefined ? 1 : data.score;
      return data.success === true && (data.action === undefined || data.action === action) && typeof score === 'number' && score >= minScore;
    },
  };
}
