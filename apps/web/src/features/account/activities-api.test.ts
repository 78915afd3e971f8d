import { describe, expect, it, vi } from 'vitest';
import { activitiesRequestSchema } from '@sso/contracts/account';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { saveTokens } = await import('../../lib/records.ts');
const { fetchActivities } = await import('./activities-api.ts');
const { cancelMembership } = await import('./cancel-api.ts');

const calls = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map((c) => {
    const init = c[1] as RequestInit;
    return { url: c[0] as string, headers: init.headers as Record<string, string>, body: init.body };
  });

saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'acc-1', refreshToken: 'ref-1' });

describe('account calls', () => {
  it('asks for a page of the activity log as the contract accepts it, with the Bearer token', async () => {
    const answer = {
      result_code: 0,
      result_message: 'ok',
      page: 2,
      has_next: false,
      activities: [{ event: 'login', created_at: 1, client_id: 'SIAP009', client_name: 'メンバーID', device: 'Chrome / Windows', address: '203.0.113.7' }],
    };
    const fetchMock = vi.fn(async () => json(200, answer));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchActivities(2)).resolves.toEqual(answer);
    const [call] = calls(fetchMock);
    expect(call!.url).toBe('http://sso.test/api/user/activities');
    expect(call!.headers.Authorization).toBe('Bearer acc-1');
    const body: unknown = JSON.parse(call!.body as string);
    expect(body).toEqual({ page: 2 });
    expect(activitiesRequestSchema.parse(body)).toEqual({ page: 2 });
  });

  it('withdraws with the Bearer token and no body', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await cancelMembership();
    const [call] = calls(fetchMock);
    expect(call!.url).toBe('http://sso.test/api/auth/cancel');
    expect(call!.headers.Authorization).toBe('Bearer acc-1');
    expect(call!.body).toBeUndefined();
  });

  it('gives a refused withdrawal to the screen as a failure with its message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { result_code: 501, result_message: 'メンテナンス中です' })));
    await expect(cancelMembership()).rejects.toMatchObject({ result: { result_code: 501, result_message: 'メンテナンス中です' } });
  });
});
