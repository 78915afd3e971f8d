import { z } from 'zod';
import { SERVER_MESSAGES } from './messages.ts';

/**
 * Every user-facing text is Japanese (SPEC.md section 5): a schema rule without a message of its
 * own answers the generic validation message, never zod's English default. Imported by every schema
 * module, so that it is in force wherever a contract is parsed.
 */
z.config({ customError: () => SERVER_MESSAGES.validation });
