import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { clearHeldOpenSignup, getHeldOpenSignup, holdDone, holdSent } = await import('./open-signup-store.ts');

describe('held open sign-up answer', () => {
  beforeEach(() => store.clear());

  it('holds the register answer for the sent page across a reload, and only for it', () => {
    holdSent({ email: 'new@example.com' });
    expect(getHeldOpenSignup('sent')).toEqual({ step: 'sent', email: 'new@example.com' });
    expect(getHeldOpenSignup('done')).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it('holds the activation answer for the finish page, replacing the sent one, with the links only', () => {
    holdSent({ email: 'new@example.com' });
    const links = [{ name: 'Net Answer', client_id: 'SIAP004', extra: 'x' } as { name: string; client_id: string }];
    holdDone({ email: 'new@example.com', links });
    expect(getHeldOpenSignup('done')).toEqual({ step: 'done', email: 'new@example.com', links: [{ name: 'Net Answer', client_id: 'SIAP004' }] });
    expect(getHeldOpenSignup('sent')).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it('never holds a token', () => {
    holdSent({ email: 'new@example.com', onetime_token: 'secret' } as { email: string });
    holdDone({ email: 'new@example.com', links: [], onetime_token: 'secret' } as { email: string; links: [] });
    expect([...store.values()].join()).not.toContain('secret');
  });

  it('is gone once cleared', () => {
    holdDone({ email: 'a@example.com', links: [] });
    clearHeldOpenSignup();
    expect(getHeldOpenSignup('done')).toBeUndefined();
  });

  it('counts a broken or foreign record as none', () => {
    const put = (v: unknown) => store.set('sso.openSignup', typeof v === 'string' ? v : JSON.stringify(v));
    const done = { step: 'done', email: 'a@example.com', links: [{ name: 'LINE', client_id: 'SIAP002' }] };
    put(done);
    expect(getHeldOpenSignup('done')).toEqual(done);
    for (const broken of ['{not json', { ...done, email: 1 }, { ...done, links: undefined }, { ...done, links: [{ name: 'LINE' }] }, { ...done, step: 'other' }]) {
      put(broken);
      expect(getHeldOpenSignup('done')).toBeUndefined();
    }
    put({ step: 'sent' });
    expect(getHeldOpenSignup('sent')).toBeUndefined();
  });
});
