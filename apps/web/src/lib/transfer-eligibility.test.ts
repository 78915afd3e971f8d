import { describe, expect, it } from 'vitest';
import type { Subuser } from '@sso/contracts/cards';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import { ADD_CARD_TO_MOVE, addCardPath, transferCards, transferOffer, transferRefusal } from './transfer-eligibility.ts';

const card = (over: Partial<Subuser> = {}): Subuser => ({
  subuser_id: 's1',
  esid: 'ES1',
  status: 'active',
  member_div_code: '01',
  card_name: 'カード',
  card_image_url: '/content/cards/x.svg',
  card_brand: 'VISA',
  card_number_mask: '4541-****-****-0001',
  member_type: 'na',
  point_capable: true,
  na_linked: false,
  ...over,
});
const info = (over: Partial<{ is_open_point: boolean; aqf_point_open: number }> = {}) => ({
  result_code: 0,
  result_message: '',
  is_na_point: true,
  is_open_point: true,
  aqf_point_na: 0,
  aqf_point_open: 1200,
  ...over,
});

describe('transfer eligibility', () => {
  it('offers only active point-capable cards', () => {
    const cards = [card({ subuser_id: 'a' }), card({ subuser_id: 'b', point_capable: false }), card({ subuser_id: 'c', status: 'unactivated' })];
    expect(transferCards(cards).map((c) => c.subuser_id)).toEqual(['a']);
  });

  it('names exactly one refusal, in the server\'s order, or none', () => {
    expect(transferRefusal(info(), [card()])).toBeUndefined();
    expect(transferRefusal(info({ is_open_point: false, aqf_point_open: 0 }), [])).toBe(POINT_MESSAGES.openInfoUnavailable);
    expect(transferRefusal(info({ aqf_point_open: 0 }), [card({ status: 'inactive' })])).toBe(POINT_MESSAGES.noEligibleCard);
    expect(transferRefusal(info(), [])).toBe(POINT_MESSAGES.noEligibleCard);
    expect(transferRefusal(info({ aqf_point_open: 0 }), [card()])).toBe(POINT_MESSAGES.zeroBalance);
  });
});

describe('what Top offers for the open points (decision 0016)', () => {
  it('offers the transfer only where it can succeed', () => {
    expect(transferOffer(info(), [card()])).toEqual({ kind: 'transfer' });
    expect(transferOffer(info(), [card({ point_capable: false }), card({ status: 'unactivated' })]).kind).toBe('add-card');
  });

  it('says what the member can do otherwise: add a card, or nothing to move; nothing without an open account', () => {
    expect(transferOffer(info(), [])).toEqual({ kind: 'add-card', message: ADD_CARD_TO_MOVE });
    expect(transferOffer(info({ aqf_point_open: 0 }), [card()])).toEqual({ kind: 'nothing-to-move', message: POINT_MESSAGES.zeroBalance });
    // The same order as the summary's refusal (SPEC.md section 2): no eligible card before balance 0.
    expect(transferOffer(info({ aqf_point_open: 0 }), []).kind).toBe('add-card');
    expect(transferOffer(info({ is_open_point: false, aqf_point_open: 0 }), [card()])).toEqual({ kind: 'none' });
  });

  it('the offer and the refusal name the same first reason, for every combination', () => {
    const kinds: Record<string, string> = { [POINT_MESSAGES.noEligibleCard]: 'add-card', [POINT_MESSAGES.zeroBalance]: 'nothing-to-move', [POINT_MESSAGES.openInfoUnavailable]: 'none' };
    for (const is_open_point of [true, false])
      for (const aqf_point_open of [0, 1200])
        for (const cards of [[], [card()], [card({ point_capable: false })]]) {
          const refusal = transferRefusal(info({ is_open_point, aqf_point_open }), cards);
          expect(transferOffer(info({ is_open_point, aqf_point_open }), cards).kind).toBe(refusal ? kinds[refusal] : 'transfer');
        }
  });

  it('sends open members to the holder check and card members to the all-cards list to add a card', () => {
    expect(addCardPath(true)).toBe('/open/card');
    expect(addCardPath(false)).toBe('/subusers/all');
  });
});
