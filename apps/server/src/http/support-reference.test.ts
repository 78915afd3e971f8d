import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { PointLedger } from '../ports/point-ledger.ts';
import { bearer, loginTokens, withTestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';

/** A point ledger that is broken: every call fails as a bug would, not as the database being out. */
const brokenLedger: PointLedger = {
  balances: () => Promise.reject(new Error('ledger answered something unexpected')),
  transferOpenToCard: () => Promise.reject(new Error('ledger answered something unexpected')),
  mergeOpenAccount: () => Promise.reject(new Error('ledger answered something unexpected')),
};

describe.each(DIALECTS)('support reference of a 5xx answer (docs/operations.md) (%s)', (dialect) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const t = withTestApp(dialect, {}, { pointLedger: brokenLedger, logStream: stream });

  it('answers a short reference with the 500 and writes the same reference in the error log line', async () => {
    const { access_token } = await loginTokens(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/user/aqf', headers: bearer(access_token) });
    expect(res.statusCode).toBe(500);
    const body = res.json<{ result_code: number; reference: string }>();
    expect(body.result_code).toBe(500);
    expect(body.reference).toMatch(/^[0-9a-f]{8}$/);

    const logged = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const errorLine = logged.find((l) => l.msg === 'unhandled error');
    expect(errorLine?.reference).toBe(body.reference);
    // The reference is the start of the request id: every line of that request is found with it.
    expect(String(errorLine?.reqId).replaceAll('-', '')).toMatch(new RegExp(`^${body.reference}`));
    // Its lines: the failure with its stack, then the request's own line (http/request-log.ts).
    const ofRequest = logged.filter((l) => l.reqId === errorLine?.reqId);
    expect(ofRequest.map((l) => l.msg)).toEqual(['unhandled error', 'request completed']);
    expect(ofRequest[1]).toMatchObject({ method: 'POST', url: '/api/user/aqf', status: 500 });
  });

  it("is still 8 hex digits when the request id is the load balancer's, and the error line names that id", async () => {
    const { access_token } = await loginTokens(t.app);
    for (const id of ['lb-1', 'Root.1-67891233-abcdef012345678912345678']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/user/aqf', headers: { ...bearer(access_token), 'x-request-id': id } });
      const { reference } = res.json<{ reference: string }>();
      expect([res.statusCode, res.headers['x-request-id']]).toEqual([500, id]);
      expect(reference).toMatch(/^[0-9a-f]{8}$/);
      const logged = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged.find((l) => l.msg === 'unhandled error' && l.reference === reference)?.reqId).toBe(id);
    }
  });

  it('answers no reference where nothing was logged: a member\'s own mistake is a 4xx without one', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/aqf' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).not.toHaveProperty('reference');
  });
});
