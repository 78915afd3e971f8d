import { describe, expect, it } from 'vitest';
import { loginResponseSchema } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { DEMO } from '../../seed.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';

const login = (t: TestApp, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { recaptcha_token: 'dev', client_id: 'SIAP009', ...body } });

describe.each(DIALECTS)('POST /api/auth/login (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('accepts the e-mail or the mobile number with the password and lists no outstanding terms', async () => {
    for (const id of ['demo.card@example.com', 'DEMO.CARD@example.com', '09000000001', '０９００００００００２']) {
      const res = await login(t, { id, password: 'Demo1234' });
      expect(res.statusCode, id).toBe(200);
      expect(loginResponseSchema.parse(res.json())).toEqual({ result_code: 0, result_message: '正常に処理しました。', terms: [], login_ticket: expect.any(String) });
    }
  });

  it('answers a wrong password and an unknown id identically, naming neither', async () => {
    const wrong = await login(t, { id: 'demo.open@example.com', password: 'Wrong1234' });
    const unknown = await login(t, { id: 'nobody@example.com', password: 'Wrong1234' });
    expect(wrong.json()).toEqual({ result_code: 200, result_message: 'IDまたはパスワードが正しくありません。' });
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.statusCode).toBe(wrong.statusCode);
  });

  it('answers 901 with the keys of the missing fields', async () => {
    const res = await login(t, { id: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result_code: 901,
      result_message: '入力内容をご確認ください。',
      validation_errors: [
        { key: 'id', message: '入力してください' },
        { key: 'password', message: '入力してください' },
      ],
    });
  });

  it('answers 901 for an unknown client, malformed JSON and a wrong content type, never 500', async () => {
    expect((await login(t, { id: 'a@b.jp', password: 'x', client_id: 'EVIL' })).json().validation_errors).toEqual([
      { key: 'client_id', message: '入力内容をご確認ください。' },
    ]);
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result_code).toBe(901);
    const xml = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().result_code).toBe(901);
  });

  it('answers 205 for an invalid reCAPTCHA token', async () => {
    const res = await login(t, { id: 'demo.card@example.com', password: 'Demo1234', recaptcha_token: 'fail-token' });
    expect(res.json().result_code).toBe(205);
  });

  it('lists the terms a partner client still needs the member to accept', async () => {
    const res = await login(t, { id: 'demo.card@example.com', password: 'Demo1234', client_id: 'SIAP002' });
    expect(res.json().terms).toEqual(['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount']);
  });

  it('locks an id for 15 minutes after 10 consecutive failures, even for the right password', async () => {
    const id = 'demo.open@example.com';
    await login(t, { id, password: 'Demo1234' }); // clears earlier failures
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await login(t, { id, password: `Wrong${i}` })).json().result_code);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 203]);
    const locked = await login(t, { id, password: 'Demo1234' });
    // An id's own lock: a password reset lifts it, and the answer says nothing more.
    expect(locked.json()).toEqual({ result_code: 203, result_message: SERVER_MESSAGES.locked });
    t.clock.advance(15 * 60 * 1000 - 1);
    expect((await login(t, { id, password: 'Demo1234' })).json().result_code).toBe(203);
    t.clock.advance(2);
    expect((await login(t, { id, password: 'Demo1234' })).json().result_code).toBe(0);
  });

  it('logs the lock once, when it is set, and nothing for the attempts refused while locked', async () => {
    const id = 'demo.card@example.com';
    const events = async () =>
      (await t.testDb.db.kysely.selectFrom('activity_log').select('event').where('user_id', '=', DEMO.card.id).where('event', 'like', 'login_%').execute()).map(
        (r) => r.event,
      );
    await login(t, { id, password: 'Demo1234' }); // clears earlier failures
    const before = (await events()).length;
    for (let i = 0; i < 10; i++) await login(t, { id, password: `Wrong${i}` });
    for (let i = 0; i < 5; i++) expect((await login(t, { id, password: i ? `Wrong${i}` : 'Demo1234' })).json().result_code).toBe(203);
    const logged = (await events()).slice(before);
    expect(logged.filter((e) => e === 'login_failed')).toHaveLength(10);
    expect(logged.filter((e) => e === 'login_locked')).toHaveLength(1);
    expect(logged).toHaveLength(11);
  });

  it('counts parallel guesses atomically: only the first 10 reach the password check', async () => {
    const id = '09000000002';
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(t, { id, password: `Parallel${i}` }).then((r) => r.json().result_code)),
    );
    expect(results.filter((c) => c === 200)).toHaveLength(9);
    expect(results.filter((c) => c === 203)).toHaveLength(21);
    expect((await login(t, { id, password: 'Demo1234' })).json().result_code).toBe(203);
  });

  it('locks unknown ids the same way, so that locking does not reveal members', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login(t, { id: 'ghost@example.com', password: `Wrong${i}` })).json().result_code);
    expect(codes.slice(0, 9).every((c) => c === 200)).toBe(true);
    expect(codes.slice(9)).toEqual([203, 203]);
  });
});

describe.each(DIALECTS)('failed logins per network address (%s; decision 0007)', (dialect) => {
  const t = withTestApp(dialect, { LOGIN_ADDRESS_FAILURES: '5' });
  const from = (address: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: address, payload: { recaptcha_token: 'dev', client_id: 'SIAP009', ...body } });

  it('refuses an address after its failures across many ids, even with a right password, while other addresses log in', async () => {
    // Password spraying: one wrong password each for five different ids, none of them locked by itself.
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.7', { id: `spray${i}@example.com`, password: 'Spring2026' })).json().result_code).toBe(200);
    const member = await from('203.0.113.7', { id: DEMO.card.email, password: DEMO.card.password });
    const unknown = await from('203.0.113.7', { id: 'nobody@example.com', password: DEMO.card.password });
    // The lock's 203, word for word, saying it is the address's (the login page then offers no reset,
    // which would not lift it): the same for a member's id and an unknown one.
    expect(member.json()).toEqual({ result_code: 203, result_message: SERVER_MESSAGES.locked, lock: 'address' });
    expect(unknown.body).toBe(member.body);
    expect((await from('198.51.100.20', { id: DEMO.card.email, password: DEMO.card.password })).json().result_code).toBe(0);
  });

  it('lets exactly the limit of 20 parallel guesses from one address reach the password check', async () => {
    const codes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await from('203.0.113.99', { id: `parallel${i}@example.com`, password: 'Wrong1234' })).json().result_code as number),
    );
    // Each guess is counted in one atomic upsert before its hash: exactly the limit reach the check.
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 203)).toHaveLength(15);
    expect((await from('203.0.113.99', { id: DEMO.card.email, password: DEMO.card.password })).json().result_code).toBe(203);
  });
});
