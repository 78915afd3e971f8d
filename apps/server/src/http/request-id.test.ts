import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('X-Request-Id on %s', (dialect) => {
  const t = withTestApp(dialect);
  const stopped = withTestApp(dialect, { OUT_OF_SERVICE: 'true' });

  it('keeps a valid incoming id and returns it', async () => {
    for (const id of ['lb-7f3a.9:trace_01', 'a', 'x'.repeat(128)]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/live', headers: { 'x-request-id': id } });
      expect(res.headers['x-request-id']).toBe(id);
    }
  });

  it('replaces a missing or invalid one by a new UUID', async () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'y'.repeat(1000), 'abc def', 'abc%0d%0aSet-Cookie:%20a=b', 'id\tinjected', '<script>']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/live', headers: id === undefined ? {} : { 'x-request-id': id } });
      expect(String(res.headers['x-request-id']), String(id)).toMatch(UUID);
    }
    const a = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    const b = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is on every answer: 200, 400, 401, 404 and a hook that answers early', async () => {
    const headers = { 'x-request-id': 'lb-1' };
    const answers = [
      [200, await t.app.inject({ method: 'GET', url: '/api/health', headers })],
      [400, await t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { id: 1 } })],
      [400, await t.app.inject({ method: 'GET', url: '/api/%zz', headers })],
      [401, await t.app.inject({ method: 'POST', url: '/api/user', headers, payload: {} })],
      [404, await t.app.inject({ method: 'GET', url: '/api/no-such-path', headers })],
      [503, await stopped.app.inject({ method: 'POST', url: '/api/user', headers, payload: {} })],
    ] as const;
    for (const [status, res] of answers) {
      expect([res.statusCode, res.headers['x-request-id']]).toEqual([status, 'lb-1']);
    }
  });
});
