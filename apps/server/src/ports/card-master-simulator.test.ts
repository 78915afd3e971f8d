import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { cardMasterFromList, loadCardMasterSimulator } from './card-master-simulator.ts';

const master = loadCardMasterSimulator(loadConfig({}).cardMasterFile);
const q = (cardNumber: string, cvc = '123', month = '12', year = '2030') => master.lookup({ cardNumber, cvc, month, year });

describe('card master simulator over config/demo-cards.json', () => {
  it('finds each demo card of the README with its check', async () => {
    const cases = [
      ['4541000000000001', '123', 'OtpSMS'],
      ['5252000000000002', '123', 'OtpEmail'],
      ['3528000000000003', '123', 'Pin'],
      ['3777000000000004', '1234', 'Pin'],
      ['0200000000000005', '', 'OtpSMS'],
    ] as const;
    for (const [number, cvc, check] of cases) {
      const r = await q(number, cvc);
      expect(r.kind, number).toBe('found');
      if (r.kind === 'found') expect(r.card.check).toBe(check);
    }
  });

  it('describes the card for the sub-user row and the holder for the checks', async () => {
    const sms = await q('4541000000000001');
    expect(sms).toEqual({
      kind: 'found',
      card: expect.objectContaining({
        esid: expect.stringMatching(/^ES/),
        houseCard: false,
        numberMask: '4541-****-****-0001',
        holderMobile: '09011110001',
        holderMobileMasked: '090-****-0001',
        cardImageUrl: expect.stringMatching(/^\/content\/cards\//),
      }),
    });
    const house = await q('0200000000000005', '');
    expect(house.kind === 'found' && house.card.houseCard).toBe(true);
    const pin = await q('3777000000000004', '1234');
    expect(pin.kind === 'found' && [pin.card.pin, pin.card.bankAccountLast4]).toEqual(['1234', '5678']);
    const plainPin = await q('3528000000000003');
    expect(plainPin.kind === 'found' && plainPin.card.bankAccountLast4).toBeUndefined();
  });

  it('answers the guides 903 and 904', async () => {
    expect(await q('4541000000000903')).toEqual({ kind: 'guide', resultCode: 903 });
    expect(await q('4541000000000904')).toEqual({ kind: 'guide', resultCode: 904 });
  });

  it('answers not found for anything but the exact number, expiry 12/2030 and security code', async () => {
    const notFound = [
      q('4541000000000001', '124'),
      q('4541000000000001', '1230'),
      q('4541000000000001', ''),
      q('4541000000000001', '123', '11'),
      q('4541000000000001', '123', '12', '2031'),
      q('4541000000000001', '123', '1', '2030'),
      q('4541000000000002'),
      q('3777000000000004', '123'),
      q('0200000000000005', '123'),
      q('4541000000000903', '999'),
    ];
    for (const r of await Promise.all(notFound)) expect(r).toEqual({ kind: 'not_found' });
  });

  it('stops the start on a file that is missing or invalid, naming CARD_MASTER_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cards-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ cards: [{ number: '4541000000000001', cc_month: '12', cc_year: '2030', cvc: '123', answer: 'card' }] }));
    expect(() => loadCardMasterSimulator(join(dir, 'missing.json'))).toThrow(/CARD_MASTER_FILE cannot be read/);
    expect(() => loadCardMasterSimulator(bad)).toThrow(/CARD_MASTER_FILE has an invalid card entry/);
    const guide = { number: '4541000000000903', cc_month: '12', cc_year: '2030', cvc: '123', answer: 'info_guide' };
    expect(() => cardMasterFromList({ cards: [guide, guide] })).toThrow(/twice/);
  });
});
