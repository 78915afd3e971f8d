import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { SubuserStatus } from '@sso/contracts/constants';
import { REPO_ROOT } from '../config.ts';
import { NO_PROFILE } from '../modules/account/member-repo.ts';
import { call } from './account-change-kit.ts';
import { newMember } from './recover-kit.ts';
import { cardMasterFromList } from '../ports/card-master-simulator.ts';
import type { CardMaster } from '../ports/card-master.ts';
import type { NetAnswer } from '../ports/net-answer.ts';
import { netAnswerFromList } from '../ports/net-answer-simulator.ts';
import { systemClock } from '../lib/clock.ts';
import { loginTokens, type TestApp } from './test-app.ts';

/**
 * The cards of one test cardholder: each test takes holders of its own (nextHolder), so that card
 * states, locks and registrations never mix between tests sharing an app. Slot numbers name the
 * card of each kind; the keys are what SPEC.md section 5 says each status asks for.
 */
const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function holderCards(k: number) {
  const number = (prefix: string, slot: number) => `${prefix}99${pad(k, 6)}${pad(slot, 4)}`;
  const esid = (slot: number) => `TE${pad(k, 6)}-${slot}`;
  const mobile = `080${pad(k, 8)}`;
  const inquiry = `77${pad(k, 6)}${pad(k % 97, 4)}`;
  const card = (slot: number, prefix: string, status: SubuserStatus, cvc = '123') => ({
    number: number(prefix, slot),
    esid: esid(slot),
    cvc,
    status,
  });
  return {
    holderId: `TH${pad(k, 6)}`,
    mobile,
    active: card(1, '4541', 'active'),
    unactivated: { ...card(2, '5252', 'unactivated'), key: number('5252', 2).slice(-6) },
    unactivated4Z: { ...card(3, '3528', 'unactivated4Z'), key: inquiry.slice(-6), inquiry },
    unactivated4M: { ...card(4, '3777', 'unactivated4M'), key: mobile.slice(-6) },
    inactive: card(5, '4541', 'inactive'),
    noPoints: card(6, '5252', 'active'),
    house: card(7, '03', 'active', ''),
  };
}
export type HolderCards = ReturnType<typeof holderCards>;

const HOLDERS = 120;
/**
 * The holders each test file has taken, by its path. A file's apps, databases and card masters are
 * its own, so only its own tests must not share a holder; the server's test files share their
 * worker's modules (vitest.config.ts, `unit-shared`), so one count for the module would run out
 * across the files a worker happens to run.
 */
const holdersTaken = new Map<string, number>();
/** A cardholder no other test of this file uses. */
export function nextHolder(): HolderCards {
  const file = expect.getState().testPath ?? '';
  const serial = (holdersTaken.get(file) ?? 0) + 1;
  if (serial > HOLDERS) throw new Error(`test card master: out of holders in ${file}`);
  holdersTaken.set(file, serial);
  return holderCards(serial);
}

/** How often the card master was asked to check a card or an activation key (what the locks bound). */
export interface CardMasterCalls {
  lookups: number;
  activations: number;
}

/**
 * A card master simulator over the demo cards and HOLDERS test cardholders (a fresh one per test
 * app), counting its checks into `calls`.
 */
export function testCardMaster(calls: CardMasterCalls = { lookups: 0, activations: 0 }): CardMaster {
  const demo = JSON.parse(readFileSync(`${REPO_ROOT}config/demo-cards.json`, 'utf8')) as { cards: unknown[] };
  const cards: unknown[] = [];
  for (let k = 1; k <= HOLDERS; k++) {
    const h = holderCards(k);
    for (const c of [h.active, h.unactivated, h.unactivated4Z, h.unactivated4M, h.inactive, h.noPoints, h.house]) {
      cards.push({
        number: c.number,
        cc_month: '12',
        cc_year: '2030',
        cvc: c.cvc,
        answer: 'card',
        esid: c.esid,
        holder_id: h.holderId,
        status: c.status,
        point_capable: c !== h.noPoints,
        brand: 'VISA',
        card_name: `テストカード ${c.esid}`,
        card_image_url: '/content/cards/visa-gold.svg',
        member_div_code: '01',
        number_mask: `${c.number.slice(0, 4)}-****-****-${c.number.slice(-4)}`,
        check: 'OtpSMS',
        holder_mobile: h.mobile,
        holder_mobile_masked: `080-****-${h.mobile.slice(-4)}`,
        ...(c === h.unactivated4Z ? { inquiry_number: h.unactivated4Z.inquiry } : {}),
      });
    }
  }
  const master = cardMasterFromList({ cards: [...demo.cards, ...cards] });
  return {
    ...master,
    lookup: (query) => {
      calls.lookups++;
      return master.lookup(query);
    },
    activate: (esid, key) => {
      calls.activations++;
      return master.activate(esid, key);
    },
  };
}

