import { showFailure, type FailureView } from '../../lib/failure-view.ts';
import { clearHeldSignup } from './signup-store.ts';

/**
 * What a card sign-up screen does with a failed answer: the common handling (lib/failure-view.ts,
 * SPEC.md section 8); an access-denied answer means the server's flow is over (expired, finished
 * or out of order), so the held sign-up response goes too.
 */
export const showSignupFailure = (e: unknown, view: FailureView): void => {
  showFailure(e, { ...view, onFlowEnded: clearHeldSignup });
};
