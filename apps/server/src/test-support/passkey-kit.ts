import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { call, loggedInMember, UA } from './account-change-kit.ts';
import { SoftAuthenticator, type CeremonyKnobs } from './soft-authenticator.ts';
import { TEST_ORIGIN, type TestApp } from './test-app.ts';

/** A platform authenticator of the test origin (soft-authenticator.ts). */
export const newAuthenticator = (kind?: { synced: boolean; counting: boolean }) => new SoftAuthenticator(TEST_ORIGIN, undefined, kind);

/** Adds a passkey for the session of `access` (fresh proof assumed): the options, the authenticator's answer, the registration. */
export async function addPasskey(t: TestApp, access: string, authenticator: SoftAuthenticator, name = 'テストのパスキー', knobs: CeremonyKnobs = {}) {
  const options = (await call(t, '/api/auth/passkey/register/options', access)).json().options as Record<string, unknown>;
  return call(t, '/api/auth/passkey/register', access, { name, credential: authenticator.register(options, knobs) });
}

/** A member with a passkey on a software authenticator (synced by default). */
export async function memberWithPasskey(t: TestApp, kind?: { synced: boolean; counting: boolean }) {
  const member = await loggedInMember(t);
  const authenticator = newAuthenticator(kind);
  const added = await addPasskey(t, member.access_token, authenticator);
  expect(added.json().result_code, added.body).toBe(0);
  return { member, authenticator };
}

/** A browser of the login page: its passkey cookie travels with it, as the real one's does. */
export class LoginBrowser {
  cookie = '';

  async post(t: TestApp, url: string, payload: unknown): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method: 'POST', url, headers: { 'user-agent': UA, ...(this.cookie ? { cookie: this.cookie } : {}) }, payload: payload as object });
    const set = res.headers['set-cookie'];
    const first = Array.isArray(set) ? set[0] : set;
    if (first) this.cookie = first.split(';')[0]!;
    return res;
  }

  /** The login page's challenge for a client. */
  async options(t: TestApp, clientId = 'SIAP009'): Promise<Record<string, unknown>> {
    return (await this.post(t, '/api/auth/passkey/login/options', { client_id: clientId })).json().options as Record<string, unknown>;
  }

  /** The sign-in: the challenge, the authenticator's assertion, the answer. */
  async signIn(t: TestApp, authenticator: SoftAuthenticator, clientId = 'SIAP009', knobs: CeremonyKnobs = {}) {
    const options = await this.options(t, clientId);
    return this.post(t, '/api/auth/passkey/login', { client_id: clientId, credential: authenticator.authenticate(options, knobs) });
  }
}
