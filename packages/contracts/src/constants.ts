/** Business constants and limits (SPEC.md sections 6 and 9). Shared by SPA and API. */
export const CLIENT_IDS = {
  web: 'SIAP009',
  portal: ['SIAP005', 'SIAP006'],
  secondPortal: ['SIAP007', 'SIAP008'],
  lineAnswer: 'SIAP002',
  netAnswer: 'SIAP004',
} as const;

export const WEB_CLIENT_ID = CLIENT_IDS.web;
export const CODE_CHALLENGE_METHOD = 'S256';

export const LIMITS = {
  /** Consecutive failed logins before the account (an unknown id: the id) is locked (decisions 0003 and 0011). */
  loginFailuresBeforeLock: 10,
  loginLockMs: 15 * 60 * 1000,
  /** Failed logins from one network address, across any ids, in the same 15 minutes (decision 0007). */
  loginFailuresPerAddress: 300,
  /**
   * Failed client authentications (a wrong secret or assertion, an unknown client) at the token,
   * revocation and introspection endpoints, per confidential client and per network address, in
   * the same 5 minutes; past either, 429 before any verification (decision 0038, docs/security.md).
   */
  clientAuthFailuresPerClient: 20,
  clientAuthFailuresPerAddress: 50,
  clientAuthFailureWindowMs: 5 * 60 * 1000,
  /**
   * The login step's ticket lets the authorize step that follows skip a second argon2id hash of the
   * same password (docs/performance.md). It lives about a minute (decision 0011): a member who reads the
   * additional terms for longer posts a fresh reCAPTCHA token with the form, and the authorize
   * step checks it and the password itself.
   */
  loginTicketTtlMs: 60 * 1000,
  authorizationCodeTtlMs: 60 * 1000,
  /**
   * A pushed authorization request's request_uri must reach the authorize endpoint within this
   * (RFC 9126 section 2.2, `expires_in`); once it has, it lasts the authorization process: the login
   * page, the terms, the app's confirmation (RFC 9126 section 4; decision 0036).
   */
  pushedRequestTtlMs: 60 * 1000,
  pushedRequestProcessTtlMs: 30 * 60 * 1000,
  /**
   * Pushed authorization requests of public clients (method `none`, nothing to authenticate) from one
   * network address (an IPv6 address by its /64) in a fixed minute; past it, 429 with Retry-After
   * before any other work and no row written. A member's sign-in pushes once, so this is one sign-in
   * start a second from one address for a whole minute: beyond a carrier-grade NAT's members of this
   * one company, while each address can hold at most 60 rows a minute until the hourly sweep.
   * Authenticated (confidential) clients' pushes are not counted (decision 0036).
   */
  pushedRequestsPerAddress: 60,
  pushedRequestWindowMs: 60 * 1000,
  accessTokenTtlMs: 60 * 60 * 1000,
  /** Automatic login lasts 90 days from the last access (SPEC.md section 9): refresh tokens slide. */
  refreshTokenTtlMs: 90 * 24 * 60 * 60 * 1000,
  /** A refresh retried by the same terminal within this window is answered, not treated as replay. */
  refreshRetryGraceMs: 5 * 1000,
  ephemeralMessageMs: 500,
  refreshOnEntryAfterMs: 500,
  refreshIntervalMs: 30 * 60 * 1000,
  recaptchaRetryMax: 3,
  customSchemeGraceMs: 10 * 1000,
  loadingTextDelayMs: 100,
  errorDisplayDelayMs: 300,
  queryStaleMs: 3000,
  cardListRefreshMs: 3000,
  topRequestTimeoutMs: 5000,
  /**
   * How long Top's summary waits for the point ledger before it answers without the points (SPEC.md
   * section 2, Top: its request is aborted after 5 s): the rest of Top is never held up by it.
   */
  topPointsWaitMs: 1500,
  analyticsOutboundMs: 250,
  openSignupValidMinutes: 60,
  /** A password reset link lives 30 minutes and is single use (the spec gives no figure). */
  passwordResetValidMinutes: 30,
  minimumAge: 12,
  /** Card sign-up (decision 0004). Numbers the spec leaves open are decided here and in docs/partners.md ("The API in detail"). */
  signupFlowTtlMs: 60 * 60 * 1000,
  otpTtlMs: 10 * 60 * 1000,
  otpLength: 6,
  pinLength: 4,
  /** Wrong OTPs or PINs for one card, across register_tokens, before its registration is locked. */
  signupVerifyFailuresBeforeLock: 5,
  /** Failed card checks (number, expiry, security code) for one card number before it is locked. */
  signupCardFailuresBeforeLock: 5,
  signupLockMs: 30 * 60 * 1000,
  /** Messages (first send and resends) one recipient may receive in a window. */
  messagesPerRecipient: 5,
  messageWindowMs: 30 * 60 * 1000,
  /** Year options of the card expiry: 9 years from the current year (SPEC.md section 5). */
  cardYearOptions: 9,
  /** Cards and hand-off (decision 0006). Numbers the spec leaves open are decided here and in docs/partners.md ("The API in detail"). */
  activationKeyLength: 6,
  /** Wrong activation keys for one card before its activation is locked for LIMITS.signupLockMs. */
  activationFailuresBeforeLock: 5,
  /** Failed card adds (number, expiry, security code) by one member before their card add is locked. */
  cardAddFailuresBeforeLock: 5,
  /** Wrong Net Answer id/password pairs by one member before Net Answer linking is locked. */
  netAnswerFailuresBeforeLock: 5,
  /** Failed open-account matches by one member before the link is locked. */
  openLinkFailuresBeforeLock: 5,
  /** A direct-login one-time token lives this long and is single use (RFC 9700 spirit: short-lived bearer). */
  directLoginTokenTtlMs: 60 * 1000,
  /** A point transfer, numberless card or upgrade flow lives this long; its code LIMITS.otpTtlMs. */
  memberFlowTtlMs: 30 * 60 * 1000,
  /**
   * A sensitive change (e-mail, withdrawal, a new login id) needs the session's proof of presence
   * (the password at login or at /api/auth/reauth) newer than this (docs/decisions/0012-fresh-proof.md).
   */
  freshProofMaxAgeMs: 5 * 60 * 1000,
  /** A WebAuthn challenge lives this long, single use, bound to the browser or session that asked (decision 0024). */
  passkeyChallengeTtlMs: 5 * 60 * 1000,
  /** The link of the "passkey added" mail that removes the passkey again works this long (decision 0024). */
  passkeyRevokeLinkTtlMs: 30 * 24 * 60 * 60 * 1000,
  /**
   * The "not me" link of a notice mail (a sign-in from a new device, a changed password, e-mail,
   * login mobile number, a passkey added or removed) works this long, once: it ends every session and
   * mails a password reset link (docs/decisions/0033-not-me-link.md).
   */
  notMeLinkTtlMs: 30 * 24 * 60 * 60 * 1000,
  /** A passkey sign-in's ticket for the authorize step: long enough to read the additional terms (decision 0024). */
  passkeyLoginTicketTtlMs: 10 * 60 * 1000,
  /** Passkeys a member may hold. */
  passkeysPerMember: 20,
  /**
   * After a password reset, the passkeys added this long before it are listed, with one action that
   * removes them and ends every session (decision 0024, "After a password reset"): the finish page's
   * secret works for `passkeyReviewPageTtlMs`, the link of the reset's confirmation mail for
   * `passkeyReviewLinkTtlMs`; either once, and using one ends the other.
   */
  passkeyReviewWindowMs: 30 * 24 * 60 * 60 * 1000,
  passkeyReviewPageTtlMs: 30 * 60 * 1000,
  passkeyReviewLinkTtlMs: 7 * 24 * 60 * 60 * 1000,
  /**
   * The browser's SSO session (docs/decisions/0026-sso-session.md): automatic login lasts 90 days from
   * the last access to a site that needs the ID (SPEC.md section 9): an authorize request completed
   * from the session, or the SPA's refresh of its tokens. No cap from the login: a member who keeps
   * using the ID stays signed in, as the spec's words say.
   */
  ssoSessionIdleMs: 90 * 24 * 60 * 60 * 1000,
  /**
   * The session cookie's Max-Age: 400 days, the longest a browser keeps a cookie (RFC 6265bis section
   * 5.5, "cookie-age-limit"), set again at every use of the session from the browser, so that the
   * cookie outlives the session's sliding expiry, which the server decides.
   */
  ssoCookieMaxAgeMs: 400 * 24 * 60 * 60 * 1000,
  /** A session's last use is written at most this often (and when it is used for another service): no write on every authorize. */
  ssoSessionTouchMs: 60 * 1000,
  /**
   * An ID token lives this long (OpenID Connect Core 1.0 section 2, `exp`; decision 0025): it proves a
   * sign-in to its client at that moment, and a new one comes with every refresh.
   */
  idTokenTtlMs: 10 * 60 * 1000,
  /** A back-channel logout token lives this long from its delivery (OpenID Connect Back-Channel Logout 1.0 section 2.4, `exp`). */
  logoutTokenTtlMs: 2 * 60 * 1000,
} as const;

