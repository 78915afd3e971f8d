import type { TransferResultResponse, TransferSelectResponse } from '@sso/contracts/points';
import { readRecord, removeRecord, writeRecord } from '../../lib/storage.ts';

/**
 * The held point transfer, kept in the browser's storage like the sign-up's step so that a reload
 * stays on the code screen: the select answer (where the code went, the flow's register_token),
 * then the transfer's result for the finish page. The server's flow is the authority.
 */
export interface HeldTransfer {
  registerToken: string;
  destination: 'sms' | 'email';
  email: string;
  tel: string;
}

export interface TransferResult {
  moved: number;
  open: number;
  card: number;
}

const FLOW = 'pointTransfer';
const RESULT = 'pointTransferResult';

/** The code screen of each destination (SPEC.md section 2, "Point transfer routes"). */
export const OTP_PATHS: Record<HeldTransfer['destination'], string> = {
  sms: '/aqf/transfer/open/sms/otp',
  email: '/aqf/transfer/open/email/otp',
};

export function holdTransfer(res: Pick<TransferSelectResponse, 'register_token' | 'destination_to' | 'email' | 'tel'>): HeldTransfer {
  const held: HeldTransfer = { registerToken: res.register_token, destination: res.destination_to, email: res.email, tel: res.tel };
  writeRecord(FLOW, held);
  removeRecord(RESULT);
  return held;
}

/** The held transfer, if there is one and it is whole; anything else counts as none. */
export function getHeldTransfer(): HeldTransfer | undefined {
  const h = readRecord<Partial<Record<keyof HeldTransfer, unknown>>>(FLOW);
  if (!h || typeof h.registerToken !== 'string' || !h.registerToken) return undefined;
  if (h.destination !== 'sms' && h.destination !== 'email') return undefined;
  if (typeof h.email !== 'string' || typeof h.tel !== 'string') return undefined;
  return { registerToken: h.registerToken, destination: h.destination, email: h.email, tel: h.tel };
}

export const clearHeldTransfer = () => removeRecord(FLOW);

/** The transfer is over: the flow is dropped and its result kept for the finish page. */
export function finishTransfer(res: Pick<TransferResultResponse, 'moved_points' | 'aqf_point_open' | 'aqf_point_na'>): TransferResult {
  const result: TransferResult = { moved: res.moved_points, open: res.aqf_point_open, card: res.aqf_point_na };
  removeRecord(FLOW);
  writeRecord(RESULT, result);
  return result;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

export function getTransferResult(): TransferResult | undefined {
  const r = readRecord<Partial<Record<keyof TransferResult, unknown>>>(RESULT);
  if (!r || !isCount(r.moved) || !isCount(r.open) || !isCount(r.card)) return undefined;
  return { moved: r.moved, open: r.open, card: r.card };
}
