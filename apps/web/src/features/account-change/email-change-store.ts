import { z } from 'zod';
import { readHeldRecord } from '../../lib/held-record.ts';
import { removeRecord, writeRecord } from '../../lib/storage.ts';

/**
 * The held e-mail change (SPEC.md section 2), kept in the browser's storage so that a reload stays
 * on the code screen: the change's register_token and the new address the code went to. The
 * server's change record is the authority; this only says what the code screen sends and shows.
 */
export interface HeldEmailChange {
  registerToken: string;
  email: string;
}

const NAME = 'emailChange';

const heldEmailChangeSchema = z.object({ registerToken: z.string().min(1), email: z.string() }) satisfies z.ZodType<HeldEmailChange>;

export function holdEmailChange(registerToken: string, email: string): HeldEmailChange {
  const held: HeldEmailChange = { registerToken, email };
  writeRecord(NAME, held);
  return held;
}

/** The held change, if there is one and it is whole; anything else counts as none. */
export const getHeldEmailChange = (): HeldEmailChange | undefined => readHeldRecord(NAME, heldEmailChangeSchema);

export const clearHeldEmailChange = () => removeRecord(NAME);
