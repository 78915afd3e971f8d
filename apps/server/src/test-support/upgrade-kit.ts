import { expect } from 'vitest';
import { cardResultResponseSchema } from '@sso/contracts/cards';
import { loginTokens, type TestApp } from './test-app.ts';
import { readMailbox } from './mailbox.ts';
import { call, loggedInMember } from './account-change-kit.ts';

/** The answers the tests expect, word for word (contracts messages.ts and screen-messages.ts). */
export const ANSWER = {
  otpWrong: { result_code: 902, result_message: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。' },
  pinWrong: { result_code: 902, result_message: '暗証番号が正しくありません。もう一度ご入力ください。' },
  /** The member's lock of the numberless card. */
  memberLocked: { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間お手続きいただけません。時間をおいて再度お試しください。' },
  /** The card's locks of the sign-up, which the upgrade shares. */
  cardLocked: { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間ご登録いただけません。時間をおいて再度お試しください。' },
  expired: { result_code: 300, result_message: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。' },
  openOnly: { result_code: 300, result_message: 'このお手続きはオープン会員の方のみご利用いただけます。' },
  /** An open member's add by number (decision 0006): through /api/auth/register instead. */
  upgradeFirst: { result_code: 902, result_message: 'オープン会員の方は、「カードを登録する」からご本人様確認のうえカードをご登録ください。' },
  linked: { result_code: 902, result_message: 'このカードは既に登録されています。' },
  limit: { result_code: 902, result_message: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。' },
} as const;

/** The numberless demo card of config/demo-cards.json (docs/demo.md "Demo cards"): found by its holder's mobile only. */
export const NUMBERLESS = { tel: '09033330301', esid: 'ES0000000301', masked: '090-****-0301' } as const;

/** The fields of /api/auth/register for a demo card (test-support/signup-kit.ts CARDS). */
export const cardFields = (card: { cardnumber: string; cvc: string }, over: Record<string, unknown> = {}) => ({
  cardnumber: card.cardnumber,
  cc_month: '12',
  cc_year: '2030',
  cvc: card.cvc,
  ...over,
});

/** A fresh open member, logged in, holding `points` open points (point_accounts kind 'open'). */
export async function openMemberWithPoints(t: TestApp, points = 1500) {
  const member = await loggedInMember(t);
  await t.testDb.db.kysely.insertInto('point_accounts').values({ user_id: member.id, kind: 'open', points, updated_at: 1_000 }).execute();
  return member;
}

/** The seeded demo card member (demo.card@example.com), logged in. */
export const cardMemberTokens = (t: TestApp) => loginTokens(t.app);

export const pointAccounts = (t: TestApp, userId: string) =>
  t.testDb.db.kysely.selectFrom('point_accounts').selectAll().where('user_id', '=', userId).execute();

/** Frees demo cards that an earlier test of the file registered, so that a test can register them again. */
export const freeCards = (t: TestApp, ...esids: string[]) => t.testDb.db.kysely.deleteFrom('sub_users').where('esid', 'in', esids).execute();

export const subusersOf = (t: TestApp, userId: string) =>
  t.testDb.db.kysely.selectFrom('sub_users').selectAll().where('user_id', '=', userId).execute();

export const memberType = async (t: TestApp, userId: string) =>
  (await t.testDb.db.kysely.selectFrom('users').select('member_type').where('id', '=', userId).executeTakeFirstOrThrow()).member_type;

/** The member's log events, oldest first. */
export const eventsOf = async (t: TestApp, userId: string) =>
  (await t.testDb.db.kysely.selectFrom('activity_log').select('event').where('user_id', '=', userId).orderBy('created_at').execute()).map(
    (r) => r.event,
  );

/** How many messages (SMS or mail) reached a recipient. */
export const messagesTo = async (t: TestApp, to: string) => (await readMailbox(t.app)).filter((m) => m.to === to).length;

/** /api/user/attribute of a session. */
export const attributeOf = async (t: TestApp, access: string) => (await call(t, '/api/user/attribute', access)).json();

/** Asserts a card result answer (contracts cardResultResponseSchema) for the esid, and returns it. */
export function expectCardResult(res: { statusCode: number; body: string; json(): unknown }, esid: string) {
  expect(res.statusCode, res.body).toBe(200);
  const body = cardResultResponseSchema.parse(res.json());
  expect(body).toMatchObject({ result_code: 0, esid });
  return body;
}

/** A 6-digit code that is certainly not `code`. */
export const not = (code: string) => String((Number(code) + 1) % 10 ** 6).padStart(6, '0');

/** Counts each result code of a list of answers. */
export const tally = (answers: { json(): unknown }[]) =>
  answers.reduce<Record<number, number>>((acc, r) => {
    const code = (r.json() as { result_code: number }).result_code;
    acc[code] = (acc[code] ?? 0) + 1;
    return acc;
  }, {});
