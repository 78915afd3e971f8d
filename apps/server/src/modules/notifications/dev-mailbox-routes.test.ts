import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp, PRODUCTION_ENV } from '../../test-support/test-app.ts';
import { DevMailbox } from './dev-mailbox.ts';
import { registerDevMailboxRoutes } from './dev-mailbox-routes.ts';

describe('/dev/mailbox', () => {
  it('lists SMS and mail newest first, as JSON and as an escaped page', async () => {
    const mailbox = new DevMailbox();
    mailbox.add({ kind: 'sms', to: '09011110001', subject: '', text: '認証コード 123456' }, new Date('2026-01-01T00:00:00Z'));
    mailbox.add({ kind: 'mail', to: 'x@example.com', subject: '<b>件名</b>', text: '<script>alert(1)</script>' }, new Date('2026-01-01T00:01:00Z'));
    const app = Fastify();
    registerDevMailboxRoutes(app, mailbox);
    const json = await app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(json.headers['cache-control']).toBe('no-store');
    expect(json.json()).toEqual([
      { kind: 'mail', to: 'x@example.com', subject: '<b>件名</b>', text: '<script>alert(1)</script>', sentAt: '2026-01-01T00:01:00.000Z' },
      { kind: 'sms', to: '09011110001', subject: '', text: '認証コード 123456', sentAt: '2026-01-01T00:00:00.000Z' },
    ]);
    const html = await app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.body).not.toContain('<script>');
    expect(html.body.indexOf('x@example.com')).toBeLessThan(html.body.indexOf('09011110001'));
    await app.close();
  });

  it('exists in development and test, never in production', async () => {
    const test = await createTestApp('sqlite');
    expect((await test.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json()).toEqual([]);
    await test.close();
    const production = await createTestApp('sqlite', PRODUCTION_ENV);
    for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
      expect((await production.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    await production.close();
  });
});
