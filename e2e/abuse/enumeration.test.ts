import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, newId } from '@sso/server/test-support/internals';
import { startSystem, type RunningSystem } from '../support/server.ts';
import { readMailbox, waitForCode } from '../support/mailbox.ts';
import { authorize, DEMO_CARD, DEMO_OPEN, login, post, type Answer } from './support/client.ts';
import { openSystemDb } from './support/db.ts';
import { CARDS, cardSignupBody, openBody } from './support/signup-bodies.ts';
import { compareTimings, expectWithinNoise, maskEcho, maskField, visible, type Side } from './support/enumeration.ts';

/**
 * Account enumeration (OWASP ASVS 5.0 V6: "valid users cannot be deduced ... by error messages,
 * HTTP response codes, or different response times"): through the login (the authorize
 * form post and /api/auth/login), the open sign-up, the card sign-up's e-mail, the password
 * recovery, the e-mail change, the open-account link and the login mobile number (decision 0014), a member's address and an unknown one get the same status and
 * body on every try, and their timing differs by no more than noise over 200 tries (600 on the
 * paths without argon2id), twice as many when the first are over the limit (support/enumeration.ts
 * says how it is measured).
 *
 * Same path for both sides: every try uses an address of its own on both sides, a member's (made
 * in the database beforehand) and a never-used one, so that no limit treats the sides
 * differently — the login lock (10 failures per id, decision 0003) and the mail budget (5 per
 * address in 30 minutes, decision 0005) count one event per address and endpoint here, never
 * reaching their bounds. The locked login, the one path an attacker can probe without bound, is
 * measured on its own: one member and one unknown id, both locked by the same 10 wrong passwords.
 */

/** Tries of each side: 200 tries per endpoint. */
const PER_SIDE = 100;
/** The cheap paths (no argon2id on the way) are measured over more tries for the same cost. */
const CHEAP_PER_SIDE = 300;
const WARMUP = 6;
const PASSWORD = 'Enum-pass1';
const WRONG = 'Wrong-pass1';
const DOMAIN = 'enum.example.com';

let system: RunningSystem;
let db: ReturnType<typeof openSystemDb>;
/**
 * The members' addresses: try i of a measurement (i from -WARMUP) uses member i + WARMUP; enough for
 * the second look a measurement over the limit takes (support/enumeration.ts), twice the tries.
 */
const members = Array.from({ length: 2 * CHEAP_PER_SIDE + WARMUP }, (_, i) => `member.${i}@${DOMAIN}`);
/** Members of their own for the locked login and for the card sign-up's way to the e-mail code. */
const LOCKED_MEMBER = `member.locked@${DOMAIN}`;
const CARD_MAIL_MEMBER = `member.card-mail@${DOMAIN}`;

/** The address of try `i` on one side; each endpoint (`tag`) gets never-used unknown addresses. */
const address = (side: Side, tag: string, i: number) => (side === 'known' ? members[i + WARMUP]! : `nobody.${tag}.${i + WARMUP}@${DOMAIN}`);

/** Members made directly in the database (an argon2id hash of the same cost as the server's own). */
async function createMembers(emails: string[]): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  const now = Date.now();
  const row = (email: string) => ({ id: newId(), email, tel: null, password_hash: hash, member_type: 'open' as const, status: 'active' as const });
  const profile = { last_name: null, first_name: null, last_name_kana: null, first_name_kana: null, sex: null, birthday: null, postal_code: null };
  await db.kysely
    .insertInto('users')
    .values(emails.map((email) => ({ ...row(email), ...profile, email_flg: 0, created_at: now, updated_at: now })))
    .execute();
}

/**
 * Checks that every answer of a measurement shows the same as the first one of the other side:
 * one reference per side, compared once both exist and then on every try.
 */
function sameAnswers(label: string, normalise: (a: Answer, side: Side, i: number) => ReturnType<typeof visible>) {
  const seen: Partial<Record<Side, ReturnType<typeof visible>>> = {};
  return (a: Answer, side: Side, i: number) => {
    const shown = normalise(a, side, i);
    seen[side] ??= shown;
    expect(shown, `${label}: try ${i} of the ${side} address`).toEqual(seen.known ?? shown);
    expect(shown, `${label}: try ${i} of the ${side} address`).toEqual(seen.unknown ?? shown);
  };
}

