import { OK_RESPONSE } from '@sso/contracts/common';
import type { OpenSignupResponse } from '@sso/contracts/open-signup';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import type { ServiceLink } from '@sso/contracts/user';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { linkInvalidError } from '../../lib/app-error.ts';
import { newId, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { redeemToken } from '../verification/one-time-secret.ts';
import { insertOpenMember } from './open-member.ts';
import { deletePending, takePending, type PendingRow } from './pending-repo.ts';
import type { OpenSignupDeps } from './register-service.ts';

type ActivateDeps = Pick<OpenSignupDeps, 'db' | 'clock' | 'clients'>;

/** The services to return to after the sign-up: its client ids that are service links (SPEC.md section 3). */
function serviceLinks(deps: ActivateDeps, clientIds: string): ServiceLink[] {
  return clientIds
    .split(',')
    .map((id) => deps.clients.get(id))
    .filter((c) => c?.service_link === true)
    .map((c) => ({ name: c!.name, client_id: c!.client_id }));
}

/**
 * Uses the link up and creates the member, all or nothing. The secret is consumed first by a
 * conditional update, so that of parallel activations exactly one goes on (the others, and any
 * later use, answer 902). The phone entered is the profile's only: whether it is someone's login
 * number plays no part (decision 0014).
 */
async function createMember(deps: ActivateDeps, tokenHash: string, device: string | null, taken: { id?: string }): Promise<PendingRow> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const pendingId = (await redeemToken(trx, 'open_activation', tokenHash, now))?.subject;
    if (!pendingId) throw linkInvalidError();
    taken.id = pendingId;
    // A registration replaced by a newer one for the same e-mail is gone: its link leads nowhere.
    const pending = await takePending(trx, pendingId, now);
    if (!pending) throw linkInvalidError();
    const userId = newId();
    // The terms the member agreed to on the form: the web client's and those of the service(s) the sign-up came from (signup-terms.ts).
    const keys = new Set([WEB_CLIENT_ID, ...pending.client_ids.split(',')].flatMap((id) => deps.clients.get(id)?.terms ?? []));
    const terms = [...keys].filter(isTermKey).map((key) => ({ key, version: TERM_VERSIONS[key] }));
    await insertOpenMember(trx, { id: userId, pending, terms, now });
    await logActivity(trx, { userId, event: 'signup', clientId: pending.client_ids.split(',')[0], device, at: now });
    return pending;
  });
}

/**
 * POST /api/signup/open/otp (SPEC.md sections 4 and 7): the activation link. An unknown,
 * expired, used or replaced link answers 902; so does an e-mail that became a member's since the
 * registration (the pending registration is then dropped).
 */
export async function activateOpenSignup(deps: ActivateDeps, token: string, device: string | null): Promise<OpenSignupResponse> {
  const taken: { id?: string } = {};
  try {
    const pending = await createMember(deps, sha256(token), device, taken);
    return { ...OK_RESPONSE, email: pending.email, links: serviceLinks(deps, pending.client_ids) };
  } catch (err) {
    if (uniqueViolation(err) === undefined) throw err;
    // The e-mail became a member's since the registration.
    if (taken.id) await deletePending(deps.db, taken.id);
    throw linkInvalidError();
  }
}
