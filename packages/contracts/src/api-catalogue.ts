import { z } from 'zod';
import * as account from './account.ts';
import * as adminClients from './admin-clients.ts';
import * as members from './admin-members.ts';
import { apiDocumentSchema, type ApiEntry, type ApiMethod, type ApiRoute } from './api-route.ts';
import * as auth from './auth.ts';
import * as cards from './cards.ts';
import { baseResponseSchema } from './common.ts';
import * as direct from './direct-login.ts';
import { healthResponseSchema, livenessResponseSchema } from './health.ts';
import * as oauth from './oauth-endpoints.ts';
import * as oidc from './oidc.ts';
import * as open from './open-signup.ts';
import * as operators from './operators.ts';
import * as passkeys from './passkeys.ts';
import * as points from './points.ts';
import { SCOPES } from './scopes.ts';
import * as sessions from './sessions.ts';
import * as signup from './signup.ts';
import * as top from './top.ts';
import * as upgrade from './upgrade.ts';
import * as user from './user.ts';

/** The schemas whose birthday rule counts from today: the rule is a check, the document shows the shape only. */
const TODAY = open.japanDate(Date.now());
/** `result_code` 0 and its message, nothing else. */
const ok = baseResponseSchema;
const FRESH = 'Needs a fresh proof of presence on the session (decision 0012): otherwise 401 `insufficient_user_authentication` (RFC 9470).';
/** The operator API's sensitive actions (decision 0032). */
const OPERATOR_FRESH = 'Needs a fresh passkey proof of the last 5 minutes (POST /api/admin/reauth): otherwise 401 `insufficient_user_authentication` (RFC 9470).';
const NOT_REDIRECTED =
  'An unknown client_id or unregistered redirect_uri is never redirected to: 400 page (RFC 6749 section 4.1.2.1). A pushed request (RFC 9126, decision 0036) comes as client_id and request_uri only, the rest being ignored; an unknown, used, expired or other client\'s request_uri, or a plain request of a client that requires pushed requests, is the 400 page too.';
const TERMS_FIRST = "902 with `terms` while the service's terms are outstanding (decision 0013).";
/** The token endpoint's answer: the direct-login grant adds the member type. */
const TOKENS = z.union([auth.tokenResponseSchema, direct.directLoginTokenGrantResponseSchema]);

/**
 * Every route of the API under /api and /.well-known (SPEC.md section 7), one line a route, keyed by
 * `METHOD path`: the only place an endpoint is declared (api-route.ts says what each field means).
 * The server registers each route from its entry (apps/server/src/http/route.ts: method, path, the
 * Bearer scope, the error style and the body's contract; client authentication by its `client`,
 * modules/oauth/client-route.ts); the OpenAPI document at GET /api/openapi.json is generated from it;
 * the abuse suite's fuzz and cross-member tables are keyed by it (e2e/abuse/support/fuzz-endpoints.ts,
 * e2e/abuse/support/cross-member-table.ts), so that an entry without theirs does not compile
 * (decision 0030). apps/server/src/http/openapi.test.ts keeps it equal
 * to the routes the server registers, both ways. A new route is a new line in its group: its
 * `bearer` is the scope it needs (decision 0010), an operator API's `role` the least operator role
 * it needs or `public` (decision 0032; apps/server/src/modules/operators/operator-post.ts), `oauth: true` for RFC 6749 error bodies, the
 * contract schemas of its body and answer (a new answer shape gets its schema in this package first).
 *
 * The web imports single schemas, never this module: it holds every contract at once.
 */
