import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { loadConfig } from '../config.ts';
import { ManualClock } from '../lib/clock.ts';
import { loadNetAnswerSimulator } from './net-answer-simulator.ts';

const make = () => {
  const clock = new ManualClock();
  return { clock, na: loadNetAnswerSimulator(loadConfig({}).netAnswerFile, 'http://sso.test', clock) };
};

describe('Net Answer simulator over config/demo-netanswer.json', () => {
  it('confirms an id and password with the cards the account covers, and never which one was wrong', async () => {
    const { na } = make();
    expect(await na.verifyAccount('demo-na-card', 'NaDemo1234')).toEqual({ naId: 'demo-na-card', esids: ['ES0000000001', 'ES0000000102', 'ES0000000103'] });
    expect(await na.verifyAccount('demo-na-card', 'wrong')).toBeUndefined();
    expect(await na.verifyAccount('nobody', 'NaDemo1234')).toBeUndefined();
  });

  it('answers a one-time direct-login URL on its development page, redeemed once within 60 s', async () => {
    const { na, clock } = make();
    const url = new URL(await na.directLoginUrl({ esid: 'ES0000000001', naId: 'demo-na-card', param1: 'p1', param2: '' }));
    expect(`${url.origin}${url.pathname}`).toBe('http://sso.test/dev/netanswer/login');
    const key = url.searchParams.get('key') ?? '';
    expect(na.redeem(key)).toEqual({ esid: 'ES0000000001', naId: 'demo-na-card', param1: 'p1', param2: '' });
    expect(na.redeem(key)).toBeUndefined();

    const late = new URL(await na.directLoginUrl({ esid: 'ES0000000001', naId: 'demo-na-card', param1: '', param2: '' }));
    clock.advance(LIMITS.directLoginTokenTtlMs);
    expect(na.redeem(late.searchParams.get('key') ?? '')).toBeUndefined();
    expect(na.redeem('made-up')).toBeUndefined();
  });
});