/** The Net Answer password of every test holder's account `na-<holderId>`, which covers all the holder's cards. */
export const NA_PASSWORD = 'NaTest1234';

/** A Net Answer simulator with one account per test cardholder. */
export function testNetAnswer(): NetAnswer {
  const accounts = Array.from({ length: HOLDERS }, (_, i) => {
    const h = holderCards(i + 1);
    return { na_id: `na-${h.holderId}`, password: NA_PASSWORD, esids: [h.active, h.unactivated, h.unactivated4Z, h.unactivated4M, h.inactive, h.noPoints, h.house].map((c) => c.esid) };
  });
  return netAnswerFromList({ accounts }, 'http://sso.test', systemClock);
}

/** The card fields of an add by number. */
export const byNumber = (c: { number: string; cvc: string }, over: Record<string, string> = {}) => ({
  cardnumber: c.number,
  cc_month: '12',
  cc_year: '2030',
  cvc: c.cvc,
  ...over,
});

export interface CardMember {
  id: string;
  email: string;
  password: string;
  access_token: string;
  refresh_token: string;
  holder: HolderCards;
  /** The sub-user id of the holder's active card, registered to the member. */
  subuserId: string;
}

/** A fresh card member holding `holder`'s active card (registered as the card sign-up would), logged in to the web client. */
export async function cardMember(t: TestApp, holder: HolderCards = nextHolder()): Promise<CardMember> {
  const member = await newMember(t);
  const db = t.testDb.db.kysely;
  await db.updateTable('users').set({ member_type: 'card', ...NO_PROFILE }).where('id', '=', member.id).execute();
  const subuserId = `su-${holder.active.esid}`;
  await db
    .insertInto('sub_users')
    .values({
      id: subuserId,
      user_id: member.id,
      esid: holder.active.esid,
      status: 'active',
      member_div_code: '01',
      card_name: `テストカード ${holder.active.esid}`,
      card_image_url: '/content/cards/visa-gold.svg',
      card_brand: 'VISA',
      card_number_mask: '4541-****-****-0001',
      holder_id: holder.holderId,
      point_capable: 1,
      na_id: null,
      mail_digital: null,
      // Registered at the sign-up, before anything the test adds.
      created_at: t.clock.now() - 60_000,
    })
    .execute();
  const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
  return { ...member, ...tokens, holder, subuserId };
}

/** An open member (no cards), logged in to the web client. */
export async function openMember(t: TestApp) {
  const member = await newMember(t);
  return { ...member, ...(await loginTokens(t.app, { user: member.email, password: member.password })) };
}

/** POSTs to a card endpoint as the member, expecting success, and checks the answer against its contract. */
export async function ok<S extends z.ZodType>(t: TestApp, url: string, access: string, payload: unknown, schema: S): Promise<z.output<S>> {
  const res = await call(t, url, access, payload);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return schema.parse(res.json());
}

/** The result code and message of a refused call. */
export async function refused(t: TestApp, url: string, access: string | undefined, payload: unknown) {
  const res = await call(t, url, access, payload);
  expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
  return res.json() as { result_code: number; result_message: string; validation_errors?: { key: string; message: string }[] };
}

/** The member's card rows (what the database holds), oldest first. */
export const memberCards = (t: TestApp, userId: string) =>
  t.testDb.db.kysely.selectFrom('sub_users').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();

/** How many of the member's log rows record `event`. */
export const eventCount = async (t: TestApp, userId: string, event: string) =>
  (await t.testDb.db.kysely.selectFrom('activity_log').select('id').where('user_id', '=', userId).where('event', '=', event).execute()).length;
