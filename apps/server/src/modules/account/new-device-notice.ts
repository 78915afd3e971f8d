import type { Kysely } from 'kysely';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import { japanTime } from '../../lib/japan-time.ts';
import { lookupDigest } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { composeMail, type MailLink } from '../notifications/compose-mail.ts';
import type { Notifier, OutgoingMessage } from '../notifications/notifier.ts';
import { noteMemberDevice, seeKnownDevice } from './device-repo.ts';
import { notMeLink } from './not-me-link.ts';

/**
 * The sign-in notice (decision 0024): a browser carries a random device cookie (DEVICE_COOKIE, HttpOnly,
 * 400 days); a sign-in (by password or passkey) from a browser the member has not signed in from
 * before mails the member the time, the device and the way to the activity log, as Japanese card
 * companies do, and logs `login_new_device`.
 */
export const DEVICE_COOKIE = 'sso_device';
export const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/** How `member_devices` knows a browser: a keyed digest of its device cookie. */
export const deviceHashOf = (cookieValue: string) => lookupDigest(`device:${cookieValue}`);

export function newDeviceLoginMail(to: string, p: { at: number; device: string | null; activitiesUrl: string; notMe: MailLink }): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】新しい端末からのログインのお知らせ`, [
    `${PRODUCT_NAME}に、これまでご利用のない端末からログインがありました。`,
    [`日時：${japanTime(p.at)}`, `端末：${p.device ?? '不明'}`].join('\n'),
    { label: 'ログイン・操作履歴は次のURLからご確認いただけます。', url: p.activitiesUrl },
    p.notMe,
    `お心当たりのない場合は、第三者がお客さまのパスワードを利用した可能性があります。パスワードを変更し、${PRODUCT_NAME}のお問い合わせ窓口までご連絡ください。`,
  ]);
}

export interface SignInNoticeDeps {
  db: Kysely<Database>;
  notifier: Notifier;
  issuer: string;
}

/**
 * A sign-in from a browser the member has signed in from before: its sighting written, in one update
 * that the code's commit can carry (db/one-commit.ts), and true; false, and nothing written, for a
 * browser that noteSignIn is to note once the answer has gone out (a new one, or one that cannot be known).
 */
export const knownBrowser = async (db: Kysely<Database>, p: { userId: string; deviceCookie: string | null; now: number }): Promise<boolean> =>
  p.deviceCookie !== null && (await seeKnownDevice(db, { userId: p.userId, deviceHash: deviceHashOf(p.deviceCookie), now: p.now }));

/**
 * A member's sign-in from the browser with this device cookie: a browser not seen before is logged
 * and mailed about. A browser that cannot be known (null: no cookie can be read or set) is a new one
 * every time, and is not remembered.
 */
export async function noteSignIn(
  deps: SignInNoticeDeps,
  p: { userId: string; email: string; deviceCookie: string | null; device: string | null; clientId: string; now: number },
): Promise<void> {
  const isNew = p.deviceCookie === null || (await noteMemberDevice(deps.db, { userId: p.userId, deviceHash: deviceHashOf(p.deviceCookie), now: p.now }));
  if (!isNew) return;
  await logActivity(deps.db, { userId: p.userId, event: 'login_new_device', clientId: p.clientId, device: p.device, at: p.now });
  const notMe = await notMeLink(deps, p.userId, { address: p.email }, p.now);
  await deps.notifier.send(newDeviceLoginMail(p.email, { at: p.now, device: p.device, activitiesUrl: `${deps.issuer}/content/user/activities`, notMe }));
}
