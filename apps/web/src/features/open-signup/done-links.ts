import { isCardholdersOnly } from '@sso/contracts/client-origin';
import type { ServiceLink } from '@sso/contracts/user';

/** A way back to a service: its name and the direct-login hand-off that takes the member there. */
export interface ReturnLink {
  label: string;
  to: string;
  clientId: string;
}

/**
 * What the finish page offers (SPEC.md section 2, "Open sign-up finish"): no service, a button to
 * log in; one service, a way back to it; several, a list of them. A way back goes through
 * /subuser/redirect/service (SPEC.md section 2, "Card routes"), the direct-login hand-off, which
 * the login guard keeps across the login.
 */
export type DoneChoice = { kind: 'login' } | { kind: 'one'; link: ReturnLink } | { kind: 'list'; links: ReturnLink[] };

export const returnLink = (s: ServiceLink): ReturnLink => ({
  label: `${s.name}に戻る`,
  to: `/subuser/redirect/service?${new URLSearchParams({ client_id: s.client_id, service_name: s.name }).toString()}`,
  clientId: s.client_id,
});

/**
 * The services of the sign-up a new open member may not use yet: a cardholders-only one (SPEC.md
 * section 6), which the finish page names in a notice with the way on instead of offering it.
 */
export const cardholdersOnlyServices = (links: readonly ServiceLink[]): ServiceLink[] => links.filter((l) => isCardholdersOnly(l.client_id));

/** The choice among the services the new open member may use: never a cardholders-only one (the server would refuse it). */
export function doneChoice(all: readonly ServiceLink[]): DoneChoice {
  const links = all.filter((l) => !isCardholdersOnly(l.client_id));
  if (links.length === 0) return { kind: 'login' };
  if (links.length === 1) return { kind: 'one', link: returnLink(links[0]!) };
  return { kind: 'list', links: links.map(returnLink) };
}