/**
 * The authentication context classes of the ID token's `acr` (OpenID Connect Core 1.0 section 2;
 * decision 0025), by the RFC 8176 `amr` of the sign-in: `basic` for something the member knows or
 * receives (a password, a one-time code by mail or SMS), `phishingResistant` for a passkey with user
 * verification (WebAuthn: the signature is bound to this site's origin).
 */
export const ACR_VALUES = {
  basic: 'urn:member-id:acr:basic',
  phishingResistant: 'urn:member-id:acr:phishing-resistant',
} as const;

/**
 * The JWS algorithms the server signs ID tokens, logout tokens and userinfo with (decision 0034):
 * RS256, mandatory to implement (OpenID Connect Core 1.0 section 15.1) and the registration default
 * (Dynamic Client Registration 1.0 section 2), and ES256. Each has its own keys in the JWK Set.
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * Direct-login targets (SPEC.md section 2) and the SPA route each maps to: the top page, the
 * all-cards list, the unactivated-cards list and card removal. Nothing else is a target.
 */
export const DIRECT_LOGIN_TARGETS = {
  top: '/top',
  card_add: '/subusers/all',
  card_activate: '/subusers/unactivated',
  card_remove: '/subuser/remove',
  portal_card_add: '/subusers/all',
  portal_card_activate: '/subusers/unactivated',
  portal_card_remove: '/subuser/remove',
} as const;
export type DirectLoginTarget = keyof typeof DIRECT_LOGIN_TARGETS;
export const isDirectLoginTarget = (t: unknown): t is DirectLoginTarget =>
  typeof t === 'string' && Object.prototype.hasOwnProperty.call(DIRECT_LOGIN_TARGETS, t);

