import { z } from 'zod';
import { SERVER_MESSAGES } from './messages.ts';

/**
 * Every user-facing text is Japanese (SPEC.md section 5): a schema rule without a message of its
 * own answers the generic validation message, never zod's English default. Imported by every schema
 * module, so that it is in force wherever a contract is parsed.
 *
 * In the browser zod runs without its compiled fast path (`jitless`): the SPA's Content-Security-
 * Policy allows no `eval`, so zod's probe (`new Function`) would only fail, on the first parse of
 * every page load, and be reported as a CSP violation. The server keeps the fast path.
 */
z.config({ customError: () => SERVER_MESSAGES.validation, jitless: 'document' in globalThis });