const ENTRIES = {
  // OAuth 2.0 (RFC 6749, 7009, 7636, 7662, 8414, 9207)
  'GET /.well-known/oauth-authorization-server': { tag: 'oauth', answer: oauth.authorizationServerMetadataSchema, summary: 'Authorization server metadata (RFC 8414)' },
  'POST /api/auth/authorize': { tag: 'oauth', query: auth.authorizeQuerySchema, form: auth.authorizeFormSchema, answer: 'redirect', summary: 'Authorization by the login form: 303 to redirect_uri with code, state and iss (or error)', ja: 'ログインして認可する', note: NOT_REDIRECTED },
  'GET /api/auth/authorize': { tag: 'oauth', query: auth.authorizeQuerySchema, answer: 'redirect', summary: "Authorization endpoint (OpenID Connect Core 1.0 section 3.1.2): 303 with a code from the browser's SSO session, else to the login page; prompt=none answers login_required or consent_required", note: `${NOT_REDIRECTED} Decision 0026.` },
  'POST /api/auth/logout': { tag: 'oauth', json: auth.logoutRequestSchema, answer: ok, summary: "The SPA's logout: this browser's SSO session ends with every token that came from it (decision 0026)", ja: 'ログアウト' },
  'GET /.well-known/openid-configuration': { tag: 'oauth', answer: oauth.authorizationServerMetadataSchema, summary: 'OpenID Provider metadata (OpenID Connect Discovery 1.0): the same document as RFC 8414\'s' },
  'GET /api/auth/jwks': { tag: 'oauth', answer: oauth.jwksResponseSchema, summary: 'The JWK Set of the signing keys (RS256 and ES256, decision 0034): the next keys before they sign, the last until their tokens expire' },
  'GET /api/auth/userinfo': { tag: 'oauth', cors: true, bearer: SCOPES.openid, answer: oidc.userInfoResponseSchema, summary: "UserInfo (OpenID Connect Core 1.0 section 5.3): sub and the claims of the token's scopes; a signed JWT (application/jwt, section 5.3.2) for a client that registered userinfo_signed_response_alg" },
  'POST /api/auth/userinfo': { tag: 'oauth', cors: true, bearer: SCOPES.openid, answer: oidc.userInfoResponseSchema, summary: 'UserInfo by POST (OpenID Connect Core 1.0 section 5.3.1)' },
  'GET /api/auth/end_session': { tag: 'oauth', query: oidc.endSessionRequestSchema, answer: 'redirect', summary: 'RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): 303 to a registered post_logout_redirect_uri', note: 'Otherwise a Japanese HTML page: logged out, or asked to confirm when there is no valid id_token_hint.' },
  'POST /api/auth/end_session': { tag: 'oauth', form: oidc.endSessionRequestSchema, answer: 'redirect', summary: 'RP-initiated logout by POST, and the answer of its confirmation page', note: 'A confirmation posted from another site is asked again.' },
  'POST /api/auth/authorize/check': { tag: 'oauth', json: auth.authorizeCheckRequestSchema, answer: auth.authorizeCheckResponseSchema, summary: 'Checks the authorize parameters before the login form shows (decision 0019)' },
  'POST /api/auth/token': { tag: 'oauth', cors: true, client: 'any', oauth: true, form: oauth.tokenRequestSchema, answer: TOKENS, summary: 'Token endpoint: authorization_code (PKCE S256), refresh_token (rotating), the direct-login grant' },
  'POST /api/auth/par': { tag: 'oauth', client: 'any', oauth: true, form: oauth.pushedAuthorizationRequestSchema, answer: oauth.pushedAuthorizationResponseSchema, more: { 201: { description: 'The request_uri (RFC 9126 section 2.2)', schema: oauth.pushedAuthorizationResponseSchema } }, summary: 'Pushed authorization request (RFC 9126): 201 with the request_uri the authorize endpoint takes beside client_id, once, within expires_in seconds', note: 'Decision 0036. Checked as the authorize endpoint checks a request; errors are RFC 6749 section 5.2 bodies (400, 401 invalid_client; 429 temporarily_unavailable past 60 pushes a minute of public clients from one address). A DPoP proof sent with it binds the code to its key (RFC 9449 section 10.1, decision 0039): 400 invalid_dpop_proof or use_dpop_nonce.' },
  'POST /api/auth/revoke': { tag: 'oauth', cors: true, client: 'any', oauth: true, form: oauth.tokenLookupRequestSchema, answer: oauth.revocationResponseSchema, summary: 'Revocation (RFC 7009): either token ends the session' },
  'POST /api/subuser/introspect': { tag: 'oauth', client: 'confidential', oauth: true, form: oauth.tokenLookupRequestSchema, answer: oauth.introspectionResponseSchema, summary: "Introspection (RFC 7662) of the client's own tokens and those whose audience names it" },
  'POST /api/auth/card/refresh_token': { tag: 'oauth', client: 'any', oauth: true, form: oauth.cardRefreshRequestSchema, answer: cards.cardRefreshTokenResponseSchema, summary: "The card portals' refresh (rotating), with the esid of the first active card" },

  // Login, passkey sign-in, fresh proof
  'POST /api/auth/login': { tag: 'login', json: auth.loginRequestSchema, answer: auth.loginResponseSchema, summary: 'Checks the credentials; lists the terms still to accept and a login ticket for the authorize form', ja: 'ログイン' },
  'POST /api/auth/passkey/login/options': { tag: 'login', json: passkeys.passkeyLoginOptionsRequestSchema, answer: passkeys.ceremonyOptionsResponseSchema, summary: 'Passkey sign-in: the WebAuthn options (decision 0024)', ja: 'パスキーでログイン（開始）' },
  'POST /api/auth/passkey/login': { tag: 'login', json: passkeys.passkeyLoginRequestSchema, answer: passkeys.passkeyLoginResponseSchema, summary: "Passkey sign-in: the browser's assertion; answered like the login", ja: 'パスキーでログイン' },
  'POST /api/auth/passkey/revoke': { tag: 'login', json: passkeys.passkeyRevokeRequestSchema, answer: ok, summary: 'The "passkey added" mail\'s link: removes that passkey and ends every session', ja: 'メールのリンクでパスキーを無効にする' },
  'POST /api/auth/not-me': { tag: 'login', json: account.notMeRequestSchema, answer: account.notMeResponseSchema, summary: 'A notice mail\'s "not me" link: ends every session and mails a password reset link while its address is still the member\'s (decision 0033)', ja: 'お知らせメールのリンクですべての端末からログアウトする' },
  'POST /api/auth/reauth': { tag: 'login', bearer: SCOPES.accountWrite, json: account.reauthRequestSchema, answer: ok, summary: 'Fresh proof by the current password (decision 0012)', ja: 'パスワードで本人確認' },
  'POST /api/auth/reauth/passkey/options': { tag: 'login', bearer: SCOPES.accountWrite, json: passkeys.passkeyReauthOptionsRequestSchema, answer: passkeys.ceremonyOptionsResponseSchema, summary: 'Fresh proof by passkey: the WebAuthn options', ja: 'パスキーで本人確認（開始）' },
  'POST /api/auth/reauth/passkey': { tag: 'login', bearer: SCOPES.accountWrite, json: passkeys.passkeyReauthRequestSchema, answer: ok, summary: 'Fresh proof by passkey: the assertion', ja: 'パスキーで本人確認' },

  // The member's account
  'POST /api/user': { tag: 'account', bearer: SCOPES.userRead, answer: user.userResponseSchema, summary: "The member: e-mail, id, masked login mobile number, an open member's profile", ja: '会員情報' },
  'POST /api/user/attribute': { tag: 'account', bearer: SCOPES.userRead, answer: user.userAttributeResponseSchema, summary: "The member's kind and service links", ja: '会員属性' },
  'POST /api/user/top': { tag: 'account', bearer: [SCOPES.userRead, SCOPES.cardsRead, SCOPES.pointsRead, SCOPES.activityRead], answer: top.topSummaryResponseSchema, summary: "Top's summary: the member's name, cards, points (or that the ledger could not be read) and previous login with its device", ja: 'トップの表示内容' },
  'POST /api/user/sessions': { tag: 'account', bearer: SCOPES.accountWrite, answer: sessions.sessionsResponseSchema, summary: "The member's signed-in browsers (SSO sessions) and services (decision 0026)", ja: 'ログイン中の端末とサービス' },
  'POST /api/user/sessions/end': { tag: 'account', bearer: SCOPES.accountWrite, json: sessions.endSessionRequestSchema, answer: ok, summary: "Ends one browser's SSO session with its tokens, or one service's session", ja: '端末・サービスからログアウト' },
  'POST /api/user/sessions/end_all': { tag: 'account', bearer: SCOPES.accountWrite, answer: ok, summary: "Ends every browser's SSO session and every service's session of the member, the caller's too", ja: 'すべての端末からログアウト' },
  'POST /api/user/profile': { tag: 'account', bearer: SCOPES.userRead, answer: account.profileResponseSchema, summary: "An open member's profile and its read-only fields (a card member: 300)", ja: 'プロフィール' },
  'POST /api/user/profile/change': { tag: 'account', bearer: SCOPES.accountWrite, json: account.profileChangeRequestSchema(TODAY), answer: ok, summary: "Changes an open member's profile; dry_run 1 checks only", ja: 'プロフィール変更' },
  'POST /api/user/activities': { tag: 'account', bearer: SCOPES.activityRead, json: account.activitiesRequestSchema, answer: account.activitiesResponseSchema, summary: "The member's activity log, newest first, 20 a page", ja: 'ログイン・操作履歴' },
  'POST /api/auth/email/change': { tag: 'account', bearer: SCOPES.accountWrite, json: account.emailChangeRequestSchema, answer: account.emailChangeResponseSchema, summary: 'E-mail change: sends a code to the new address', ja: 'メールアドレス変更', note: FRESH },
  'POST /api/auth/email/change/otp': { tag: 'account', bearer: SCOPES.accountWrite, json: account.emailChangeOtpRequestSchema, answer: ok, summary: 'E-mail change: the code; every session ends', ja: 'メールアドレス変更（確認コード）' },
  'POST /api/auth/tel/change': { tag: 'account', bearer: SCOPES.accountWrite, json: account.telChangeRequestSchema, answer: account.telChangeResponseSchema, summary: 'Login mobile number: sends an SMS code (decision 0014)', ja: 'ログイン用携帯電話番号の登録', note: FRESH },
  'POST /api/auth/tel/change/otp': { tag: 'account', bearer: SCOPES.accountWrite, json: account.telChangeOtpRequestSchema, answer: ok, summary: 'Login mobile number: the SMS code', ja: 'ログイン用携帯電話番号の登録（確認コード）' },
  'POST /api/auth/password/change': { tag: 'account', bearer: SCOPES.accountWrite, json: account.passwordChangeRequestSchema, answer: ok, summary: 'Password change; every session ends', ja: 'パスワード変更', note: 'The current password, or a passkey assertion over a challenge asked with purpose password_change, in the same request: a fresh proof alone is not enough (OWASP ASVS 5.0 V6.2.3).' },
  'POST /api/auth/cancel': { tag: 'account', bearer: SCOPES.accountWrite, answer: ok, summary: 'Withdrawal', ja: '退会', note: FRESH },
  'POST /api/auth/passkeys': { tag: 'account', bearer: SCOPES.accountWrite, answer: passkeys.passkeyListResponseSchema, summary: "The member's passkeys", ja: 'パスキー一覧' },
  'POST /api/auth/passkey/register/options': { tag: 'account', bearer: SCOPES.accountWrite, answer: passkeys.ceremonyOptionsResponseSchema, summary: 'Passkey registration: the WebAuthn options', ja: 'パスキー登録（開始）', note: FRESH },
  'POST /api/auth/passkey/register': { tag: 'account', bearer: SCOPES.accountWrite, json: passkeys.passkeyRegisterRequestSchema, answer: passkeys.passkeyRegisterResponseSchema, summary: "Passkey registration: the browser's answer", ja: 'パスキー登録', note: FRESH },
  'POST /api/auth/passkey/rename': { tag: 'account', bearer: SCOPES.accountWrite, json: passkeys.passkeyRenameRequestSchema, answer: ok, summary: 'Renames a passkey', ja: 'パスキーの名前の変更' },
  'POST /api/auth/passkey/delete': { tag: 'account', bearer: SCOPES.accountWrite, json: passkeys.passkeyDeleteRequestSchema, answer: ok, summary: 'Removes a passkey', ja: 'パスキーの削除', note: FRESH },
  'POST /api/auth/passkey/require': { tag: 'account', bearer: SCOPES.accountWrite, json: passkeys.passkeyRequireRequestSchema, answer: ok, summary: 'Requires a passkey, not the password, as the fresh proof', ja: 'パスキーによる本人確認の必須設定', note: FRESH },

  // Card sign-up and open sign-up
  'POST /api/signup/card': { tag: 'signup', json: signup.cardSignupRequestSchema, answer: signup.signupStepResponseSchema, summary: 'Card sign-up: the card and the account; says which check follows', ja: 'カード会員登録', note: "A sign-up from a pushed request (RFC 9126, decision 0036) sends client_id and request_uri instead of the other authorize parameters, and its answers echo client_id only. 901 naming request_uri when the authorize endpoint would not take it (unknown, used, expired, another client's), or when a client that requires pushed requests sent none." },
  'POST /api/signup/sms': { tag: 'signup', json: signup.signupOtpRequestSchema, answer: signup.signupStepResponseSchema, summary: 'Card sign-up: the SMS code', ja: 'SMS認証' },
  'POST /api/signup/pin': { tag: 'signup', json: signup.signupPinRequestSchema, answer: signup.signupStepResponseSchema, summary: 'Card sign-up: the PIN', ja: '暗証番号認証' },
  'POST /api/signup/otp': { tag: 'signup', json: signup.signupOtpRequestSchema, answer: signup.signupStepResponseSchema, summary: 'Card sign-up: the e-mail code; lists the terms', ja: 'メール認証' },
  'POST /api/sms/resend': { tag: 'signup', json: signup.resendRequestSchema, answer: ok, summary: 'A new SMS code', ja: 'SMSの再送' },
  'POST /api/otp/resend': { tag: 'signup', json: signup.resendRequestSchema, answer: ok, summary: 'A new e-mail code', ja: 'メールの再送' },
  'POST /api/signup/terms_accept': { tag: 'signup', json: signup.termsAcceptRequestSchema, answer: signup.signupStepResponseSchema, summary: 'Card sign-up: accepts the terms and creates the member', ja: '利用規約に同意して登録' },
  'POST /api/signup/mail/digital': { tag: 'signup', json: upgrade.mailDigitalRequestSchema, answer: ok, summary: 'Card sign-up: the paperless-statement choice', ja: 'WEB明細の選択' },
  'POST /api/signup/authorize': { tag: 'signup', query: signup.signupAuthorizeSchema, form: signup.signupAuthorizeFormSchema, answer: 'redirect', summary: 'Card sign-up: authorization, as /api/auth/authorize answers it', ja: '登録後の認可', note: `${NOT_REDIRECTED} Only the request the card step was given: its request_uri for a sign-up from a pushed request, used up with the code.` },
  'POST /api/signup/open': { tag: 'signup', json: open.openSignupRequestSchema(TODAY), answer: open.openSignupResponseSchema, summary: 'Open sign-up: dry_run 1 checks, 0 registers provisionally and mails the activation link', ja: 'オープン会員登録' },
  'POST /api/signup/open/otp': { tag: 'signup', json: open.openActivateRequestSchema, answer: open.openSignupResponseSchema, summary: "Open sign-up: the activation link's token creates the member", ja: 'オープン会員の本登録' },

  // Password recovery
  'POST /api/auth/password/forgot': { tag: 'recover', json: open.forgotPasswordRequestSchema, answer: ok, summary: 'Mails a reset link; the same answer for every address', ja: 'パスワード再設定の受付' },
  'POST /api/auth/password/reset': { tag: 'recover', json: open.resetPasswordRequestSchema, answer: passkeys.resetPasswordResponseSchema, summary: "The reset link's new password; every session ends; the finish page's secret when passkeys were added in the last 30 days", ja: 'パスワード再設定' },
  'POST /api/auth/password/reset/passkeys': { tag: 'recover', json: passkeys.resetPasskeysRequestSchema, answer: passkeys.resetPasskeysResponseSchema, summary: 'After a reset: the passkeys added in the 30 days before it (decision 0024)', ja: '再設定前に登録されたパスキーの一覧' },
  'POST /api/auth/password/reset/passkeys/remove': { tag: 'recover', json: passkeys.resetPasskeysRequestSchema, answer: ok, summary: 'After a reset: removes those passkeys and ends every session; the secret works once', ja: '再設定前に登録されたパスキーの削除' },

  // Cards
  'POST /api/subuser/cards': { tag: 'cards', bearer: SCOPES.cardsRead, answer: cards.cardsResponseSchema, summary: 'The registered cards', ja: 'カード一覧' },
  'POST /api/subuser/card/tokens': { tag: 'cards', bearer: SCOPES.cardsRead, answer: cards.cardTokensResponseSchema, summary: 'The cards waiting to be added', ja: '追加できるカード' },
  'POST /api/subuser/card/add': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.cardAddRequestSchema, answer: cards.cardResultResponseSchema, summary: 'Adds a waiting card, or a card by number', ja: 'カード追加' },
  'POST /api/subuser/card/activate': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.cardActivateRequestSchema, answer: cards.cardResultResponseSchema, summary: 'Activates a card by its activation key', ja: 'カードの利用開始' },
  'POST /api/subuser/sc/activate/mobile': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.mobileActivateRequestSchema, answer: cards.cardResultResponseSchema, summary: "Activates an unactivated4M card by the holder's mobile number", ja: '携帯電話番号でカードの利用開始' },
  'POST /api/subuser/card/enable': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.cardEnableRequestSchema, answer: ok, summary: 'Switches an inactive waiting card on', ja: 'カードの利用再開' },
  'POST /api/subuser/card/update_relevant_tokens': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.updateRelevantTokensRequestSchema, answer: cards.cardsResponseSchema, summary: 'Re-reads the registered cards from the card master', ja: 'カード情報の更新' },
  'POST /api/subuser/delete': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.subuserDeleteRequestSchema, answer: ok, summary: 'Removes active cards, all or none', ja: 'カード削除' },
  'POST /api/subuser/na/add': { tag: 'cards', bearer: SCOPES.cardsWrite, json: cards.netAnswerAddRequestSchema, answer: ok, summary: "Links the card's Net Answer account", ja: 'Net Answer連携' },
  'POST /api/subuser/open': { tag: 'cards', bearer: SCOPES.pointsRead, answer: cards.openSubuserResponseSchema, summary: 'The open account as a sub-user, or null', ja: 'オープン会員口座' },
  'POST /api/subuser/revoke': { tag: 'cards', bearer: SCOPES.accountWrite, form: cards.subuserRevokeRequestSchema, answer: ok, summary: "Ends one of the member's partner sessions", ja: 'サービスのログイン解除' },
  'POST /api/auth/numberless': { tag: 'cards', bearer: SCOPES.cardsWrite, json: upgrade.numberlessRequestSchema, answer: upgrade.numberlessResponseSchema, summary: "A numberless card by the holder's mobile number: sends an SMS code", ja: 'ナンバーレスカード追加' },
  'POST /api/auth/numberless/otp': { tag: 'cards', bearer: SCOPES.cardsWrite, json: upgrade.numberlessOtpRequestSchema, answer: cards.cardResultResponseSchema, summary: 'A numberless card: the SMS code adds it', ja: 'ナンバーレスカード追加（確認コード）' },
  'POST /api/auth/register': { tag: 'cards', bearer: SCOPES.cardsWrite, json: upgrade.upgradeRegisterRequestSchema, answer: upgrade.upgradeRegisterResponseSchema, summary: 'An open member names a card; its holder check follows (decision 0016)', ja: 'オープン会員のカード登録' },
  'POST /api/auth/upgrade/sc': { tag: 'cards', json: upgrade.upgradeConfirmRequestSchema, answer: cards.cardResultResponseSchema, summary: "The holder check's code or PIN: the card is the open member's", ja: 'オープン会員のカード登録（本人確認）' },

  // Direct login
  'POST /api/auth/user_onetime_token': { tag: 'direct-login', bearer: SCOPES.directLogin, json: direct.userOnetimeTokenRequestSchema, answer: direct.userOnetimeTokenResponseSchema, summary: "A one-time token to open the web app (or the caller's app) as the member", ja: 'ワンタイムトークンの発行' },
  'POST /api/subuser/direct_login/sc': { tag: 'direct-login', bearer: SCOPES.directLogin, json: direct.directLoginScRequestSchema, answer: direct.directLoginTokenResponseSchema, summary: 'A one-time token for a partner service, with the service links', ja: 'サービスへのログイン連携', note: TERMS_FIRST },
  'POST /api/subuser/direct_login/terms_accept': { tag: 'direct-login', bearer: SCOPES.directLogin, json: direct.directLoginTermsAcceptRequestSchema, answer: direct.directLoginTermsAcceptResponseSchema, summary: "Accepts a service's terms; answers those outstanding", ja: 'サービスの利用規約への同意' },
  'POST /api/subuser/direct_login/na': { tag: 'direct-login', bearer: SCOPES.directLogin, json: direct.directLoginNaRequestSchema, answer: direct.directLoginUrlResponseSchema, summary: "Net Answer's one-time direct-login URL", ja: 'Net Answerへのログイン連携' },
  'POST /api/preauth/direct_login': { tag: 'direct-login', json: direct.preauthDirectLoginRequestSchema, answer: direct.directLoginUrlResponseSchema, summary: "The partner's direct_login_url for a live one-time token" },
  'POST /api/auth/direct_login/token': { tag: 'direct-login', client: 'any', oauth: true, form: oauth.directLoginGrantRequestSchema, answer: direct.directLoginTokenGrantResponseSchema, summary: 'Redeems a one-time token (grant_type=password; code_verifier if issued with a challenge)' },
  'GET /api/redirect/user_one_time_token': { tag: 'direct-login', query: direct.directRedirectQuerySchema, answer: 'redirect', summary: "303 to the web app's direct-login callback, for the seven targets only" },
  'GET /api/redirect/resume_app': { tag: 'direct-login', query: direct.resumeAppQuerySchema, answer: 'redirect', summary: "303 back to a portal app's resume URI with client_id, state and esid" },

  // Points and the open-account link
  'POST /api/user/aqf': { tag: 'points', bearer: SCOPES.pointsRead, answer: points.pointInfoResponseSchema, summary: 'The point balances', ja: 'ポイント情報' },
  'POST /api/aqf/transfer/open/select': { tag: 'points', bearer: SCOPES.pointsTransfer, json: points.transferSelectRequestSchema, answer: points.transferSelectResponseSchema, summary: 'Point transfer: the card; sends a code', ja: 'ポイント移行（カード選択）' },
  'POST /api/aqf/transfer/open/otp': { tag: 'points', bearer: SCOPES.pointsTransfer, json: points.transferOtpRequestSchema, answer: points.transferResultResponseSchema, summary: 'Point transfer: the code moves the whole open balance, once', ja: 'ポイント移行（確認コード）' },
  'POST /api/link/open': { tag: 'points', bearer: SCOPES.linkWrite, json: points.linkOpenRequestSchema(TODAY), answer: points.linkOpenResponseSchema, summary: 'Links an open account to the card member (decision 0014)', ja: 'オープン会員情報の連携' },

  // The operator API (decision 0032): an operator token of the role named, never a member's token
  'POST /api/admin/enrol/options': { tag: 'operators', role: 'public', json: operators.operatorEnrolOptionsRequestSchema, answer: passkeys.ceremonyOptionsResponseSchema, summary: "Operator enrolment: the WebAuthn creation options for the operator the enrolment link names", ja: 'オペレーターのパスキー登録（開始）' },
  'POST /api/admin/enrol': { tag: 'operators', role: 'public', json: operators.operatorEnrolRequestSchema, answer: ok, summary: "Operator enrolment: the browser's answer adds the passkey and uses the link up", ja: 'オペレーターのパスキー登録' },
  'POST /api/admin/login/options': { tag: 'operators', role: 'public', answer: passkeys.ceremonyOptionsResponseSchema, summary: 'Operator sign-in: the WebAuthn options (a discoverable credential)', ja: 'オペレーターのログイン（開始）' },
  'POST /api/admin/login': { tag: 'operators', role: 'public', json: operators.operatorSignInRequestSchema, answer: operators.operatorSignInResponseSchema, summary: "Operator sign-in: the browser's assertion answers an operator token (15 minutes idle, 8 hours at most)", ja: 'オペレーターのログイン' },
  'POST /api/admin/me': { tag: 'operators', role: 'support', answer: operators.operatorMeResponseSchema, summary: 'The operator of the token and the limits of the session', ja: 'ログイン中のオペレーター' },
  'POST /api/admin/logout': { tag: 'operators', role: 'support', answer: ok, summary: 'Ends the operator session: the token works no more', ja: 'オペレーターのログアウト' },
  'POST /api/admin/reauth/options': { tag: 'operators', role: 'support', answer: passkeys.ceremonyOptionsResponseSchema, summary: "A fresh passkey proof: the WebAuthn options, for the operator's own passkeys", ja: 'パスキーで本人確認（開始）' },
  'POST /api/admin/reauth': { tag: 'operators', role: 'support', json: operators.operatorReauthRequestSchema, answer: ok, summary: 'A fresh passkey proof: valid 5 minutes for the sensitive actions', ja: 'パスキーで本人確認' },
  'POST /api/admin/operators/invite': { tag: 'operators', role: 'admin', json: operators.operatorInviteRequestSchema, answer: operators.operatorInviteResponseSchema, summary: 'Invites an operator with a role: a single-use enrolment link valid 30 minutes', ja: 'オペレーターの招待', note: OPERATOR_FRESH },
  'POST /api/admin/members/search': { tag: 'operators', role: 'support', json: members.memberSearchRequestSchema, answer: members.memberSearchResponseSchema, summary: 'Finds members by one of e-mail, mobile number, member id, or card last four digits with the birth date: at most 10, masked; audited', ja: '会員検索' },
  'POST /api/admin/members/view': { tag: 'operators', role: 'support', json: members.memberViewRequestSchema, answer: members.memberViewResponseSchema, summary: "A member's page: status and lock, cards, passkeys, sessions and activity, personal data masked; audited", ja: '会員情報の表示' },
  'POST /api/admin/members/reveal': { tag: 'operators', role: 'support', json: members.memberRevealRequestSchema, answer: members.memberRevealResponseSchema, summary: "One personal field of a member, unmasked; the reveal is audited with the field's name", ja: '会員情報の項目表示' },
  'POST /api/admin/members/unlock': { tag: 'operators', role: 'support', json: members.memberActionRequestSchema, answer: ok, summary: "Clears a member's login lock, on the server (no secret leaves it); with a reason, audited", ja: 'ログインロックの解除' },
  'POST /api/admin/members/end-sessions': { tag: 'operators', role: 'support', json: members.memberActionRequestSchema, answer: members.memberEndSessionsResponseSchema, summary: "Ends every session of a member (partners told by back-channel logout); with a reason, audited", ja: '全セッションの終了' },
  'POST /api/admin/members/password-reset': { tag: 'operators', role: 'support', json: members.memberActionRequestSchema, answer: ok, summary: 'Mails an active member a password-reset link; with a reason, audited', ja: 'パスワード再設定メールの送信' },
  'POST /api/admin/members/resend-activation': { tag: 'operators', role: 'support', json: members.memberResendActivationRequestSchema, answer: ok, summary: 'Mails a pending open sign-up a new activation link, by its e-mail; with a reason, audited', ja: '有効化メールの再送' },
  'POST /api/admin/members/suspend': { tag: 'operators', role: 'security', json: members.memberActionRequestSchema, answer: ok, summary: 'Suspends a member: no login, no refresh, every session ended; mailed, with a reason, audited', ja: '会員の利用停止', note: OPERATOR_FRESH },
  'POST /api/admin/members/restore': { tag: 'operators', role: 'security', json: members.memberActionRequestSchema, answer: ok, summary: 'Restores a suspended member; mailed, with a reason, audited', ja: '会員の利用再開', note: OPERATOR_FRESH },
  'POST /api/admin/members/passkeys/remove': { tag: 'operators', role: 'security', json: members.memberPasskeyRemoveRequestSchema, answer: ok, summary: "Removes one of a member's passkeys; mailed, with a reason, audited", ja: '会員のパスキー削除', note: OPERATOR_FRESH },
  'POST /api/admin/audit': { tag: 'operators', role: 'security', json: members.auditReadRequestSchema, answer: members.auditReadResponseSchema, summary: "The operators' audit log, newest first, filtered, a page at a time (cursor); the read is audited", ja: '監査ログ' },
  'POST /api/admin/audit/export': { tag: 'operators', role: 'security', json: members.auditExportRequestSchema, answer: members.auditRecordSchema, media: 'application/x-ndjson', summary: "The operators' audit log as JSON Lines for a SIEM: one row per line, newest first, streamed; the export is audited", ja: '監査ログのエクスポート' },

  // The administrator's operator API: partner clients and operators (decisions 0031, 0032); every change is audited with its reason
  'POST /api/admin/clients': { tag: 'operators', role: 'admin', answer: adminClients.adminClientsResponseSchema, summary: "Every partner client, enabled or not, with its secrets' creation and retirement times (never a secret or its digest)", ja: 'クライアント一覧' },
  'POST /api/admin/clients/register': { tag: 'operators', role: 'admin', json: adminClients.clientRegisterRequestSchema, answer: adminClients.clientRegisterResponseSchema, summary: "Registers a partner client, enabled; a confidential client's secret is answered once. Every node sees it within CLIENTS_REFRESH_MS", ja: 'クライアントの登録', note: OPERATOR_FRESH },
  'POST /api/admin/clients/update': { tag: 'operators', role: 'admin', json: adminClients.clientUpdateRequestSchema, answer: adminClients.clientResponseSchema, summary: "Changes a client's name, redirect, post-logout and back-channel URIs, scopes, terms, web origins, signing algorithms, authentication method and keys, pushed-requests-only and DPoP-bound flags; a switch from private_key_jwt to a secret answers the new secret once", ja: 'クライアントの変更', note: OPERATOR_FRESH },
  'POST /api/admin/clients/enable': { tag: 'operators', role: 'admin', json: adminClients.clientActionRequestSchema, answer: adminClients.clientEnableResponseSchema, summary: 'Enables a disabled client', ja: 'クライアントの有効化', note: OPERATOR_FRESH },
  'POST /api/admin/clients/disable': { tag: 'operators', role: 'admin', json: adminClients.clientActionRequestSchema, answer: adminClients.clientDisableResponseSchema, summary: 'Disables a client: unknown to every flow, its sessions, codes and direct logins end at once (its tokens answer inactive at introspection)', ja: 'クライアントの無効化', note: OPERATOR_FRESH },
  'POST /api/admin/clients/secret/rotate': { tag: 'operators', role: 'admin', json: adminClients.clientRotateRequestSchema, answer: adminClients.clientRotateResponseSchema, summary: 'Gives a confidential client a new secret, answered once; the old ones keep working for overlap_ms (7 days unless given)', ja: 'クライアントシークレットの更新', note: OPERATOR_FRESH },
  'POST /api/admin/clients/secret/retire': { tag: 'operators', role: 'admin', json: adminClients.clientActionRequestSchema, answer: adminClients.clientRetireResponseSchema, summary: "Ends a rotation's overlap now: only the newest secret works", ja: '旧クライアントシークレットの失効', note: OPERATOR_FRESH },
  'POST /api/admin/operators': { tag: 'operators', role: 'admin', answer: adminClients.adminOperatorsResponseSchema, summary: 'Every operator, with role and status', ja: 'オペレーター一覧' },
  'POST /api/admin/operators/disable': { tag: 'operators', role: 'admin', json: adminClients.operatorActionRequestSchema, answer: adminClients.operatorDisableResponseSchema, summary: "Disables an operator and ends their sessions at once (never oneself, never the last active administrator)", ja: 'オペレーターの無効化', note: OPERATOR_FRESH },
  'POST /api/admin/operators/enable': { tag: 'operators', role: 'admin', json: adminClients.operatorActionRequestSchema, answer: adminClients.operatorEnableResponseSchema, summary: 'Enables a disabled operator again', ja: 'オペレーターの有効化', note: OPERATOR_FRESH },

  // The service
  'GET /api/health': { tag: 'service', answer: healthResponseSchema, more: { 503: { description: 'Not ready (GET /api/health/ready)', schema: healthResponseSchema } }, summary: "The readiness check's older name: answers as GET /api/health/ready" },
  'GET /api/health/live': { tag: 'service', answer: livenessResponseSchema, summary: 'Liveness: the process answers (no database read); always 200' },
  'GET /api/health/ready': { tag: 'service', answer: healthResponseSchema, more: { 503: { description: 'Draining, or the database, a migration or the signing key is missing: `failing` names which', schema: healthResponseSchema } }, summary: 'Readiness: the database answers, every migration is applied, the signing key is loaded, and the node is not draining' },
  'GET /api/openapi.json': { tag: 'service', answer: apiDocumentSchema, summary: 'This OpenAPI 3.1 document' },
} as const satisfies Record<`${ApiMethod} /${string}`, ApiEntry>;

