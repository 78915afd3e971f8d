import { z } from 'zod';
import './zod-config.ts';

/** GET /api/health (docs/operations.md): `ok` while the database takes a write (200), `unavailable` while it cannot (503). */
export const healthResponseSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
export type HealthResponse = z.infer<typeof healthResponseSchema>;
