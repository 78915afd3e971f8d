import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Subuser } from '@sso/contracts/cards';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { clearTokens, saveTokens } = await import('../../lib/records.ts');
const { refreshCardsAfterChange } = await import('./card-refresh.ts');
const { CARDS_KEY } = await import('../../lib/cards-query.ts');

const card = (status: Subuser['status']): Subuser => ({
  subuser_id: 's1',
  esid: 'ES1',
  status,
  member_div_code: '01',
  card_name: 'カード',
  card_image_url: '/content/cards/visa-gold.svg',
  card_brand: 'VISA',
  card_number_mask: '4541-****-****-0001',
  member_type: 'na',
  point_capable: true,
  na_linked: false,
});

describe('card list refresh after a change (SPEC.md section 4: 3 s after a change)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'a', refreshToken: 'r' });
  });
  afterEach(() => vi.useRealTimers());

  it('marks the card lists stale at once, and re-reads the cards from the card master 3 s later', async () => {
    const client = new QueryClient();
    client.setQueryData(CARDS_KEY, [card('unactivated')]);
    client.setQueryData([...CARDS_KEY, 'waiting'], []);
    const reread = vi.fn(async () => [card('active')]);
    refreshCardsAfterChange(client, reread);
    expect(client.getQueryState(CARDS_KEY)?.isInvalidated).toBe(true);
    expect(client.getQueryState([...CARDS_KEY, 'waiting'])?.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(2999);
    expect(reread).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reread).toHaveBeenCalledOnce();
    expect(client.getQueryData<Subuser[]>(CARDS_KEY)?.[0]?.status).toBe('active');
  });

  it('does not call the server once the member has logged out, nor fail on a failed re-read', async () => {
    const client = new QueryClient();
    const reread = vi.fn(async () => {
      throw new Error('network');
    });
    refreshCardsAfterChange(client, reread);
    await vi.advanceTimersByTimeAsync(3000);
    expect(reread).toHaveBeenCalledOnce();
    clearTokens();
    refreshCardsAfterChange(client, reread);
    await vi.advanceTimersByTimeAsync(3000);
    expect(reread).toHaveBeenCalledOnce();
  });
});
