import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { PARTNER_TERMS } from '../../test-support/direct-login-kit.ts';
import { partnerRedirect } from '../../test-support/oauth-client.ts';
import { addCard } from '../../test-support/points-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, loginPageOf, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';

// SPEC.md sections 4 and 6, decision 0015: the line answer (SIAP002) is for cardholders only, and a
// member refused it is told so before any of its terms, at the SSO session's door (decision 0026)
// exactly as at the password login's: the SPA's page that says so, no terms screen, nothing recorded.
const LINE = { clientId: 'SIAP002', redirectUri: partnerRedirect(TEST_ORIGIN, 'SIAP002') };
const LINE_TERMS = PARTNER_TERMS.SIAP002!;
const REFUSAL_PAGE = `${TEST_ORIGIN}/content/problem/cardholders`;

describe.each(DIALECTS)('the SSO session and a cardholders-only service (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const lineQuery = (extra: Record<string, string> = {}) => requestQuery(LINE, extra);
  const accepted = async (userId: string) =>
    (await db().selectFrom('term_acceptances').select('term_key').where('user_id', '=', userId).execute()).map((r) => r.term_key).filter((k) => LINE_TERMS.includes(k));
  const codes = async (userId: string) => (await db().selectFrom('auth_codes').select('client_id').where('user_id', '=', userId).where('client_id', '=', LINE.clientId).execute()).length;

  /** An open member (no card) signed in to the ID in a browser: a live SSO session. */
  async function openMemberWithSession(t: TestApp) {
    const member = await newMember(t);
    const browser = new TestBrowser();
    await webTokens(t, codeOf(await browser.login(t, member)));
    return { member, browser };
  }

  it('the partner\'s link (GET authorize) sends the open member to the refusal page, not to the terms screen', async () => {
    const { member, browser } = await openMemberWithSession(t);
    const res = await browser.authorize(t, lineQuery());
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(REFUSAL_PAGE);
    expect(await codes(member.id)).toBe(0);
    expect(await accepted(member.id)).toEqual([]);
  });

  it('the SPA\'s check answers the refusal page (which the SPA follows) instead of the terms to accept', async () => {
    const { member, browser } = await openMemberWithSession(t);
    const res = await browser.check(t, lineQuery());
    expect(res.json()).toMatchObject({ result_code: 0, redirect_to: REFUSAL_PAGE });
    expect(res.json().session).toBeUndefined();
    expect(res.json().terms).toBeUndefined();
    expect(await accepted(member.id)).toEqual([]);
  });

  it('the session\'s form posted with the terms anyway (skipping the check) is refused before the terms: no acceptance row, no code', async () => {
    const { member, browser } = await openMemberWithSession(t);
    const res = await browser.continueSession(t, lineQuery(), LINE_TERMS);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(REFUSAL_PAGE);
    expect(await accepted(member.id)).toEqual([]);
    expect(await codes(member.id)).toBe(0);
  });

  it('prompt=none: access_denied to the partner, before consent_required, at the link and at the check', async () => {
    const { member, browser } = await openMemberWithSession(t);
    const res = await browser.authorize(t, lineQuery({ prompt: 'none' }));
    expect(new URL(String(res.headers.location)).searchParams.get('error')).toBe('access_denied');
    const check = await browser.check(t, lineQuery({ prompt: 'none' }));
    expect(new URL(check.json().redirect_to as string).searchParams.get('error')).toBe('access_denied');
    expect(await accepted(member.id)).toEqual([]);
  });

  it('the same refusal as the password login for that client, whichever comes first', async () => {
    // Password first, then the session's door.
    const { member, browser } = await openMemberWithSession(t);
    const byPassword = await new TestBrowser().login(t, member, lineQuery());
    expect(byPassword.headers.location).toBe(REFUSAL_PAGE);
    expect((await browser.authorize(t, lineQuery())).headers.location).toBe(REFUSAL_PAGE);
    // The session's door first, then the password (which, in the same browser, renews the session).
    const other = await openMemberWithSession(t);
    expect((await other.browser.authorize(t, lineQuery())).headers.location).toBe(REFUSAL_PAGE);
    expect((await other.browser.login(t, other.member, lineQuery())).headers.location).toBe(REFUSAL_PAGE);
    expect(await accepted(member.id)).toEqual([]);
    expect(await accepted(other.member.id)).toEqual([]);
  });

  it('a cardholder still gets the terms, agrees to them, and gets the code; so does the open member once a card is added', async () => {
    const { member, browser } = await openMemberWithSession(t);
    await addCard(t, member.id);
    expect((await browser.authorize(t, lineQuery())).headers.location).toBe(loginPageOf(lineQuery()));
    expect((await browser.check(t, lineQuery())).json()).toMatchObject({ session: true, terms: LINE_TERMS });
    const res = await browser.continueSession(t, lineQuery(), LINE_TERMS);
    expect(codeOf(res)).toBeTruthy();
    expect((await accepted(member.id)).sort()).toEqual([...LINE_TERMS].sort());
  });
});
