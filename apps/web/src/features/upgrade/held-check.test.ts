import { describe, expect, it } from 'vitest';
import { addedCardOf, CHECK_PATHS, heldAddedCard, heldCheckOf } from './held-check.ts';

describe('the held check of an open member\'s card', () => {
  const held = { registerToken: 'rt', check: 'OtpSMS', sentTo: '090-****-0001' };

  it('belongs to the screen of its check', () => {
    expect(heldCheckOf(held, CHECK_PATHS.OtpSMS)).toEqual(held);
    expect(heldCheckOf({ ...held, check: 'OtpEmail' }, '/open/card/otp')).toMatchObject({ check: 'OtpEmail' });
    expect(heldCheckOf({ ...held, check: 'Pin', sentTo: '' }, '/open/card/pin')).toMatchObject({ check: 'Pin' });
    expect(heldCheckOf(held, '/open/card/pin')).toBeUndefined();
    expect(heldCheckOf({ ...held, check: 'numberless' }, '/open/card/otp')).toBeUndefined();
  });

  it('counts anything partial or foreign as none', () => {
    for (const state of [null, undefined, 'x', {}, { ...held, registerToken: '' }, { ...held, check: 'Sms' }, { ...held, sentTo: 1 }]) {
      expect(heldCheckOf(state, '/open/card/otp')).toBeUndefined();
    }
  });

  it('holds the card just added: its name, and whether it still needs activating', () => {
    const held = addedCardOf({ card_name: 'カード', status: 'unactivated4Z' });
    expect(held).toEqual({ card_name: 'カード', active: false });
    expect(heldAddedCard({ ...held, extra: 1 })).toEqual(held);
    expect(addedCardOf({ card_name: 'カード', status: 'active' }).active).toBe(true);
    expect(heldAddedCard({ card_name: 'カード' })).toBeUndefined();
    expect(heldAddedCard(null)).toBeUndefined();
  });
});
