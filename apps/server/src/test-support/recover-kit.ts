import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';
import { waitForMails } from './mailbox.ts';
import { newId } from '../lib/secrets.ts';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { insertMember } from '../modules/account/member-repo.ts';
import { recordTermAcceptance } from '../modules/account/user-repo.ts';
import { hashPassword } from '../lib/passwords.ts';

export const RESET_PATH = '/content/recover/password';
export const OK = { result_code: 0, result_message: '正常に処理しました。' };

let serial = 0;

/** A fresh open member with its own e-mail and mobile number, so that resets, locks and limits never mix. */
export async function newMember(t: TestApp, password = 'Before-pass1') {
  const n = ++serial;
  const member = { id: newId(), email: `recover.${n}@example.com`, tel: `070${String(10_000_000 + n).slice(-8)}`, password };
  await insertMember(
    t.testDb.db.kysely,
    {
      id: member.id,
      email: member.email,
      tel: member.tel,
      password_hash: await hashPassword(password),
      member_type: 'open',
      last_name: '佐藤',
      first_name: '花子',
      last_name_kana: 'サトウ',
      first_name_kana: 'ハナコ',
      sex: '2',
      birthday: '19900101',
      postal_code: '1700013',
      // A member from before migration 0013: the profile's phone is also the login mobile number.
      profile_tel: member.tel,
      email_flg: 0,
    },
    t.clock.now(),
  );
  // The web client's terms are accepted, as at sign-up, so that the member can log in to it.
  for (const key of ['ServiceOnMemberId', 'PersonalInfoOnMemberId'].filter(isTermKey)) {
    await recordTermAcceptance(t.testDb.db.kysely, member.id, key, TERM_VERSIONS[key], t.clock.now());
  }
  return member;
}

export const forgot = (t: TestApp, email: string) => t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } });

export const reset = (t: TestApp, onetime_token: string, password: string, password_check = password) =>
  t.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { onetime_token, password, password_check } });

/** The reset token of the newest mail once `nth` mails have reached the address. */
export async function resetToken(t: TestApp, email: string, nth = 1): Promise<string> {
  const [mail] = await waitForMails(t.app, email, nth);
  const token = new RegExp(`http://sso\\.test${RESET_PATH.replaceAll('/', '\\/')}\\?onetime_token=([A-Za-z0-9_-]{43})\\b`).exec(mail!.text)?.[1];
  if (!token) throw new Error(`no reset link in the mail to ${email}: ${mail!.text}`);
  return token;
}

/** forgot for the address, expecting the answer every address gets, then the link from the `nth` mail. */
export async function forgotForToken(t: TestApp, email: string, nth = 1): Promise<string> {
  const res = await forgot(t, email);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual(OK);
  return resetToken(t, email, nth);
}
