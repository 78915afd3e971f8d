import { z } from 'zod';
import './zod-config.ts';

/** The readiness checks a node can fail, in the order they are tried (docs/operations.md "Health and draining"). */
export const READINESS_CHECKS = ['draining', 'database', 'migrations', 'signing_key'] as const;

/**
 * GET /api/health/ready and its older name GET /api/health (docs/operations.md): `ok` (200) while the
 * node can serve; `unavailable` (503) naming the first check that fails, and nothing more.
 */
export const healthResponseSchema = z.object({ status: z.enum(['ok', 'unavailable']), failing: z.enum(READINESS_CHECKS).optional() });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** GET /api/health/live: the process answers; always `ok`. */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });
