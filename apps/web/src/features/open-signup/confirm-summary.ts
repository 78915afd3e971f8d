import { newsletterRow, PASSWORD_MASK, personalRows, type SummaryRow } from '../../lib/profile-summary.ts';
import type { OpenSignupFields } from './open-signup-api.ts';

/**
 * The confirm mode's summary (SPEC.md section 2, "Open sign-up"): every field of the input mode in
 * its order, the names family first, the password masked.
 */
export function confirmSummary(v: OpenSignupFields): SummaryRow[] {
  return [
    { label: 'メールアドレス', value: v.email },
    ...personalRows(v),
    { label: 'パスワード', value: PASSWORD_MASK },
    newsletterRow(v),
    { label: '利用規約', value: v.check ? '同意する' : '' },
  ];
}
