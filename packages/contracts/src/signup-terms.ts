import { CLIENT_IDS } from './constants.ts';
import { PRODUCT_KEY, type TermKey } from './terms.ts';

/** The ID's own terms (SPEC.md section 3, ServiceOn{product} and PersonalInfoOn{product}): every sign-up agrees to them. */
export const PRODUCT_TERMS: readonly TermKey[] = [`ServiceOn${PRODUCT_KEY}`, `PersonalInfoOn${PRODUCT_KEY}`];

/**
 * A partner service's own terms (SPEC.md section 3 term keys), as config/clients.json lists them
 * after the ID's (a server test keeps the two alike): the line answer's three and Net Answer's one.
 */
const PARTNER_TERMS: ReadonlyMap<string, readonly TermKey[]> = new Map([
  [CLIENT_IDS.lineAnswer, ['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount']],
  [CLIENT_IDS.netAnswer, ['ServiceOnNetAnswer']],
]);

/**
 * The terms an open sign-up shows where the member agrees, for the client(s) it came from (its
 * `client_id`, comma-separated, SPEC.md section 2): the ID's own, then each partner's own, once
 * each. A sign-up from the line answer shows the line answer's terms; one from the web, a portal
 * or an unknown client the ID's only. A Map, not an object: the client_id comes from the query, and
 * "constructor" or "__proto__" must read as an unknown client, not as something an object inherits.
 */
export function signupTermKeys(clientIds: string): TermKey[] {
  const keys = [...PRODUCT_TERMS];
  for (const id of clientIds.split(',')) for (const k of PARTNER_TERMS.get(id.trim()) ?? []) if (!keys.includes(k)) keys.push(k);
  return keys;
}