beforeAll(async () => {
  // Hundreds of wrong passwords come from this one address: without the per-address limit (decision
  // 0007, shown in login.test.ts and guessing.test.ts), so that every try takes the path it measures.
  system = await startSystem({ quiet: true, env: { LOGIN_ADDRESS_FAILURES: '0' } });
  db = openSystemDb(system.databaseUrl);
  await createMembers([...members, LOCKED_MEMBER, CARD_MAIL_MEMBER]);
});

afterAll(async () => {
  await db?.close();
  await system?.stop();
});

describe('account enumeration over a listening server', () => {
  it('login by the authorize form: a member with a wrong password and an unknown id alike', async () => {
    // The answer is the login page again, saying the credentials failed; the same for both.
    // The login page's URL carries the request back, the caller's own PKCE challenge (new each try) included.
    const check = sameAnswers('authorize', (a) => {
      const shown = visible(a);
      return { ...shown, location: shown.location?.replace(/code_challenge=[^&]*/, 'code_challenge=<echo>') ?? null };
    });
    const c = await compareTimings('authorize form post (wrong password)', PER_SIDE, async (side, i) => {
      const a = await authorize(system.origin, { user: address(side, 'authorize', i), password: WRONG });
      expect(new URL(a.headers.get('location') ?? 'http://x/').searchParams.get('login_result')).toBe('credentials');
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('login by /api/auth/login: a member with a wrong password and an unknown id alike', async () => {
    const check = sameAnswers('/api/auth/login', (a) => visible(a));
    const c = await compareTimings('/api/auth/login (wrong password)', PER_SIDE, async (side, i) => {
      const body = { id: address(side, 'login', i), password: WRONG, recaptcha_token: 'enum', client_id: 'SIAP009' };
      const a = await post(system.origin, '/api/auth/login', { json: body });
      expect(a.json?.result_code).toBe(200);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('a locked member and a locked unknown id alike: the path that can be probed without bound', async () => {
    const ids: Record<Side, string> = { known: LOCKED_MEMBER, unknown: `nobody.locked@${DOMAIN}` };
    for (const side of ['known', 'unknown'] as const) {
      for (let n = 0; n < 10; n++) await post(system.origin, '/api/auth/login', { json: { id: ids[side], password: WRONG, recaptcha_token: 'e', client_id: 'SIAP009' } });
    }
    const check = sameAnswers('locked login', (a) => visible(a));
    const c = await compareTimings('/api/auth/login while locked', CHEAP_PER_SIDE, async (side, i) => {
      // The right password of the member: refused like any other while locked.
      const a = await post(system.origin, '/api/auth/login', { json: { id: ids[side], password: PASSWORD, recaptcha_token: 'e', client_id: 'SIAP009' } });
      expect(a.json?.result_code).toBe(203);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('open sign-up: a member\'s address and a new one alike', async () => {
    // The answer echoes the address sent, which is masked; nothing else differs.
    const check = sameAnswers('open sign-up', (a, side, i) => visible(a, maskEcho(address(side, 'open', i))));
    const c = await compareTimings('/api/signup/open', PER_SIDE, async (side, i) => {
      const a = await post(system.origin, '/api/signup/open', { json: openBody(address(side, 'open', i), { tel: '08012345678', password: PASSWORD, password_check: PASSWORD }) });
      expect(a.json?.result_code).toBe(0);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('forgot password: a member\'s address and an unknown one alike', async () => {
    const check = sameAnswers('forgot password', (a) => visible(a));
    const c = await compareTimings('/api/auth/password/forgot', CHEAP_PER_SIDE, async (side, i) => {
      const a = await post(system.origin, '/api/auth/password/forgot', { json: { email: address(side, 'forgot', i) } });
      expect(a.json?.result_code).toBe(0);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('e-mail change: another member\'s address and a free one alike, for a logged-in member', async () => {
    const { access_token } = await login(system.origin, DEMO_OPEN.user, DEMO_OPEN.password);
    // register_token is 256 random bits, new on every answer: the only part masked.
    const check = sameAnswers('e-mail change', (a) => visible(a, maskField('register_token')));
    // Each answer waits about 100 ms, idle, for the mail it sends (the development SMTP sink greets
    // after a fixed pause): 4 tries at a time keep the file's time, in the same random order.
    const c = await compareTimings(
      '/api/auth/email/change',
      PER_SIDE,
      async (side, i) => {
        const a = await post(system.origin, '/api/auth/email/change', { json: { email: address(side, 'change', i) }, token: access_token });
        expect(a.json?.result_code).toBe(0);
        check(a, side, i);
      },
      { lanes: 4 },
    );
    expectWithinNoise(c);
  });

  it('open-account link: a member\'s e-mail with a wrong password and an unknown e-mail alike (decision 0014)', async () => {
    const { access_token } = await login(system.origin, DEMO_CARD.user, DEMO_CARD.password);
    const check = sameAnswers('open-account link', (a) => visible(a));
    const details = { last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', birthday: '19900101', tel: '09000000002', password: WRONG };
    const c = await compareTimings('/api/link/open (wrong password)', PER_SIDE, async (side, i) => {
      // The card member's own bound (5 failed links) is lifted before every try, on both sides alike:
      // what is measured is the open account's check, not the member's lock.
      await db.kysely.deleteFrom('login_throttle').where('key', '=', 'open-link:demo-card-member').execute();
      const a = await post(system.origin, '/api/link/open', { json: { ...details, email: address(side, 'link', i) }, token: access_token });
      expect(a.json?.result_code).toBe(902);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('login mobile number: another member\'s number and a free one alike, for a logged-in member (decision 0014)', async () => {
    const { access_token } = await login(system.origin, DEMO_OPEN.user, DEMO_OPEN.password);
    const telOf = (side: Side, i: number) => `${side === 'known' ? '070' : '071'}${String(10_000_000 + i + WARMUP).slice(-8)}`;
    // The members' login numbers: try i of the known side names member i's.
    for (const [i, email] of members.entries()) await db.kysely.updateTable('users').set({ tel: telOf('known', i - WARMUP) }).where('email', '=', email).execute();
    // The number is masked in the answer, and the register_token is new on every answer.
    const check = sameAnswers('login mobile number', (a) => visible(a, (t) => maskField('register_token')(t).replace(/"tel":"[^"]*"/, '"tel":"<tel>"')));
    const c = await compareTimings('/api/auth/tel/change', PER_SIDE, async (side, i) => {
      // The member's own bound on starts is lifted before every try, on both sides alike.
      await db.kysely.deleteFrom('rate_limits').where('key', '=', 'login-tel-start:demo-open-member').execute();
      const a = await post(system.origin, '/api/auth/tel/change', { json: { tel: telOf(side, i) }, token: access_token });
      expect(a.json?.result_code).toBe(0);
      check(a, side, i);
    });
    expectWithinNoise(c);
  });

  it('card sign-up: a member\'s e-mail and a new one alike until the mailbox is proved (decision 0004)', async () => {
    const check = sameAnswers('card sign-up', (a) => visible(a, maskField('register_token')));
    const c = await compareTimings('/api/signup/card (PIN card)', PER_SIDE, async (side, i) => {
      const a = await post(system.origin, '/api/signup/card', { json: cardSignupBody(system.origin, CARDS.pin, address(side, 'card', i)) });
      expect(a.json?.destination_to).toBe('Pin');
      check(a, side, i);
    });
    expectWithinNoise(c);

    // Through the PIN to the e-mail code: the same answers (the address echoed, and the token,
    // masked), the same mail (its code masked), and the same refusal of a wrong code.
    const seen: Partial<Record<Side, unknown>> = {};
    for (const side of ['known', 'unknown'] as const) {
      const email = side === 'known' ? CARD_MAIL_MEMBER : `nobody.card-mail@${DOMAIN}`;
      const start = await post(system.origin, '/api/signup/card', { json: cardSignupBody(system.origin, CARDS.pin, email) });
      const register_token = String(start.json?.register_token);
      const pin = await post(system.origin, '/api/signup/pin', { json: { pin: '1234', register_token } });
      const code = await waitForCode(system.origin, 'mail', email);
      const mail = (await readMailbox(system.origin)).find((m) => m.to === email)!;
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const otp = await post(system.origin, '/api/signup/otp', { json: { onetime_password: wrong, register_token } });
      const mask = (t: string) => maskField('register_token')(maskEcho(email)(t));
      seen[side] = { pin: visible(pin, mask), mail: { subject: mail.subject, text: mail.text.split(code).join('<code>') }, otp: visible(otp, mask) };
    }
    expect(seen.known).toMatchObject({ pin: { status: 200 }, otp: { status: 400 } });
    expect(seen.known).toEqual(seen.unknown);
  });
});
