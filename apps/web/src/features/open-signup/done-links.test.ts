import { describe, expect, it } from 'vitest';
import { cardholdersOnlyServices, doneChoice } from './done-links.ts';

describe('what the open sign-up finish page offers', () => {
  it('no service: log in', () => {
    expect(doneChoice([])).toEqual({ kind: 'login' });
  });

  it('one service: a way back to it through the direct-login hand-off', () => {
    expect(doneChoice([{ name: 'Net Answer', client_id: 'SIAP004' }])).toEqual({
      kind: 'one',
      link: { label: 'Net Answerに戻る', to: '/subuser/redirect/service?client_id=SIAP004&service_name=Net+Answer', clientId: 'SIAP004' },
    });
  });

  it('several services: the list, in the order given, each name encoded in the query', () => {
    const choice = doneChoice([
      { name: 'ポータルアプリ', client_id: 'SIAP005' },
      { name: 'A&B=C', client_id: 'SIAP004' },
    ]);
    expect(choice.kind).toBe('list');
    const links = choice.kind === 'list' ? choice.links : [];
    expect(links.map((l) => l.label)).toEqual(['ポータルアプリに戻る', 'A&B=Cに戻る']);
    const queries = links.map((l) => Object.fromEntries(new URL(l.to, 'http://sso.test').searchParams));
    expect(queries).toEqual([
      { client_id: 'SIAP005', service_name: 'ポータルアプリ' },
      { client_id: 'SIAP004', service_name: 'A&B=C' },
    ]);
    expect(links.every((l) => l.to.startsWith('/subuser/redirect/service?'))).toBe(true);
  });

  it('never offers the line answer to a new open member (cardholders only, SPEC.md section 6): it is named for the notice instead', () => {
    const line = { name: 'LINE公式アカウントサービス', client_id: 'SIAP002' };
    const portal = { name: 'ポータルアプリ', client_id: 'SIAP005' };
    expect(doneChoice([line])).toEqual({ kind: 'login' });
    expect(doneChoice([line, portal])).toMatchObject({ kind: 'one', link: { clientId: 'SIAP005' } });
    expect(cardholdersOnlyServices([line, portal])).toEqual([line]);
    expect(cardholdersOnlyServices([portal])).toEqual([]);
  });
});
