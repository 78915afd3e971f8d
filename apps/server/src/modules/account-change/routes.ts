import type { FastifyInstance } from 'fastify';
import { memberPost } from '../oauth/member-post.ts';
import { afterFreshProof } from '../fresh-proof/require-fresh-proof.ts';
import { confirmEmailChange, requestEmailChange, type AccountChangeDeps } from './email-change-service.ts';
import type { PasskeyDeps } from '../passkeys/passkey-deps.ts';
import { changePassword } from './password-change-service.ts';
import { confirmTelChange, requestTelChange } from './tel-change-service.ts';
import { withdraw } from './withdraw-service.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

/**
 * E-mail change, login mobile number, password change and withdrawal (SPEC.md sections 4 and 7). The
 * Bearer token is checked before the body, so that a caller without one learns nothing but 401; the
 * e-mail change, the new login mobile number and the withdrawal then need the session's fresh proof
 * (decision 0012); the password change needs the member's proof in the request itself.
 */
export function registerAccountChangeRoutes(app: FastifyInstance, deps: AccountChangeDeps & PasskeyDeps & Pick<TokenDeps, 'clients' | 'dpop'>): void {
  // Sensitive changes need a fresh proof of presence on the session (decision 0012).
  memberPost(app, deps, 'POST /api/auth/email/change', afterFreshProof(deps, (call) =>
    requestEmailChange(deps, call.user, call.input, call.token.familyId),
  ));

  // The Bearer token names the session: only the one that asked for the change may confirm it (decision 0012).
  memberPost(app, deps, 'POST /api/auth/email/change/otp', ({ token, input, device }) =>
    confirmEmailChange(deps, input, { device, session: token }),
  );

  // The login mobile number (decision 0014): both steps need the member's Bearer token; adding a login
  // identifier needs the session's fresh proof (decision 0012).
  memberPost(app, deps, 'POST /api/auth/tel/change', afterFreshProof(deps, (call) =>
    requestTelChange(deps, call.user, call.input),
  ));
  memberPost(app, deps, 'POST /api/auth/tel/change/otp', ({ user, input, device }) =>
    confirmTelChange(deps, user, input, { device }),
  );

  // The member proves it in the request itself, the current password or a passkey (OWASP ASVS 5.0
  // V6.2.3): no fresh-proof window is enough for the password change (decision 0012).
  memberPost(app, deps, 'POST /api/auth/password/change', (call) =>
    changePassword(deps, call, { device: call.device }),
  );

  memberPost(app, deps, 'POST /api/auth/cancel', afterFreshProof(deps, (call) =>
    withdraw(deps, call.user, { device: call.device }),
  ));
}
