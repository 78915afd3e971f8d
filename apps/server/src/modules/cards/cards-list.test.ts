import { describe, expect, it } from 'vitest';
import { cardsResponseSchema, cardTokensResponseSchema, openSubuserResponseSchema } from '@sso/contracts/cards';
import { baseResponseSchema } from '@sso/contracts/common';
import { loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call } from '../../test-support/account-change-kit.ts';
import { cardMember, eventCount, memberCards, ok, openMember, refused, testCardMaster } from '../../test-support/cards-kit.ts';

const NOT_FOUND = { result_code: 902, result_message: '対象のカードが見つかりません。カード一覧からやり直してください。' };

describe.each(DIALECTS)('card list, waiting cards, enabling and refresh (%s)', (dialect) => {
  const t = withTestApp(dialect, {}, { cardMaster: testCardMaster() });

  it('lists the demo card member\'s card and its holder\'s two waiting cards (README demo data)', async () => {
    const demo = await loginTokens(t.app);
    const list = await ok(t, '/api/subuser/cards', demo.access_token, {}, cardsResponseSchema);
    expect(list).toEqual({
      result_code: 0,
      result_message: '正常に処理しました。',
      saison_subusers: [
        {
          subuser_id: 'demo-card-subuser-1',
          esid: 'ES0000000001',
          status: 'active',
          member_div_code: '01',
          card_name: 'デモ ゴールドカード',
          card_image_url: '/content/cards/demo-gold.svg',
          card_brand: 'VISA',
          card_number_mask: '4541-****-****-0101',
          member_type: 'na',
          point_capable: true,
          na_linked: true,
        },
      ],
    });
    const waiting = await ok(t, '/api/subuser/card/tokens', demo.access_token, {}, cardTokensResponseSchema);
    expect(waiting.card_tokens).toEqual([
      {
        card_token: 'ES0000000102',
        status: 'unactivated4Z',
        card_name: 'デモ クラシックカード（Mastercard）',
        card_image_url: '/content/cards/mastercard-classic.svg',
        card_brand: 'Mastercard',
        card_number_mask: '5252-****-****-0102',
      },
      {
        card_token: 'ES0000000103',
        status: 'inactive',
        card_name: 'デモ カード（JCB）',
        card_image_url: '/content/cards/jcb-classic.svg',
        card_brand: 'JCB',
        card_number_mask: '3528-****-****-0103',
      },
    ]);
  });

  it('answers an empty list and no waiting cards for a member without cards, and the open account for an open member', async () => {
    const member = await openMember(t);
    expect((await ok(t, '/api/subuser/cards', member.access_token, {}, cardsResponseSchema)).saison_subusers).toEqual([]);
    expect((await ok(t, '/api/subuser/card/tokens', member.access_token, {}, cardTokensResponseSchema)).card_tokens).toEqual([]);
    // newMember's open member has no point account yet; the seeded open member has 1200 points.
    expect((await ok(t, '/api/subuser/open', member.access_token, {}, openSubuserResponseSchema)).open_subuser).toBeNull();
    const demoOpen = await loginTokens(t.app, { user: 'demo.open@example.com' });
    expect((await ok(t, '/api/subuser/open', demoOpen.access_token, {}, openSubuserResponseSchema)).open_subuser).toEqual({
      subuser_id: 'demo-open-member',
      member_type: 'open',
      aqf_point_open: 1200,
    });
  });

  it('lists every card of the member\'s holder not registered by anyone as waiting', async () => {
    const a = await cardMember(t);
    const waiting = await ok(t, '/api/subuser/card/tokens', a.access_token, {}, cardTokensResponseSchema);
    const h = a.holder;
    expect(waiting.card_tokens.map((c) => [c.card_token, c.status])).toEqual([
      [h.unactivated.esid, 'unactivated'],
      [h.unactivated4Z.esid, 'unactivated4Z'],
      [h.unactivated4M.esid, 'unactivated4M'],
      [h.inactive.esid, 'inactive'],
      [h.noPoints.esid, 'active'],
      [h.house.esid, 'active'],
    ]);
    // Once another member registers one of them (by number), it waits no more.
    const b = await cardMember(t);
    await ok(t, '/api/subuser/card/add', b.access_token, { cardnumber: h.noPoints.number, cc_month: '12', cc_year: '2030', cvc: '123' }, baseResponseSchema);
    const after = await ok(t, '/api/subuser/card/tokens', a.access_token, {}, cardTokensResponseSchema);
    expect(after.card_tokens.map((c) => c.card_token)).not.toContain(h.noPoints.esid);
    // And b's waiting cards now include the rest of a's holder: b holds one of its cards.
    const bWaiting = await ok(t, '/api/subuser/card/tokens', b.access_token, {}, cardTokensResponseSchema);
    expect(bWaiting.card_tokens.map((c) => c.card_token)).toContain(h.inactive.esid);
  });

  it('enables an inactive waiting card once, logs it, and then the card can be added as active', async () => {
    const a = await cardMember(t);
    const token = a.holder.inactive.esid;
    expect(await refused(t, '/api/subuser/card/add', a.access_token, { card_token: token })).toEqual({
      result_code: 902,
      result_message: 'このカードは現在ご利用いただけません。',
    });
    expect(await ok(t, '/api/subuser/card/enable', a.access_token, { card_token: token }, baseResponseSchema)).toEqual({
      result_code: 0,
      result_message: '正常に処理しました。',
    });
    // A retried enable answers success again and does not log twice.
    await ok(t, '/api/subuser/card/enable', a.access_token, { card_token: token }, baseResponseSchema);
    expect(await eventCount(t, a.id, 'card_enabled')).toBe(1);
    const waiting = await ok(t, '/api/subuser/card/tokens', a.access_token, {}, cardTokensResponseSchema);
    expect(waiting.card_tokens.find((c) => c.card_token === token)?.status).toBe('active');
    await ok(t, '/api/subuser/card/add', a.access_token, { card_token: token }, baseResponseSchema);
    expect((await memberCards(t, a.id)).find((c) => c.esid === token)?.status).toBe('active');
  });

  it('refuses to enable a card that is not inactive, and an unknown token', async () => {
    const a = await cardMember(t);
    expect(await refused(t, '/api/subuser/card/enable', a.access_token, { card_token: a.holder.unactivated.esid })).toEqual({
      result_code: 902,
      result_message: 'このカードは現在ご利用いただけません。',
    });
    expect(await refused(t, '/api/subuser/card/enable', a.access_token, { card_token: 'TE-nothing' })).toEqual(NOT_FOUND);
    // The member's own registered card is not a waiting card.
    expect(await refused(t, '/api/subuser/card/enable', a.access_token, { card_token: a.holder.active.esid })).toEqual(NOT_FOUND);
    expect(await eventCount(t, a.id, 'card_enabled')).toBe(0);
  });

  // SPEC.md section 3's first reading of the statuses is not translated: a stored status the contract
  // does not know (here 'unconfirmed', a row written by hand) reads as inactive, usable for nothing.
  it('answers a stored status of the first reading (unconfirmed) as inactive', async () => {
    const a = await cardMember(t);
    await t.testDb.db.kysely.updateTable('sub_users').set({ status: 'unconfirmed' }).where('id', '=', a.subuserId).execute();
    const list = await ok(t, '/api/subuser/cards', a.access_token, {}, cardsResponseSchema);
    expect(list.saison_subusers).toEqual([expect.objectContaining({ subuser_id: a.subuserId, status: 'inactive' })]);
  });

  it('update_relevant_tokens re-reads the registered cards from the card master', async () => {
    const a = await cardMember(t);
    // The stored row was written by the sign-up with less than the card master knows now.
    await t.testDb.db.kysely.updateTable('sub_users').set({ card_name: '古い名前', point_capable: 0 }).where('id', '=', a.subuserId).execute();
    const res = await ok(t, '/api/subuser/card/update_relevant_tokens', a.access_token, {}, cardsResponseSchema);
    expect(res.saison_subusers).toEqual([
      expect.objectContaining({
        subuser_id: a.subuserId,
        card_name: `テストカード ${a.holder.active.esid}`,
        card_number_mask: `4541-****-****-${a.holder.active.number.slice(-4)}`,
        point_capable: true,
        status: 'active',
      }),
    ]);
    expect((await memberCards(t, a.id))[0]?.card_name).toBe(`テストカード ${a.holder.active.esid}`);
  });

  it('answers 401 without a live Bearer token on every card endpoint', async () => {
    const paths = [
      '/api/subuser/cards',
      '/api/subuser/card/tokens',
      '/api/subuser/card/add',
      '/api/subuser/card/activate',
      '/api/subuser/card/enable',
      '/api/subuser/card/update_relevant_tokens',
      '/api/subuser/delete',
      '/api/subuser/na/add',
      '/api/subuser/open',
      '/api/subuser/revoke',
      '/api/subuser/sc/activate/mobile',
    ];
    for (const path of paths) {
      for (const token of [undefined, 'not-a-token']) {
        const res = await call(t, path, token, { subuser_id: 'x', card_token: 'x' });
        expect(res.statusCode, path).toBe(401);
        expect(res.json(), path).toEqual({ result_code: 300, result_message: '操作を継続できません。お手数ですが再ログインしてください。' });
      }
    }
  });

  it('answers malformed bodies with 901 or 4xx, never 500, and changes nothing', async () => {
    const a = await cardMember(t);
    const bodies: unknown[] = [[], 'text', 42, null, { subuser_id: 12 }, { subuser_ids: 'x' }, { subuser_ids: [] }, { card_token: '' },
      { card_token: 'x'.repeat(65) }, { cardnumber: 4541 }, { cardnumber: '4541', cvc: 123 }, { activation_key: '12345' },
      { subuser_id: a.subuserId, activation_key: 'abcdef' }, { subuser_id: a.subuserId, tel: '090' }, { subuser_ids: Array(21).fill('x') },
      { subuser_id: a.subuserId, na_id: '', na_password: '' }, { token: '' }, { cardnumber: '9999000000000000', cc_month: '13', cc_year: '1999', cvc: '1' }];
    const paths = ['/api/subuser/card/add', '/api/subuser/card/activate', '/api/subuser/sc/activate/mobile', '/api/subuser/card/enable',
      '/api/subuser/delete', '/api/subuser/na/add', '/api/subuser/revoke', '/api/subuser/card/update_relevant_tokens'];
    for (const path of paths) {
      for (const body of bodies) {
        const res = await t.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${a.access_token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(res.statusCode, `${path} ${JSON.stringify(body)}: ${res.body}`).toBeLessThan(500);
      }
      const broken = await t.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${a.access_token}`, 'content-type': 'application/json' }, payload: '{"card_token":' });
      expect(broken.statusCode, path).toBe(400);
      expect(broken.json().result_code, path).toBe(901);
    }
    expect(await memberCards(t, a.id)).toHaveLength(1);
  });

  it('names the wrong fields of an add by number (901)', async () => {
    const a = await cardMember(t);
    const res = await refused(t, '/api/subuser/card/add', a.access_token, { cardnumber: '9999000000000000', cc_month: '13', cc_year: '1999', cvc: '' });
    expect(res.result_code).toBe(901);
    expect(res.validation_errors).toEqual([
      { key: 'cardnumber', message: '当社発行のカードのみご登録いただけます' },
      { key: 'cc_month', message: '有効期限（月）を選択してください' },
      { key: 'cc_year', message: '有効期限（年）を選択してください' },
      { key: 'cvc', message: '入力してください' },
    ]);
    const house = await refused(t, '/api/subuser/card/add', a.access_token, { cardnumber: a.holder.house.number, cc_month: '12', cc_year: '2030', cvc: '123' });
    expect(house.validation_errors).toEqual([{ key: 'cvc', message: 'セキュリティコードを3桁または4桁で入力してください' }]);
  });
});
