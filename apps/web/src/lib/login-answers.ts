/**
 * The answer schemas of the calls the login route makes (the header's account, the logout, the
 * authorize check, the login, the passkey sign-in, the refresh), by the names apiPost takes for
 * them: the contracts' own schemas (packages/contracts, as api-catalogue.ts names them), in one
 * chunk that loads with the first such request, so that zod stays out of that route's JavaScript
 * (bench/lib/spa-size.ts).
 */
export { authorizeCheckResponseSchema, loginResponseSchema, tokenResponseSchema } from '@sso/contracts/auth';
export { baseResponseSchema } from '@sso/contracts/common';
export { revocationResponseSchema } from '@sso/contracts/oauth-endpoints';
export { ceremonyOptionsResponseSchema, passkeyLoginResponseSchema } from '@sso/contracts/passkeys';
export { userResponseSchema } from '@sso/contracts/user';
