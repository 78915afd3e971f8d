import { describe, expect, it, vi } from 'vitest';
import { cardActivateRequestSchema, cardAddRequestSchema, cardEnableRequestSchema, subuserDeleteRequestSchema } from '@sso/contracts/cards';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { saveTokens } = await import('../../lib/records.ts');
const { activateCard, addCardByNumber, addWaitingCard, enableCard, removeCards } = await import('./cards-api.ts');

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const RESULT = { result_code: 0, result_message: 'ok', subuser_id: 's1', esid: 'ES1', status: 'active', member_div_code: '01', card_name: 'c', card_image_url: '/content/cards/x.svg' };

saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'acc-1', refreshToken: 'ref-1' });

describe('card calls', () => {
  it('send bodies the contracts accept, with the Bearer token', async () => {
    const fetchMock = vi.fn(async () => json(RESULT));
    vi.stubGlobal('fetch', fetchMock);
    await addCardByNumber({ cardnumber: '0300000000000204', cc_month: '12', cc_year: '2030', cvc: '' });
    await addWaitingCard('ES0000000102');
    await enableCard('ES0000000103');
    await activateCard('s1', '123456');
    await removeCards(['s1', 's2']);
    const sent = fetchMock.mock.calls.map((c) => {
      const [url, init] = c as unknown as [string, RequestInit];
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer acc-1');
      return [new URL(url).pathname, JSON.parse(String(init.body)) as unknown] as const;
    });
    expect(sent.map(([path]) => path)).toEqual([
      '/api/subuser/card/add',
      '/api/subuser/card/add',
      '/api/subuser/card/enable',
      '/api/subuser/card/activate',
      '/api/subuser/delete',
    ]);
    const schemas = [cardAddRequestSchema, cardAddRequestSchema, cardEnableRequestSchema, cardActivateRequestSchema, subuserDeleteRequestSchema];
    sent.forEach(([path, body], i) => expect(schemas[i]!.safeParse(body).success, path).toBe(true));
    expect(sent[0]![1]).toEqual({ cardnumber: '0300000000000204', cc_month: '12', cc_year: '2030', cvc: '' });
  });
});