/** The key of a route in the catalogue: `METHOD path`, e.g. `'POST /api/auth/login'`. */
export type ApiKey = keyof typeof ENTRIES;

/** The catalogue entry of a key, with the method and path its key names. */
export type ApiEntryOf<K extends ApiKey> = (typeof ENTRIES)[K] & {
  method: K extends `${infer M extends ApiMethod} ${string}` ? M : never;
  path: K extends `${ApiMethod} ${infer P}` ? P : never;
};

/** The keys of the Bearer endpoints (decision 0010): a member's token with the entry's scope, checked before the body is read. */
export type BearerKey = { [K in ApiKey]: (typeof ENTRIES)[K] extends { bearer: string | readonly string[] } ? K : never }[ApiKey];

/** The keys of the operator API that need an operator token (decision 0032): every entry with a role but `public`. */
export type OperatorKey = { [K in ApiKey]: (typeof ENTRIES)[K] extends { role: 'support' | 'security' | 'admin' } ? K : never }[ApiKey];

/** The keys of the endpoints where the client authenticates (RFC 6749 section 2.3.1). */
export type ClientKey = { [K in ApiKey]: (typeof ENTRIES)[K] extends { client: string } ? K : never }[ApiKey];

/** The catalogue by key: what the server registers and the abuse suite fuzzes. */
export const API = Object.fromEntries(
  Object.entries(ENTRIES).map(([key, entry]) => {
    const [method, path] = key.split(' ') as [ApiMethod, string];
    return [key, { method, path, ...entry }];
  }),
) as { readonly [K in ApiKey]: ApiEntryOf<K> };

/** Every key of the catalogue, in its order. */
export const API_KEYS = Object.keys(API) as ApiKey[];

/** The catalogue as a list, in its order: the OpenAPI document's source. */
export const API_CATALOGUE: readonly ApiRoute[] = Object.values<ApiRoute>(API);
