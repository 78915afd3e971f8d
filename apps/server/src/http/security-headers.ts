import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

/**
 * Strict headers from the first screen on (docs/security.md; OWASP ASVS 5.0 V3): no inline script,
 * no framing, nosniff, a referrer policy, HSTS only over HTTPS. form-action must also allow the
 * registered redirect URIs, because browsers check it against the 303 that follows the authorize
 * form post. `redirectUris` gives the enabled clients' current ones (the client registry of the
 * database changes while the server runs, decision 0031); it returns the same array until they
 * change, and the headers are worked out again only then, never per request. The server's own HTML
 * pages add their one style element's hash to style-src (server-page.ts), nothing else.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config, redirectUris: () => readonly string[]) {
  const https = config.publicOrigin.startsWith('https://');
  // Third-party scripts only where they load (docs/operations.md, "The SPA's build-time
  // configuration"): the configured analytics and monitoring origins, loaded as external scripts by the
  // SPA, which send hits by fetch, beacon or image; never 'unsafe-inline'.
  const thirdParty = [...new Set([...config.analyticsScriptOrigins, ...config.monitoringScriptOrigins])];
  // reCAPTCHA v3 where a secret is configured (SPEC.md section 7): Google's script and its invisible frame.
  const recaptchaScripts = config.recaptchaSecret ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'] : [];
  const recaptchaFrames = config.recaptchaSecret ? ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'] : [];
  const headersFor = (uris: readonly string[]) => headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...thirdParty, ...recaptchaScripts],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', ...thirdParty],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...thirdParty],
        formAction: ["'self'", ...redirectSourcesOf(uris)],
        frameAncestors: ["'none'"],
        ...(recaptchaFrames.length > 0 ? { frameSrc: ["'self'", ...recaptchaFrames] } : {}),
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
  let cachedFor = redirectUris();
  let headers = headersFor(cachedFor);
  // Callback style, as the CORS hook below: an async hook costs every request a promise and its
  // resolution (decision 0008).
  app.addHook('onRequest', (_request, reply, done) => {
    const uris = redirectUris();
    if (uris !== cachedFor) {
      cachedFor = uris;
      headers = headersFor(uris);
    }
    reply.headers(headers);
    done();
  });
}

/** The sources form-action allows for redirect URIs: the origin of an http(s) URI, the scheme of an app's custom one. */
function redirectSourcesOf(uris: readonly string[]): Set<string> {
  const sources = new Set<string>();
  for (const uri of uris) {
    // The registry accepts absolute URIs only (modules/client-admin/client-admin.ts); one that is not is left out, not every answer.
    if (!URL.canParse(uri)) continue;
    const u = new URL(uri);
    sources.add(u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol);
  }
  return sources;
}

/**
 * The headers helmet sets, worked out once at start (decision 0008): with no directive
 * that depends on the request, they depend on the configuration only, and helmet's middleware (as
 * @fastify/helmet runs it) rebuilt the same Content-Security-Policy text on every request. Helmet is
 * run against a stand-in response that records what it sets.
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => undefined,
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * Development only: lets the Vite dev server on another port call the API (SPEC.md section 7).
 * WWW-Authenticate is exposed because a cross-origin script sees only the CORS-safelisted response
 * headers (Fetch standard, "CORS-safelisted response-header name"), and the SPA tells a step-up
 * challenge (RFC 9470 section 3, error="insufficient_user_authentication") from an expired token by it.
 */
export function registerDevCors(app: FastifyInstance, origins: string[]) {
  if (origins.length === 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (!origin || !origins.includes(origin)) return done();
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Expose-Headers', 'WWW-Authenticate');
    reply.header('Vary', 'Origin');
    if (request.method === 'OPTIONS') {
      reply
        .header('Access-Control-Allow-Methods', 'GET, POST')
        .header('Access-Control-Allow-Headers', 'Authorization, Content-Type')
        .header('Access-Control-Max-Age', '600')
        .code(204)
        .send();
      return;
    }
    done();
  });
}
