import { describe, expect, it } from 'vitest';
import { directLoginTermsAcceptResponseSchema } from '@sso/contracts/direct-login';
import { TERM_VERSIONS } from '@sso/contracts/terms';
import { loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { acceptClientTermsAs, OK, PARTNER_SECRET, PARTNER_TERMS, post, redeem, SERVICE_UNAVAILABLE, TERMS_REQUIRED } from '../../test-support/direct-login-kit.ts';

describe.each(DIALECTS)('a service reached by direct login has its terms accepted first (decision 0013, %s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const webAccess = async () => (await loginTokens(t.app)).access_token;
  const sc = (access: string | undefined, client_id: string) =>
    post(t, '/api/subuser/direct_login/sc', access, { subuser_id: 'demo-card-subuser-1', member_type: 'na', client_id });
  const accept = (access: string | undefined, payload: unknown) => post(t, '/api/subuser/direct_login/terms_accept', access, payload);
  const issued = async () => (await db().selectFrom('direct_logins').select('id').execute()).length;

  it('refuses the hand-off to a service whose terms are outstanding, naming them, and issues nothing', async () => {
    const access = await webAccess();
    expect((await sc(access, 'SIAP002')).json()).toEqual(TERMS_REQUIRED(PARTNER_TERMS.SIAP002!));
    expect((await sc(access, 'SIAP004')).json()).toEqual(TERMS_REQUIRED(['ServiceOnNetAnswer']));
    // Net Answer's own one-time URL is a hand-off too.
    expect((await post(t, '/api/subuser/direct_login/na', access, { subuser_id: 'demo-card-subuser-1' })).json()).toEqual(TERMS_REQUIRED(['ServiceOnNetAnswer']));
    expect(await issued()).toBe(0);
    const handedOff = await db().selectFrom('activity_log').select('id').where('event', '=', 'direct_login_issued').execute();
    expect(handedOff).toEqual([]);
  });

  it('records the accepted terms (current versions), logs it, answers what is still outstanding, and the hand-off goes on', async () => {
    const access = await webAccess();
    const partly = await accept(access, { client_id: 'SIAP002', terms: ['ServiceOnLineAccount', 'ServiceOnLineAccount'] });
    expect(partly.statusCode, partly.body).toBe(200);
    expect(directLoginTermsAcceptResponseSchema.parse(partly.json())).toEqual({ ...OK, terms: ['ImportantMattersOnLineAccount', 'PersonalInfoOnLineAccount'] });
    expect((await sc(access, 'SIAP002')).json()).toEqual(TERMS_REQUIRED(['ImportantMattersOnLineAccount', 'PersonalInfoOnLineAccount']));
    await acceptClientTermsAs(t, access, 'SIAP002');
    const rows = await db().selectFrom('term_acceptances').select(['term_key', 'version']).where('user_id', '=', 'demo-card-member').where('term_key', 'like', '%LineAccount').orderBy('term_key').execute();
    expect(rows).toEqual(PARTNER_TERMS.SIAP002!.slice(0).sort().map((k) => ({ term_key: k, version: TERM_VERSIONS[k as keyof typeof TERM_VERSIONS] })));
    const log = await db().selectFrom('activity_log').select('client_id').where('user_id', '=', 'demo-card-member').where('event', '=', 'terms_accepted').execute();
    expect(log).toEqual([{ client_id: 'SIAP002' }, { client_id: 'SIAP002' }]);

    const handOff = await sc(access, 'SIAP002');
    expect(handOff.statusCode, handOff.body).toBe(200);
    expect((await redeem(t, handOff.json().onetime_token, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002'))).statusCode).toBe(200);
    // Terms accepted once count for the code flow too: the authorize step asks nothing more (credentials-service.ts outstandingTerms).
    expect((await post(t, '/api/auth/login', undefined, { id: 'demo.card@example.com', password: 'Demo1234', recaptcha_token: 'dev-token', client_id: 'SIAP002' })).json().terms).toEqual([]);
  });

  it('refuses a key that is not the service terms, an unknown service, malformed bodies, and a caller without a Bearer', async () => {
    const access = await webAccess();
    for (const [client_id, terms] of [
      ['SIAP002', ['ServiceOnNetAnswer']],
      ['SIAP004', ['ServiceOnNetAnswer', 'NoSuchTerm']],
      ['SIAP004', ['ServiceOnNetAnswer', 'ServiceOnLineAccount']],
      ['SIAP004', []],
      ['SIAP004', ['x'.repeat(65)]],
    ] as const) {
      const res = await accept(access, { client_id, terms });
      expect(res.json(), JSON.stringify(terms)).toMatchObject({ result_code: 901, validation_errors: [{ key: 'terms' }] });
    }
    expect((await accept(access, { client_id: 'NOPE', terms: ['ServiceOnNetAnswer'] })).json()).toEqual(SERVICE_UNAVAILABLE);
    expect((await accept(access, { terms: ['ServiceOnNetAnswer'] })).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'client_id' }] });
    expect((await accept(access, { client_id: 'SIAP004', terms: 'ServiceOnNetAnswer' })).json().result_code).toBe(901);
    const none = await accept(undefined, { client_id: 'SIAP004', terms: ['ServiceOnNetAnswer'] });
    expect(none.statusCode).toBe(401);
    expect(none.json().result_code).toBe(300);
    const accepted = await db().selectFrom('term_acceptances').select('term_key').where('user_id', '=', 'demo-card-member').where('term_key', '=', 'ServiceOnNetAnswer').execute();
    expect(accepted).toEqual([]);
  });
});
