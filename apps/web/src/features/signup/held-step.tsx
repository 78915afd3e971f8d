import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getHeldSignup, STEP_PATHS, type HeldSignup, type SignupStep } from './signup-store.ts';

/**
 * Renders a sign-up step from the held response (SPEC.md section 4): without one the step goes to
 * Welcome; a held response at another step (a reload after a dialog, the back button) goes to the
 * screen of that step. The response is read once, so that a step that advances keeps its screen
 * (the SMS step's "go to next step" dialog).
 */
export function HeldStep({ step, children }: { step: SignupStep; children: (held: HeldSignup) => ReactNode }) {
  const [held] = useState(getHeldSignup);
  if (!held) return <Navigate to="/" replace />;
  if (held.step !== step) return <Navigate to={STEP_PATHS[held.step]} replace />;
  return children(held);
}
