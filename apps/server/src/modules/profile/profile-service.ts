import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { profileChangeRequestSchema, ProfileResponse } from '@sso/contracts/account';
import type { ValidationError } from '@sso/contracts/common';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { deniedWith, validationError } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { updateProfile } from '../account/profile-repo.ts';

type ProfileChange = z.infer<ReturnType<typeof profileChangeRequestSchema>>;
type Profile = Omit<ProfileResponse, 'result_code' | 'result_message'>;

/**
 * Fields an open member may see but not change: the birthday was the age check of the sign-up
 * (SPEC.md section 5, age 12 or over), so it stays as registered.
 */
export const READONLY_PROFILE_FIELDS = ['birthday'] as const;

/** Only open members have a profile to see and change (SPEC.md section 1; section 8: 300 sends the SPA to Top). */
const profileForOpenMembersError = () => deniedWith(ACCOUNT_MESSAGES.profileForOpenMembers);

/** The profile of an open member (SPEC.md section 3, "Profile"); undefined for a card member. */
export function profileOf(user: UserRow): Profile | undefined {
  if (user.member_type !== 'open') return undefined;
  return {
    auth_source: 'open',
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    first_name_kana: user.first_name_kana ?? '',
    last_name_kana: user.last_name_kana ?? '',
    sex: user.sex ?? '',
    birthday: user.birthday ?? '',
    tel: user.profile_tel ?? '',
    postal_code: user.postal_code ?? '',
    email_flg: user.email_flg === 1,
    readonly: [...READONLY_PROFILE_FIELDS],
  };
}

/** The open member's profile, or 300 for a card member (the SPA then goes to Top). */
export function requireOpenProfile(user: UserRow): Profile {
  const profile = profileOf(user);
  if (!profile) throw profileForOpenMembersError();
  return profile;
}

/**
 * The rules beyond the field rules of the contract: a read-only field keeps its value. The tel is
 * the profile's phone, no login id (decision 0014): any number is taken as it is, so that the
 * answer never tells whether a number is someone's.
 */
function ruleErrors(user: UserRow, input: ProfileChange): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const key of READONLY_PROFILE_FIELDS) {
    // Sent unchanged is fine: the SPA posts the whole profile back.
    if (input[key] !== (user[key] ?? '')) errors.push({ key, message: ACCOUNT_MESSAGES.readonlyField });
  }
  return errors;
}

/**
 * POST /api/user/profile/change (SPEC.md sections 3 and 5): dry_run 1 only checks (the
 * confirm mode), 0 writes the profile and logs 'profile_changed' in the same transaction. The tel
 * is the profile's phone only: a login mobile number is added by /api/auth/tel/change.
 * The caller has checked that the member is an open member (requireOpenProfile).
 */
export async function changeProfile(
  deps: { db: Kysely<Database>; clock: Clock },
  user: UserRow,
  input: ProfileChange,
  device: string | null,
): Promise<void> {
  const errors = ruleErrors(user, input);
  if (errors.length > 0) throw validationError(errors);
  if (input.dry_run === 1) return;
  const now = deps.clock.now();
  const { last_name, first_name, last_name_kana, first_name_kana, sex, tel, postal_code, email_flg } = input;
  const profile = { last_name, first_name, last_name_kana, first_name_kana, sex, profile_tel: tel, postal_code, email_flg: email_flg ? 1 : 0 };
  await deps.db.transaction().execute(async (trx) => {
    await updateProfile(trx, user.id, profile, now);
    await logActivity(trx, { userId: user.id, event: 'profile_changed', device, at: now });
  });
}
