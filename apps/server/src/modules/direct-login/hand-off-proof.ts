import { clientOrigin } from '@sso/contracts/client-origin';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { validationError } from '../../lib/app-error.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { verifyPkce } from '../oauth/pkce.ts';

/** The proof fields of an issuing request (contracts: S256 only, the challenge's RFC 7636 alphabet). */
export interface HandOffProofInput {
  code_challenge?: string | undefined;
  code_challenge_method?: 'S256' | undefined;
}

/**
 * A public client other than the web SPA is an app reached through its custom URL scheme (SPEC.md
 * section 1), which any other app can register too: its tokens must be bound to a proof only the
 * app that asked holds (decision 0013; RFC 8252 section 8.1, RFC 7636 section 1).
 */
export const needsHandOffProof = (client: OAuthClient): boolean => client.type === 'public' && clientOrigin(client.client_id) !== 'web';

const invalid = (key: string) => validationError([{ key, message: SERVER_MESSAGES.validation }]);

/**
 * The challenge a token for `client` is bound to (decision 0013): required for a portal app, none
 * for the web (the SPA that redeems it at /direct/callback never holds a verifier), optional for a
 * confidential partner (who authenticates with its secret; a challenge it gives is checked too).
 * A challenge without its method is refused (RFC 7636 section 4.3 would read it as `plain`).
 */
export function challengeFor(client: OAuthClient, input: HandOffProofInput): string | null {
  const challenge = input.code_challenge ?? null;
  if (challenge !== null && input.code_challenge_method !== 'S256') throw invalid('code_challenge_method');
  if (challenge === null && input.code_challenge_method !== undefined) throw invalid('code_challenge');
  if (challenge === null && needsHandOffProof(client)) throw invalid('code_challenge');
  if (challenge !== null && clientOrigin(client.client_id) === 'web') throw invalid('code_challenge');
  return challenge;
}

/**
 * Whether a redemption proves it comes from the app the token was issued to (decision 0013): the
 * verifier of the stored challenge (RFC 7636 section 4.6, S256, constant time). Without a stored
 * challenge, no verifier may come (RFC 9700 section 4.8.2: a downgrade is refused) and the client
 * must not be one that needs the proof.
 */
export function proofHolds(challenge: string | null, verifier: string | undefined, client: OAuthClient): boolean {
  if (challenge !== null) return verifyPkce(verifier, challenge);
  return verifier === undefined && !needsHandOffProof(client);
}
