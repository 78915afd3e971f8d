import type { Kysely } from 'kysely';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import type { Database } from './db/schema.ts';
import { hashPassword } from './modules/account/passwords.ts';
import type { ClientRegistry } from './modules/oauth/clients.ts';

/** Demo members listed in the README ("Demo data"). */
export const DEMO = {
  card: { id: 'demo-card-member', email: 'demo.card@example.com', tel: '09000000001', password: 'Demo1234' },
  open: { id: 'demo-open-member', email: 'demo.open@example.com', tel: '09000000002', password: 'Demo1234' },
} as const;

/** Creates the demo data idempotently: existing rows are left as they are, also when several nodes seed at once. */
export async function seedDemo(db: Kysely<Database>, clients: ClientRegistry, now = Date.now()): Promise<void> {
  const existing = await db.selectFrom('users').select('id').where('id', 'in', [DEMO.card.id, DEMO.open.id]).execute();
  const have = new Set(existing.map((r) => r.id));
  const webTerms = (clients.get(WEB_CLIENT_ID)?.terms ?? []).filter(isTermKey);

  for (const [kind, m] of [['card', DEMO.card], ['open', DEMO.open]] as const) {
    if (have.has(m.id)) continue;
    await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('users')
        .values({
          id: m.id,
          email: m.email,
          tel: m.tel,
          password_hash: await hashPassword(m.password),
          member_type: kind,
          status: 'active',
          last_name: kind === 'open' ? '山田' : null,
          first_name: kind === 'open' ? '花子' : null,
          last_name_kana: kind === 'open' ? 'ヤマダ' : null,
          first_name_kana: kind === 'open' ? 'ハナコ' : null,
          sex: kind === 'open' ? '2' : null,
          birthday: kind === 'open' ? '19900101' : null,
          postal_code: kind === 'open' ? '1700013' : null,
          profile_tel: kind === 'open' ? m.tel : null,
          email_flg: 0,
          created_at: now,
          updated_at: now,
        })
        // Nodes starting together seed at once: PostgreSQL makes this insert wait for the other
        // node's, and when that one is committed, nothing is inserted and the rest is left to it.
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return;
      for (const key of webTerms) {
        await trx.insertInto('term_acceptances').values({ user_id: m.id, term_key: key, version: TERM_VERSIONS[key], accepted_at: now }).execute();
      }
      if (kind === 'card') {
        await trx
          .insertInto('sub_users')
          .values({
            id: 'demo-card-subuser-1',
            user_id: m.id,
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
            created_at: now,
          })
          .execute();
      } else {
        await trx.insertInto('point_accounts').values({ user_id: m.id, kind: 'open', points: 1200, updated_at: now }).execute();
      }
    });
  }
}
