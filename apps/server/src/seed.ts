import type { Kysely } from 'kysely';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import type { Database } from './db/schema.ts';
import { insertMemberOnce, type NewMember } from './modules/account/member-repo.ts';
import { hashPassword } from './lib/passwords.ts';
import { existingUserIds, recordTermAcceptance } from './modules/account/user-repo.ts';
import { insertMemberCard } from './modules/cards/card-repo.ts';
import type { ClientRegistry } from './modules/clients/clients.ts';
import { insertOpenAccount } from './ports/point-ledger-repo.ts';

/** Demo members listed in docs/demo.md ("Demo data"). */
export const DEMO = {
  card: { id: 'demo-card-member', email: 'demo.card@example.com', tel: '09000000001', password: 'Demo1234' },
  open: { id: 'demo-open-member', email: 'demo.open@example.com', tel: '09000000002', password: 'Demo1234' },
} as const;

/** The demo card member's card. */
const DEMO_CARD = {
  id: 'demo-card-subuser-1',
  esid: 'ES0000000001',
  status: 'active',
  member_div_code: '01',
  card_name: 'デモ ゴールドカード',
  card_image_url: '/content/cards/demo-gold.svg',
  card_brand: 'VISA',
  card_number_mask: '4541-****-****-0101',
  // The card master simulator's card 4541000000000101 of holder H0000001 (config/demo-cards.json).
  holder_id: 'H0000001',
  point_capable: 1,
  // Linked to the Net Answer simulator's demo-na-card (config/demo-netanswer.json).
  na_id: 'demo-na-card',
  mail_digital: null,
} as const;

/** The demo open member's open points. */
const DEMO_OPEN_POINTS = 1200;

/**
 * Creates the demo data idempotently: existing rows are left as they are, also when several nodes
 * seed at once (the member's insert decides which node writes the rest). Each row is written by the
 * module that owns its table (docs/architecture.md "Who owns each table").
 */
export async function seedDemo(db: Kysely<Database>, clients: ClientRegistry, now = Date.now()): Promise<void> {
  const have = await existingUserIds(db, [DEMO.card.id, DEMO.open.id]);
  const webTerms = (clients.get(WEB_CLIENT_ID)?.terms ?? []).filter(isTermKey);

  for (const [kind, m] of [['card', DEMO.card], ['open', DEMO.open]] as const) {
    if (have.has(m.id)) continue;
    await db.transaction().execute(async (trx) => {
      const member: NewMember = {
        id: m.id,
        email: m.email,
        tel: m.tel,
        password_hash: await hashPassword(m.password),
        member_type: kind,
        last_name: kind === 'open' ? '山田' : null,
        first_name: kind === 'open' ? '花子' : null,
        last_name_kana: kind === 'open' ? 'ヤマダ' : null,
        first_name_kana: kind === 'open' ? 'ハナコ' : null,
        sex: kind === 'open' ? '2' : null,
        birthday: kind === 'open' ? '19900101' : null,
        postal_code: kind === 'open' ? '1700013' : null,
        profile_tel: kind === 'open' ? m.tel : null,
        email_flg: 0,
      };
      if (!(await insertMemberOnce(trx, member, now))) return;
      for (const key of webTerms) await recordTermAcceptance(trx, m.id, key, TERM_VERSIONS[key], now);
      if (kind === 'card') await insertMemberCard(trx, m.id, DEMO_CARD, now);
      else await insertOpenAccount(trx, m.id, DEMO_OPEN_POINTS, now);
    });
  }
}
