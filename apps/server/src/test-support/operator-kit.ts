import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { OperatorRole } from '@sso/contracts/operators';
import { bootstrapAdmin } from '../modules/operators/enrolment-service.ts';
import { UA } from './account-change-kit.ts';
import { newAuthenticator } from './passkey-kit.ts';
import type { SoftAuthenticator } from './soft-authenticator.ts';
import { bearer, TEST_ORIGIN, type TestApp } from './test-app.ts';

/** The operators' kit (modules/operators, decision 0032): the bootstrap, enrolment, sign-in and calls of the operator API. */

/** POST to the operator API, with an operator token (or a member's, or none). */
export const adminCall = (t: TestApp, url: string, token: string | undefined, payload: unknown = {}): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: 'POST', url, headers: { 'user-agent': UA, ...(token ? bearer(token) : {}) }, payload: payload as object });

/** The token of an enrolment link `${PUBLIC_ORIGIN}/admin/enrol#token=…`. */
export function enrolmentToken(url: string): string {
  const match = new RegExp(`^${TEST_ORIGIN.replace(/[.]/g, '\\.')}/admin/enrol#token=([A-Za-z0-9_-]{43})$`).exec(url);
  if (!match) throw new Error(`not an enrolment link: ${url}`);
  return match[1]!;
}

/** The bootstrap command's service, on the test app's database and clock: the enrolment link's token. */
export async function bootstrap(t: TestApp, email = 'admin@card.example.jp', name = '管理者 一郎'): Promise<string> {
  const { link } = await bootstrapAdmin({ db: t.testDb.db.kysely, clock: t.clock, issuer: TEST_ORIGIN }, { email, name });
  return enrolmentToken(link.url);
}

/** Enrols a passkey of `authenticator` by an enrolment link's token: the options' answer and the enrolment's. */
export async function enrol(t: TestApp, token: string, authenticator: SoftAuthenticator, name = '業務用PC') {
  const options = await adminCall(t, '/api/admin/enrol/options', undefined, { token });
  if (options.statusCode !== 200) return { options, enrolled: undefined };
  const credential = authenticator.register(options.json().options as Record<string, unknown>);
  return { options, enrolled: await adminCall(t, '/api/admin/enrol', undefined, { token, name, credential }) };
}

/** Signs in with the authenticator's newest credential: the answer of POST /api/admin/login. */
export async function signIn(t: TestApp, authenticator: SoftAuthenticator): Promise<LightMyRequestResponse> {
  const options = (await adminCall(t, '/api/admin/login/options', undefined)).json().options as Record<string, unknown>;
  return adminCall(t, '/api/admin/login', undefined, { credential: authenticator.authenticate(options) });
}

/** An operator enrolled by `token` and signed in: their authenticator and operator token. */
export async function enrolledOperator(t: TestApp, token: string) {
  const authenticator = newAuthenticator();
  const { enrolled } = await enrol(t, token, authenticator);
  expect(enrolled?.json(), enrolled?.body).toMatchObject({ result_code: 0 });
  const signedIn = await signIn(t, authenticator);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  return { authenticator, token: signedIn.json().access_token as string };
}

/** A signed-in administrator made by the bootstrap. */
export const signedInAdmin = async (t: TestApp, email?: string) => enrolledOperator(t, await bootstrap(t, email));

/** Invites an operator as `admin` (whose session must hold a fresh proof): the answer. */
export const invite = (t: TestApp, adminToken: string, p: { email: string; role: OperatorRole; display_name?: string }) =>
  adminCall(t, '/api/admin/operators/invite', adminToken, { display_name: 'サポート 花子', ...p });

/** A fresh passkey proof on the session: the step-up's options and the assertion's answer. */
export async function stepUp(t: TestApp, token: string, authenticator: SoftAuthenticator) {
  const options = (await adminCall(t, '/api/admin/reauth/options', token)).json().options as Record<string, unknown>;
  return adminCall(t, '/api/admin/reauth', token, { credential: authenticator.authenticate(options) });
}

let staffSerial = 0;

/**
 * Three operators signed in, one of each role (decision 0032): an administrator made by the
 * bootstrap, who invites a `security` and a `support` operator. Each session holds a fresh proof.
 */
export async function staff(t: TestApp) {
  const n = ++staffSerial;
  const admin = await signedInAdmin(t, `staff.admin.${n}@card.example.jp`);
  const invited = async (role: OperatorRole) => {
    const res = await invite(t, admin.token, { email: `staff.${role}.${n}@card.example.jp`, role });
    expect(res.json(), res.body).toMatchObject({ result_code: 0 });
    return { ...(await enrolledOperator(t, enrolmentToken(res.json().enrolment_url))), id: res.json().operator.id as string };
  };
  const security = await invited('security');
  const support = await invited('support');
  return { admin, security, support };
}
