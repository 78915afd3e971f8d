import { ACR_VALUES, SIGNING_ALGS } from '@sso/contracts/constants';
import { ALL_SCOPES } from '@sso/contracts/scopes';
import { ASSERTION_ALGS } from '../oauth/client-assertion.ts';
import { DPOP_ALGS } from '../oauth/dpop.ts';

// Where this server's OpenID Connect endpoints are, below the issuer (each a route of the API
// catalogue, packages/contracts/src/api-catalogue.ts, registered from it by modules/oidc/routes.ts).
export const AUTHORIZE_PATH = '/api/auth/authorize';
export const JWKS_PATH = '/api/auth/jwks';
export const USERINFO_PATH = '/api/auth/userinfo';
export const END_SESSION_PATH = '/api/auth/end_session';
export const PAR_PATH = '/api/auth/par';

/** The claims the ID token and userinfo may carry (OpenID Connect Core 1.0 sections 2 and 5.1; modules/oidc/userinfo.ts). */
const CLAIMS = [
  'iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'sid', 'at_hash',
  'name', 'family_name', 'given_name', 'family_name#ja-Kana-JP', 'given_name#ja-Kana-JP', 'birthdate', 'gender', 'updated_at',
  'email', 'email_verified', 'phone_number', 'phone_number_verified', 'card_member',
];

/**
 * The one description of this server as an authorization server and OpenID Provider, answered both at
 * /.well-known/oauth-authorization-server (RFC 8414) and at /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0 section 3): one object, so the two cannot disagree. RFC 8414 section 2
 * takes the OpenID Connect fields as they are (registered in its section 7.1.2).
 */
export function providerMetadata(issuer: string) {
  return {
    issuer,
    // The login form's POST and the SSO session's GET (decision 0025).
    authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}/api/auth/token`,
    revocation_endpoint: `${issuer}/api/auth/revoke`,
    introspection_endpoint: `${issuer}/api/subuser/introspect`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    userinfo_endpoint: `${issuer}${USERINFO_PATH}`,
    end_session_endpoint: `${issuer}${END_SESSION_PATH}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    // The password grant is the direct-login grant, not RFC 6749 section 4.3: it is not advertised (RFC 9700 section 2.4).
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    // A client's one method (RFC 7591 section 2); private_key_jwt's assertions by ASSERTION_ALGS (decision 0038).
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    scopes_supported: ALL_SCOPES,
    // Every client knows the member by an identifier of its own sector (Core section 8.1; subject.ts).
    subject_types_supported: ['pairwise'],
    // RS256 first: Core section 15.1 makes it mandatory, Discovery section 3 says the list MUST hold it (decision 0034).
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    // A client that registers userinfo_signed_response_alg gets userinfo as a JWT (Core section 5.3.2; userinfo-response.ts).
    userinfo_signing_alg_values_supported: [...SIGNING_ALGS],
    claims_supported: CLAIMS,
    claim_types_supported: ['normal'],
    acr_values_supported: Object.values(ACR_VALUES),
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    ui_locales_supported: ['ja'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    // Discovery section 3: true unless said otherwise. OpenID Connect's request object by reference,
    // which is not RFC 9126's request_uri: that one is answered by the endpoint below (decision 0036).
    request_uri_parameter_supported: false,
    // RFC 9126 section 5: pushed requests are taken from every client, required only of a client
    // whose definition says so (`require_pushed_authorization_requests`), not server-wide.
    pushed_authorization_request_endpoint: `${issuer}${PAR_PATH}`,
    require_pushed_authorization_requests: false,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
    authorization_response_iss_parameter_supported: true,
    // DPoP (RFC 9449 section 5.1; docs/decisions/0037-dpop.md): the proofs' asymmetric algorithms.
    dpop_signing_alg_values_supported: DPOP_ALGS,
  };
}
