import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { saveTokens } = await import('../../lib/records.ts');
const { fetchTop } = await import('./top-api.ts');

saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'acc-1', refreshToken: 'ref-1' });

/** A server that never answers: each request ends only when its signal aborts, as fetch does. */
function silentServer() {
  const aborted: string[] = [];
  vi.stubGlobal('fetch', vi.fn((url: string, init: RequestInit) =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        aborted.push(url);
        reject(init.signal?.reason);
      });
    }),
  ));
  return aborted;
}

/** The Top page's 5 s timer, fired by the test instead of the clock. */
function controlledTimeout() {
  const timer = new AbortController();
  const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(timer.signal);
  return { timeout, fire: () => timer.abort(new DOMException('The operation timed out.', 'TimeoutError')) };
}

describe('Top page data (SPEC.md sections 2 and 9)', () => {
  afterEach(() => void vi.restoreAllMocks());

  it("aborts Top's one request after 5 s and reports a network failure", async () => {
    const aborted = silentServer();
    const { timeout, fire } = controlledTimeout();
    const loading = fetchTop(new AbortController().signal);
    expect(timeout).toHaveBeenCalledWith(5000);
    fire();
    await expect(loading).rejects.toMatchObject({ result: { result_code: 99999, result_message: CLIENT_MESSAGES['C99-000700'] } });
    expect(aborted).toEqual(['http://sso.test/api/user/top']);
  });

  it('does not report a network failure when the page itself cancels the load', async () => {
    silentServer();
    controlledTimeout();
    const page = new AbortController();
    const loading = fetchTop(page.signal);
    page.abort();
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
  });
});
