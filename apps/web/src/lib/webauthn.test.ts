import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';

const startAuthentication = vi.fn<(o: { optionsJSON: unknown; useBrowserAutofill?: boolean }) => Promise<unknown>>();
const startRegistration = vi.fn<(o: { optionsJSON: unknown }) => Promise<unknown>>();
const cancelCeremony = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: (o: { optionsJSON: unknown; useBrowserAutofill?: boolean }) => startAuthentication(o),
  startRegistration: (o: { optionsJSON: unknown }) => startRegistration(o),
  browserSupportsWebAuthnAutofill: async () => true,
  WebAuthnAbortService: { cancelCeremony: () => cancelCeremony() },
}));

const { authenticate, autofillSupported, cancelCeremony: cancel, CeremonyFailed, ceremonyMessage, register, webauthnSupported } = await import('./webauthn.ts');

/** An error of the browser's ceremony, by its DOMException name (WebAuthn section 5.1.3, 5.1.4). */
const browserError = (name: string) => Object.assign(new Error(name), { name });
const OPTIONS = { challenge: 'c', allowCredentials: [] };

describe('the WebAuthn ceremonies (decision 0024)', () => {
  beforeEach(() => {
    startAuthentication.mockReset();
    startRegistration.mockReset();
    cancelCeremony.mockReset();
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('knows WebAuthn by PublicKeyCredential, and offers no autofill without it', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(webauthnSupported()).toBe(false);
    expect(await autofillSupported()).toBe(false);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    expect(webauthnSupported()).toBe(true);
    expect(await autofillSupported()).toBe(true);
  });

  it('passes the server\'s options as given, the autofill ceremony as conditional', async () => {
    startAuthentication.mockResolvedValue({ id: 'cred' });
    expect(await authenticate(OPTIONS)).toEqual({ id: 'cred' });
    await authenticate(OPTIONS, true);
    expect(startAuthentication.mock.calls.map((c) => c[0])).toEqual([
      { optionsJSON: OPTIONS, useBrowserAutofill: false },
      { optionsJSON: OPTIONS, useBrowserAutofill: true },
    ]);
  });

  it('turns what the browser throws into CeremonyFailed: a cancel or an abort is cancelled, an authenticator that already holds the passkey is not', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    for (const name of ['NotAllowedError', 'AbortError']) {
      startAuthentication.mockRejectedValueOnce(browserError(name));
      const e = await authenticate(OPTIONS).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CeremonyFailed);
      expect(e).toMatchObject({ name, cancelled: true });
      expect(ceremonyMessage(e as InstanceType<typeof CeremonyFailed>)).toBe(PASSKEY_MESSAGES.cancelled);
    }
    startRegistration.mockRejectedValueOnce(browserError('InvalidStateError'));
    const registered = (await register(OPTIONS).catch((x: unknown) => x)) as InstanceType<typeof CeremonyFailed>;
    expect(registered).toMatchObject({ name: 'InvalidStateError', cancelled: false });
    expect(ceremonyMessage(registered)).toBe(PASSKEY_MESSAGES.alreadyRegistered);
    // A TypeError of the ceremony (bad options) is no network failure: it stays a ceremony's.
    startAuthentication.mockRejectedValueOnce(new TypeError('bad challenge'));
    expect(await authenticate(OPTIONS).catch((x: unknown) => x)).toBeInstanceOf(CeremonyFailed);
  });

  it('says the browser cannot do passkeys when it has no WebAuthn', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(ceremonyMessage(new CeremonyFailed(new Error('WebAuthn is not supported in this browser')))).toBe(PASSKEY_MESSAGES.unsupported);
  });

  it('cancels a waiting ceremony through the library once it is loaded', () => {
    cancel();
    expect(cancelCeremony).toHaveBeenCalledTimes(1);
  });
});
