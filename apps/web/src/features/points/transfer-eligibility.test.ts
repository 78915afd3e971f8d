import { describe, expect, it } from 'vitest';
import type { Subuser } from '@sso/contracts/cards';
import { POINT_MESSAGES } from '@sso/contracts/messages';
import { transferCards, transferRefusal } from './transfer-eligibility.ts';

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
