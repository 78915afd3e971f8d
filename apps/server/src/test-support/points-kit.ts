import { expect } from 'vitest';
import { newId } from '../lib/secrets.ts';
import { latestCode, readMailbox } from './mailbox.ts';
import type { TestApp } from './test-app.ts';
import { call, loggedInMember } from './account-change-kit.ts';

export { call, eventRows, expectSessionDead, loginCheck } from './account-change-kit.ts';

export const OK = { result_code: 0, result_message: '正常に処理しました。' };
export const REFUSED = {
  openInfoUnavailable: { result_code: 902, result_message: 'オープン会員の情報を取得できませんでした。' },
  noEligibleCard: { result_code: 902, result_message: 'ポイントを移行できるカードが登録されていません。' },
  zeroBalance: { result_code: 902, result_message: 'オープン会員のポイント残高が0のため、ポイントの移行は不要です。' },
};
export const TRANSFER_EXPIRED = {
  result_code: 300,
  result_message: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。',
};
export const TRANSFER_LOCKED = {
  result_code: 203,
  result_message: '入力回数の上限を超えたため、しばらくの間ポイントを移行できません。時間をおいて再度お試しください。',
};
export const OTP_WRONG = { result_code: 902, result_message: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。' };

/** Card-master cards whose holder mobile is known (config/demo-cards.json): their codes go by SMS. */
export const SMS_CARDS = {
  ES1000000001: '09011110001',
  ES1000000002: '09011110002',
  ES1000000003: '09011110003',
  ES1000000004: '09011110004',
} as const;

export interface CardSpec {
  /** An esid the card master does not know gets its code by mail to the member. */
  esid?: string;
  status?: string;
  pointCapable?: boolean;
}

/** Registers a card (a sub_users row, as card add leaves it) to a member; returns its subuser_id. */
export async function addCard(t: TestApp, userId: string, card: CardSpec = {}): Promise<string> {
  const id = newId();
  await t.testDb.db.kysely
    .insertInto('sub_users')
    .values({
      id,
      user_id: userId,
      esid: card.esid ?? `ES-T-${id.slice(0, 8)}`,
      status: card.status ?? 'active',
      member_div_code: '01',
      card_name: 'テストカード',
      card_image_url: '/content/cards/visa-gold.svg',
      card_brand: 'VISA',
      card_number_mask: '4541-****-****-9999',
      point_capable: card.pointCapable === false ? 0 : 1,
      created_at: t.clock.now(),
    })
    .execute();
  return id;
}

/** Sets a member's open point balance (the point ledger simulator's open account). */
export async function setOpenPoints(t: TestApp, userId: string, points: number): Promise<void> {
  await t.testDb.db.kysely
    .insertInto('point_accounts')
    .values({ user_id: userId, kind: 'open', points, updated_at: t.clock.now() })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ points }))
    .execute();
}

/**
 * A logged-in member for the point features: an open member (test-support/recover-kit.ts), or a card member
 * (`card: true`); with an open account of `openPoints` unless null, and the cards given.
 */
export async function pointMember(t: TestApp, p: { card?: boolean; openPoints?: number | null; cards?: CardSpec[] } = {}) {
  const member = await loggedInMember(t);
  if (p.card) await t.testDb.db.kysely.updateTable('users').set({ member_type: 'card' }).where('id', '=', member.id).execute();
  if (p.openPoints !== null) await setOpenPoints(t, member.id, p.openPoints ?? 1200);
  const subuserIds: string[] = [];
  for (const card of p.cards ?? []) subuserIds.push(await addCard(t, member.id, card));
  return { ...member, subuserIds };
}

export const aqf = async (t: TestApp, access: string) => {
  const res = await call(t, '/api/user/aqf', access);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { is_na_point: boolean; is_open_point: boolean; aqf_point_na: number; aqf_point_open: number };
};

export const select = (t: TestApp, access: string, subuser_id: unknown) => call(t, '/api/aqf/transfer/open/select', access, { subuser_id });
export const confirm = (t: TestApp, access: string, register_token: string, onetime_password: string) =>
  call(t, '/api/aqf/transfer/open/otp', access, { register_token, onetime_password });

/** How many messages went to `to` so far. */
export const messagesTo = async (t: TestApp, to: string) => (await readMailbox(t.app)).filter((m) => m.to === to).length;

/** Starts a transfer to a card, expecting a register_token, and returns it with the code sent to `to`. */
export async function startTransfer(t: TestApp, access: string, subuserId: string, to: string) {
  const res = await select(t, access, subuserId);
  expect(res.statusCode, res.body).toBe(200);
  const code = await latestCode(t.app, to);
  expect(code).toMatch(/^\d{6}$/);
  return { body: res.json() as { destination_to: string; register_token: string; email: string; tel: string }, code: code! };
}

export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
