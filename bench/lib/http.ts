import { Pool } from 'undici';

/**
 * A keep-alive HTTP client of one origin for the load tools: an undici Pool of `connections`
 * sockets, reused request after request, as a partner's backend or a busy front would hold them.
 * Requests beyond `connections` wait in the pool's queue, and that wait counts in their latency.
 * Redirects are not followed (the authorize POST answers 303).
 */
export interface HttpAnswer {
  status: number;
  location: string | undefined;
  text: string;
}

export interface HttpClient {
  origin: string;
  post(path: string, body: { form?: Record<string, string> | URLSearchParams; json?: unknown }, headers?: Record<string, string>): Promise<HttpAnswer>;
  get(path: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export function httpClient(origin: string, connections: number): HttpClient {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
  const send = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<HttpAnswer> => {
    const res = await pool.request({ method, path, headers, body });
    const text = await res.body.text();
    const location = res.headers.location;
    return { status: res.statusCode, location: Array.isArray(location) ? location[0] : location, text };
  };
  return {
    origin,
    post: (path, body, headers = {}) => {
      if (body.form) return send('POST', path, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(body.form).toString());
      if (body.json !== undefined) return send('POST', path, { 'content-type': 'application/json', ...headers }, JSON.stringify(body.json));
      return send('POST', path, headers);
    },
    get: (path, headers = {}) => send('GET', path, headers),
    close: () => pool.close(),
  };
}

/** A short name of a thrown network error ("network ECONNRESET", "network UND_ERR_SOCKET"). */
export function networkErrorKind(e: unknown): string {
  const code = e && typeof e === 'object' && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
  return `network ${code ?? (e instanceof Error ? e.message.slice(0, 60) : String(e))}`;
}

export { basicAuth, bearer } from '@sso/server/test-support';
