import { z } from 'zod';
import type { TransferResultResponse, TransferSelectResponse } from '@sso/contracts/points';
import { readHeldRecord } from '../../lib/held-record.ts';
import { removeRecord, writeRecord } from '../../lib/storage.ts';

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

const heldTransferSchema = z.object({
  registerToken: z.string().min(1),
  destination: z.enum(['sms', 'email']),
  email: z.string(),
  tel: z.string(),
}) satisfies z.ZodType<HeldTransfer>;

const count = z.number().nonnegative();
const transferResultSchema = z.object({ moved: count, open: count, card: count }) satisfies z.ZodType<TransferResult>;

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
export const getHeldTransfer = (): HeldTransfer | undefined => readHeldRecord(FLOW, heldTransferSchema);

export const clearHeldTransfer = () => removeRecord(FLOW);

/** The transfer is over: the flow is dropped and its result kept for the finish page. */
export function finishTransfer(res: Pick<TransferResultResponse, 'moved_points' | 'aqf_point_open' | 'aqf_point_na'>): TransferResult {
  const result: TransferResult = { moved: res.moved_points, open: res.aqf_point_open, card: res.aqf_point_na };
  removeRecord(FLOW);
  writeRecord(RESULT, result);
  return result;
}

/** The result for the finish page, if there is one and it is whole (three finite counts); anything else counts as none. */
export const getTransferResult = (): TransferResult | undefined => readHeldRecord(RESULT, transferResultSchema);
