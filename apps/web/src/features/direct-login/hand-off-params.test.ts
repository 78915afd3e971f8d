import { describe, expect, it } from 'vitest';
import { callbackPlan, serviceTarget } from './hand-off-params.ts';

const q = (s: string) => new URLSearchParams(s);

describe('callbackPlan', () => {
  it('maps each of the seven targets to its screen, with source and state', () => {
    const routes = {
      top: '/top',
      card_add: '/subusers/all',
      card_activate: '/subusers/unactivated',
      card_remove: '/subuser/remove',
      portal_card_add: '/subusers/all',
      portal_card_activate: '/subusers/unactivated',
      portal_card_remove: '/subuser/remove',
    };
    for (const [target, route] of Object.entries(routes)) {
      expect(callbackPlan(q(`onetime_token=tok&target=${target}&source=SIAP005&state=st`))).toEqual({
        kind: 'exchange',
        token: 'tok',
        route,
        source: 'SIAP005',
        state: 'st',
      });
    }
    expect(callbackPlan(q('onetime_token=tok&target=top&source='))).toMatchObject({ source: undefined, state: '' });
  });

  it('finds no other target, before looking at the token', () => {
    for (const target of ['', 'evil', '__proto__', 'constructor', 'toString', '/top', 'TOP']) {
      expect(callbackPlan(q(`onetime_token=tok&target=${encodeURIComponent(target)}`))).toEqual({ kind: 'notFound' });
    }
    expect(callbackPlan(q(''))).toEqual({ kind: 'notFound' });
  });

  it('refuses a known target without its token', () => {
    expect(callbackPlan(q('target=top'))).toEqual({ kind: 'missingToken' });
    expect(callbackPlan(q('target=top&onetime_token='))).toEqual({ kind: 'missingToken' });
  });
});

describe('serviceTarget', () => {
  it('reads client_id and service_name from the query', () => {
    expect(serviceTarget(q('client_id=SIAP002&service_name=LINE%E5%85%AC%E5%BC%8F'), 'client_id=SIAP004')).toEqual({
      clientId: 'SIAP002',
      serviceName: 'LINE公式',
    });
    expect(serviceTarget(q('client_id=SIAP002'), undefined)).toEqual({ clientId: 'SIAP002', serviceName: '' });
  });

  it('falls back to the session state read as a query string, only when the query names no client', () => {
    expect(serviceTarget(q(''), 'client_id=SIAP004&service_name=Net%20Answer')).toEqual({ clientId: 'SIAP004', serviceName: 'Net Answer' });
    expect(serviceTarget(q(''), '?client_id=SIAP004')).toEqual({ clientId: 'SIAP004', serviceName: '' });
    expect(serviceTarget(q('client_id=bad%20id'), 'client_id=SIAP004')).toBeUndefined();
    expect(serviceTarget(q(''), 'portal-state-123')).toBeUndefined();
    expect(serviceTarget(q(''), undefined)).toBeUndefined();
    expect(serviceTarget(q(`client_id=${'a'.repeat(65)}`), undefined)).toBeUndefined();
  });

  it('carries the challenge of the portal app that asked, as given, for the server to check (decision 0013)', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(serviceTarget(q(`client_id=SIAP005&code_challenge=${challenge}&code_challenge_method=S256`), undefined)).toEqual({
      clientId: 'SIAP005',
      serviceName: '',
      proof: { code_challenge: challenge, code_challenge_method: 'S256' },
    });
    expect(serviceTarget(q(''), `client_id=SIAP006&code_challenge=${challenge}`)?.proof).toEqual({ code_challenge: challenge, code_challenge_method: '' });
    expect(serviceTarget(q('client_id=SIAP005&code_challenge_method=S256'), undefined)?.proof).toBeUndefined();
    expect(serviceTarget(q(`client_id=SIAP005&code_challenge=${'c'.repeat(300)}&code_challenge_method=plain`), undefined)?.proof).toEqual({
      code_challenge: 'c'.repeat(128),
      code_challenge_method: 'plain',
    });
  });

  it('keeps a long service name short', () => {
    expect(serviceTarget(q(`client_id=X&service_name=${'あ'.repeat(150)}`), undefined)?.serviceName).toHaveLength(100);
  });
});