/** The SPA page that tells a member without a card that a cardholders-only service is not theirs yet, and the way on. */
export const CARDHOLDERS_ONLY_PATH = '/problem/cardholders';

/** Sub-user (card) status, the second reading of SPEC.md section 3. */
export const SUBUSER_STATUSES = ['active', 'inactive', 'unactivated', 'unactivated4Z', 'unactivated4M'] as const;
export type SubuserStatus = (typeof SUBUSER_STATUSES)[number];
export const UNACTIVATED_STATUSES: readonly SubuserStatus[] = ['unactivated', 'unactivated4Z', 'unactivated4M'];
export const isUnactivated = (s: string) => (UNACTIVATED_STATUSES as readonly string[]).includes(s);

/** How a member reads a card's status (SPEC.md section 3, second reading): the SPA's card screens and the operator console say the same. */
export const SUBUSER_STATUS_LABELS: Record<SubuserStatus, string> = {
  active: 'ご利用中',
  inactive: '利用停止中',
  unactivated: '有効化が必要です',
  unactivated4Z: '有効化が必要です',
  unactivated4M: '有効化が必要です',
};
/** A card status in Japanese; a status this build does not know, as it is. */
export const subuserStatusLabel = (s: string): string => (SUBUSER_STATUSES as readonly string[]).includes(s) ? SUBUSER_STATUS_LABELS[s as SubuserStatus] : s;

export const CARD_BRAND_PREFIXES = ['4541', '5252', '3528', '3777', '02', '03'] as const;
export const HOUSE_CARD_PREFIXES = ['02', '03'] as const;

/** The check the card master names for a card (SPEC.md section 3). */
export const CARD_CHECKS = ['OtpSMS', 'OtpEmail', 'Pin'] as const;
export type CardCheck = (typeof CARD_CHECKS)[number];

/**
 * Why a login form post to /api/auth/authorize did not sign the member in, when it sends them back to
 * the SPA's login page (`login_result` beside the authorize parameters) instead of to the partner: the
 * page shows the login step's own message for it (SPEC.md section 8). `address`: the lock's 203 of the
 * network address's failures (decision 0007). Here, not beside the authorize schemas of auth.ts: the
 * login page reads it, and the login route loads no zod (bench/lib/spa-size.ts).
 */
export const LOGIN_RETRY_PARAM = 'login_result';
export const LOGIN_RETRY_KINDS = ['credentials', 'locked', 'address', 'suspended', 'recaptcha'] as const;
export type LoginRetryKind = (typeof LOGIN_RETRY_KINDS)[number];
