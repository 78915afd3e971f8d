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

  it('describes each card by holder, status and points', async () => {
    const demo = await q('4541000000000101');
    expect(demo.kind === 'found' && demo.card).toMatchObject({ esid: 'ES0000000001', holderId: 'H0000001', status: 'active', pointCapable: true });
    const noPoints = await q('3528000000000203');
    expect(noPoints.kind === 'found' && noPoints.card.pointCapable).toBe(false);
    expect((await master.byEsid('ES0000000102'))?.status).toBe('unactivated4Z');
    expect(await master.byEsid('ES-unknown')).toBeUndefined();
  });

  it("names the cards ending in four digits whose holder was born on a date: the desk search support's card search asks", async () => {
    expect(await master.cardsByEndingAndBirthday('0101', '19850615')).toEqual(['ES0000000001']);
    expect(await master.cardsByEndingAndBirthday('0102', '19850615')).toEqual(['ES0000000102']);
    expect(await master.cardsByEndingAndBirthday('0101', '19850616')).toEqual([]);
    expect(await master.cardsByEndingAndBirthday('9999', '19850615')).toEqual([]);
  });

  it("lists a holder's cards, and finds numberless cards by the holder's mobile only", async () => {
    expect((await master.cardsOfHolder('H0000001')).map((c) => c.esid).sort()).toEqual(['ES0000000001', 'ES0000000102', 'ES0000000103']);
    expect(await master.cardsOfHolder('H-none')).toEqual([]);
    expect((await master.numberlessByMobile('09033330301')).map((c) => c.esid)).toEqual(['ES0000000301']);
    expect(await master.numberlessByMobile('09000000001')).toEqual([]);
    // A numberless card has no printed number: typing its internal number finds nothing.
    expect(await q('4541000000000301')).toEqual({ kind: 'not_found' });
  });
});

describe('card master simulator: activation and enabling', () => {
  const fresh = () => loadCardMasterSimulator(loadConfig({}).cardMasterFile);

  it('activates with the last 6 digits of the card number, the inquiry number or the mobile, by status', async () => {
    const m = fresh();
    expect(await m.activate('ES0000000201', { activationKey: '000202' })).toBe('wrong_key');
    expect(await m.activate('ES0000000201', { activationKey: '000201' })).toBe('activated');
    expect((await m.byEsid('ES0000000201'))?.status).toBe('active');
    expect(await m.activate('ES0000000201', { activationKey: '000201' })).toBe('not_activatable');
    // unactivated4Z: the inquiry number 8800123456, not the card number.
    expect(await m.activate('ES0000000102', { activationKey: '000102' })).toBe('wrong_key');
    expect(await m.activate('ES0000000102', { activationKey: '123456' })).toBe('activated');
    // unactivated4M: the holder's mobile 09022220202.
    expect(await m.activate('ES0000000202', { activationKey: '000202' })).toBe('wrong_key');
    expect(await m.activate('ES0000000202', { activationKey: '220202' })).toBe('activated');
  });

  it("activates an unactivated4M card by the holder's whole mobile number, and no other kind by mobile", async () => {
    const m = fresh();
    expect(await m.activate('ES0000000201', { mobile: '09022220001' })).toBe('wrong_key');
    expect(await m.activate('ES0000000202', { mobile: '09022220203' })).toBe('wrong_key');
    expect(await m.activate('ES0000000202', { mobile: '09022220202' })).toBe('activated');
    expect(await m.activate('ES0000000001', { activationKey: '000101' })).toBe('not_activatable');
    expect(await m.activate('ES-unknown', { activationKey: '000000' })).toBe('not_activatable');
  });

  it('enables an inactive card once, and nothing else', async () => {
    const m = fresh();
    expect(await m.enable('ES0000000001')).toBe(false);
    expect(await m.enable('ES0000000103')).toBe(true);
    expect((await m.byEsid('ES0000000103'))?.status).toBe('active');
    expect(await m.enable('ES0000000103')).toBe(false);
    expect(await m.enable('ES-unknown')).toBe(false);
  });

  it("gives the holder's name where the card master holds one (Top greets the member by it), and none where it holds none", async () => {
    expect((await master.byEsid('ES0000000001'))?.holderName).toBe('佐藤 太郎');
    const base = { number: '4541000000009999', cc_month: '12', cc_year: '2030', cvc: '123', answer: 'card', esid: 'E9', holder_id: 'H9', brand: 'VISA', card_name: 'x', card_image_url: '/content/cards/x.svg', member_div_code: '01', number_mask: 'm', check: 'OtpEmail' };
    const nameless = cardMasterFromList({ cards: [base] });
    expect(await nameless.byEsid('E9')).not.toHaveProperty('holderName');
    expect(() => cardMasterFromList({ cards: [{ ...base, holder_name: '' }] })).toThrow(/holder_name/);
  });

  it('needs the data each variant checks against', () => {
    const base = { number: '4541000000009999', cc_month: '12', cc_year: '2030', cvc: '123', answer: 'card', esid: 'E9', holder_id: 'H9', brand: 'VISA', card_name: 'x', card_image_url: '/content/cards/x.svg', member_div_code: '01', number_mask: 'm', check: 'Pin', pin: '1234' };
    expect(() => cardMasterFromList({ cards: [{ ...base, status: 'unactivated4Z' }] })).toThrow(/inquiry_number/);
    expect(() => cardMasterFromList({ cards: [{ ...base, status: 'unactivated4M' }] })).toThrow(/holder_mobile/);
    expect(() => cardMasterFromList({ cards: [base, { ...base, number: '4541000000009998' }] })).toThrow(/esid is listed twice/);
  });
});

describe('card master simulator: files', () => {
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
