import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { clearHeldTransfer, finishTransfer, getHeldTransfer, getTransferResult, holdTransfer, OTP_PATHS } = await import('./transfer-store.ts');

const answer = { register_token: 'reg-1', destination_to: 'sms' as const, email: 'a@example.com', tel: '090-****-0001' };

describe('the held point transfer', () => {
  beforeEach(() => store.clear());

  it('keeps the select answer across a reload and names its code screen', () => {
    const held = holdTransfer(answer);
    expect(getHeldTransfer()).toEqual({ registerToken: 'reg-1', destination: 'sms', email: 'a@example.com', tel: '090-****-0001' });
    expect(OTP_PATHS[held.destination]).toBe('/aqf/transfer/open/sms/otp');
    expect(OTP_PATHS[holdTransfer({ ...answer, destination_to: 'email', tel: '' }).destination]).toBe('/aqf/transfer/open/email/otp');
    clearHeldTransfer();
    expect(getHeldTransfer()).toBeUndefined();
  });

  it('drops the flow and keeps the result once the transfer is over; a new select forgets the old result', () => {
    holdTransfer(answer);
    expect(finishTransfer({ moved_points: 1200, aqf_point_open: 0, aqf_point_na: 1500 })).toEqual({ moved: 1200, open: 0, card: 1500 });
    expect(getHeldTransfer()).toBeUndefined();
    expect(getTransferResult()).toEqual({ moved: 1200, open: 0, card: 1500 });
    holdTransfer(answer);
    expect(getTransferResult()).toBeUndefined();
  });

  it('counts a broken or partial record as none', () => {
    for (const raw of ['{', 'null', '{"registerToken":"r","destination":"fax","email":"","tel":""}', '{"registerToken":"","destination":"sms","email":"","tel":""}', '{"registerToken":"r","destination":"sms","email":1,"tel":""}']) {
      store.set('sso.pointTransfer', raw);
      expect(getHeldTransfer(), raw).toBeUndefined();
    }
    for (const raw of ['{"moved":"1","open":0,"card":0}', '{"moved":-1,"open":0,"card":0}', '{"moved":1,"open":0}']) {
      store.set('sso.pointTransferResult', raw);
      expect(getTransferResult(), raw).toBeUndefined();
    }
  });
});
