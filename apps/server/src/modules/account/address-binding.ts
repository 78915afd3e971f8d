import { lookupDigest } from '../../lib/secrets.ts';

/**
 * What a mailed link is bound to: a keyed digest of the address it is mailed to (a reset link,
 * decision 0011; a "not me" link, decision 0033). A link whose address is no longer the member's
 * is known by it, and the address is not kept in the clear beside the secret.
 */
export const addressBinding = (email: string) => lookupDigest(`reset-to:${email.toLowerCase()}`);
