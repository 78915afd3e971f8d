import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { GOOGLE_SITEVERIFY_URL, googleRecaptcha } from './recaptcha.ts';

/**
 * The reCAPTCHA port against a siteverify endpoint on this machine (SPEC.md section 7), answering as
 * Google's does: RECAPTCHA_VERIFY_URL names it (a proxy, or a staging system's simulator).
 */
describe('reCAPTCHA siteverify at RECAPTCHA_VERIFY_URL', () => {
  let server: Server;
  let url: string;
  const asked: URLSearchParams[] = [];
  const sockets = new Set<unknown>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        asked.push(form);
        const token = form.get('response') ?? '';
        sockets.add(req.socket);
        if (token === 'slow') return; // never answers
        if (token === 'huge') return res.writeHead(200, { 'content-type': 'application/json' }).end(`{"success":true,"pad":"${'x'.repeat(100_000)}"}`);
        if (token === 'cut') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"success":tr');
          return setTimeout(() => req.socket.destroy(), 20);
        }
        if (token === 'not-json') return res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
        const answer = token === 'down' ? null : { success: token !== 'invalid', action: token === 'other-action' ? 'signup' : 'login', score: token === 'bot' ? 0.1 : token === 'text-score' ? '0.9' : 0.9 };
        res.writeHead(answer ? 200 : 503, { 'content-type': 'application/json' }).end(answer ? JSON.stringify(answer) : 'down');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });

  it('defaults to Google, and takes another endpoint from the environment', () => {
    expect(loadConfig({}).recaptchaVerifyUrl).toBe(GOOGLE_SITEVERIFY_URL);
    expect(loadConfig({ RECAPTCHA_VERIFY_URL: url }).recaptchaVerifyUrl).toBe(url);
  });

  it('passes a token the endpoint verifies for the action with a score at least the minimum, sending the secret and the address', async () => {
    const verifier = googleRecaptcha('the-secret', 0.5, url);
    expect(await verifier.verify('good', 'login', '203.0.113.7')).toBe(true);
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({ secret: 'the-secret', response: 'good', remoteip: '203.0.113.7' });
  });

  it.each([
    ['an invalid token', 'invalid'],
    ['a token of another action', 'other-action'],
    ['a score under the minimum', 'bot'],
    ['an endpoint that fails', 'down'],
    ['an answer that is not JSON', 'not-json'],
    ['an answer longer than siteverify ever gives', 'huge'],
    ['a score that is not a number', 'text-score'],
  ])('refuses %s', async (_name, token) => {
    expect(await googleRecaptcha('the-secret', 0.5, url).verify(token, 'login')).toBe(false);
  });

  it('keeps its connection to the endpoint for the next verification', async () => {
    const verifier = googleRecaptcha('the-secret', 0.5, url);
    await verifier.verify('good', 'login');
    const before = sockets.size;
    expect(await verifier.verify('good', 'login')).toBe(true);
    expect(await verifier.verify('good', 'login')).toBe(true);
    expect(sockets.size).toBe(before);
  });

  it('refuses a verification the endpoint does not answer in time', async () => {
    const started = Date.now();
    expect(await googleRecaptcha('the-secret', 0.5, url, 300).verify('slow', 'login')).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('refuses an answer cut off by a lost connection at once, without waiting for the time-out', async () => {
    const started = Date.now();
    expect(await googleRecaptcha('the-secret', 0.5, url, 4_000).verify('cut', 'login')).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses an empty token without asking, and an endpoint that cannot be reached', async () => {
    const before = asked.length;
    expect(await googleRecaptcha('the-secret', 0.5, url).verify('', 'login')).toBe(false);
    expect(asked.length).toBe(before);
    expect(await googleRecaptcha('the-secret', 0.5, 'http://127.0.0.1:9/siteverify').verify('good', 'login')).toBe(false);
  });
});
