import { beforeEach, describe, expect, it, vi } from 'vitest';
import { japanDate, openActivateRequestSchema, openSignupRequestSchema } from '@sso/contracts/open-signup';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';
import { VALID_OPEN_SIGNUP } from '../../lib/test-member-forms.ts';

const store = stubBrowserGlobals();
const { activateOpenSignup, postOpenSignup } = await import('./open-signup-api.ts');
const { openSignupFormSchema } = await import('./open-signup-form.ts');

const sent = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map((c) => ({ url: c[0] as string, body: JSON.parse((c[1] as RequestInit).body as string) as Record<string, unknown> }));

const today = japanDate(Date.now());
/** What the input mode hands over: the form's values through its schema, as react-hook-form does. */
const formValues = openSignupFormSchema(today).parse({ ...VALID_OPEN_SIGNUP, email: ' taro@example.com ', email_flg: true });

describe('open sign-up calls', () => {
  beforeEach(() => store.clear());

  it('sends the dry run and the register as the contract accepts them, with the service it started from', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', email: 'taro@example.com', links: [] }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(postOpenSignup(formValues, 1, 'SIAP009')).resolves.toMatchObject({ email: 'taro@example.com', links: [] });
    await postOpenSignup(formValues, 0, 'SIAP002');
    const [dryRun, real] = sent(fetchMock);
    expect(dryRun!.url).toBe('http://sso.test/api/signup/open');
    expect(dryRun!.body).toEqual({ ...formValues, email: 'taro@example.com', dry_run: 1, client_id: 'SIAP009' });
    expect(real!.body).toMatchObject({ dry_run: 0, client_id: 'SIAP002' });
    for (const body of [dryRun!.body, real!.body]) expect(openSignupRequestSchema(today).safeParse(body).success).toBe(true);
  });

  it('sends the activation token alone, as the contract has it, and answers the links', async () => {
    const fetchMock = vi.fn(async () =>
      json(200, { result_code: 0, result_message: 'ok', email: 'taro@example.com', links: [{ name: 'Net Answer', client_id: 'SIAP004' }] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(activateOpenSignup('tok-123')).resolves.toMatchObject({ links: [{ name: 'Net Answer', client_id: 'SIAP004' }] });
    const [call] = sent(fetchMock);
    expect(call!.url).toBe('http://sso.test/api/signup/open/otp');
    expect(call!.body).toEqual({ onetime_token: 'tok-123' });
    expect(openActivateRequestSchema.safeParse(call!.body).success).toBe(true);
  });

  it('fills in no links when an answer leaves them out', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', email: 'taro@example.com' })));
    await expect(activateOpenSignup('tok')).resolves.toMatchObject({ links: [] });
  });
});
