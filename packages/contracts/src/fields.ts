import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.ts';

/** A required text field answering "入力してください" when empty (SPEC.md section 5). */
export const requiredText = (max = 256) =>
  z
    .string({ error: M.required })
    .trim()
    .min(1, { error: M.required })
    .max(max, { error: M.required });

/** PKCE verifier and challenge alphabet (RFC 7636 section 4.1). */
export const PKCE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
export const PKCE_CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;
