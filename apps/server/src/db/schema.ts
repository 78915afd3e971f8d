import type { Generated } from 'kysely';

/** Kysely table types. Times are epoch milliseconds in BIGINT columns, flags are 0/1 integers, so one schema fits SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  email: string;
  /**
   * The login mobile number (unique): only a number proven by an SMS code (the card sign-up's holder
   * check or /api/auth/tel/change), or one that was a login id before migration 0013.
   */
  tel: string | null;
  password_hash: string;
  member_type: 'card' | 'open';
  /** 'suspended': an operator suspended the member (migration 0022): no login, refresh or member API until restored. */
  status: 'active' | 'withdrawn' | 'suspended';
  last_name: string | null;
  first_name: string | null;
  last_name_kana: string | null;
  first_name_kana: string | null;
  sex: string | null;
  birthday: string | null;
  postal_code: string | null;
  email_flg: number;
  created_at: number;
  updated_at: number;
  /** The profile's phone (SPEC.md section 3, "Profile"): never a login id, not unique (migration 0013). */
  profile_tel: string | null;
  /** 1: only a passkey proves a sensitive change, never the password (decision 0024). */
  require_passkey: Generated<number>;
  /** When an operator suspended the member; null when not suspended (migration 0022). */
  suspended_at: number | null;
}

export interface TermAcceptancesTable {
  user_id: string;
  term_key: string;
  version: string;
  accepted_at: number;
}

export interface LoginThrottleTable {
  key: string;
  failed_count: number;
  locked_until: number | null;
  updated_at: number;
}

export interface AuthCodesTable {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  user_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  family_id: string | null;
  /** When the member proved presence for this code (the login's password check); null: not at all (decision 0012). */
  proved_at: number | null;
  /** When the member authenticated for this session, in ms (OpenID Connect `auth_time`); null: before migration 0015. */
  auth_time: number | null;
  /** How, space-separated OpenID Connect `amr` values (RFC 8176: pwd, otp, hwk, swk); null: before migration 0015. */
  amr: string | null;
  /** The SSO session the member authenticated in, ended with it; null: none (a sign-up, a direct login, an older row). */
  sso_session_id: string | null;
  /** The authorization request's `nonce`, for the ID token (OpenID Connect Core 1.0 section 3.1.2.1). */
  nonce: string | null;
  /** The authorization request's `dpop_jkt` (RFC 9449 section 10): the key the code is redeemed with; null: any (migration 0025). */
  dpop_jkt: string | null;
}

export interface TokenFamiliesTable {
  id: string;
  user_id: string;
  client_id: string;
  terminal_id: string | null;
  /** The scopes granted, space-separated (RFC 6749 section 3.3). */
  scope: string;
  /** Who the tokens are for, space-separated: this API and the clients that may introspect them (migration 0009). */
  audience: string;
  created_at: number;
  revoked_at: number | null;
  /** When the session's member last proved presence (login password, /api/auth/reauth); null: never (decision 0012). */
  proved_at: number | null;
  /** When the member authenticated for this session, in ms (OpenID Connect `auth_time`); null: before migration 0015. */
  auth_time: number | null;
  /** How, space-separated OpenID Connect `amr` values (RFC 8176: pwd, otp, hwk, swk); null: before migration 0015. */
  amr: string | null;
  /** The SSO session the member authenticated in, ended with it; null: none (a sign-up, a direct login, an older row). */
  sso_session_id: string | null;
  /** The member's subject identifier for this client (modules/oidc/subject.ts); null: before migration 0018. */
  subject: string | null;
}

/**
 * One row per issued access/refresh pair; parent_id links a rotation to the pair it replaced. The key
 * is (family_id, id), the selector that begins both of the pair's tokens (docs/decisions/
 * 0009-token-selectors.md).
 */
export interface TokenGrantsTable {
  id: string;
  family_id: string;
  parent_id: string | null;
  access_hash: string;
  refresh_hash: string;
  access_expires_at: number;
  refresh_expires_at: number;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
  /** 1 for a pair issued before tokens named their grant: found by a token's hash (migration 0008). */
  hash_lookup: number;
  /** The thumbprint of the DPoP key the pair is bound to (RFC 9449; migration 0025); null: a Bearer pair. */
  dpop_jkt: string | null;
}

export interface ActivityLogTable {
  id: string;
  user_id: string;
  event: string;
  client_id: string | null;
  detail: string | null;
  created_at: number;
}

export interface SubUsersTable {
  id: string;
  user_id: string;
  esid: string;
  status: string;
  member_div_code: string;
  card_name: string;
  card_image_url: string;
  card_brand: string;
  card_number_mask: string;
  created_at: number;
  /** The card master's cardholder id: cards of the same holder wait to be added (decision 0006). */
  holder_id: string | null;
  /** 1 when the card carries points (a point transfer may go to it). */
  point_capable: number;
  /** The Net Answer id linked to the card (/api/subuser/na/add); Net Answer is handed to only then. */
  na_id: string | null;
  /** The paperless-statement choice made at the card sign-up (1 web, 0 paper), null when none was made. */
  mail_digital: number | null;
}

export interface PointAccountsTable {
  user_id: string;
  kind: 'open' | 'na';
  points: number;
  updated_at: number;
}

/** A card sign-up in progress (decision 0004): the register_token is stored hashed; each step expects one state. */
export interface SignupFlowsTable {
  id: string;
  token_hash: string;
  state: SignupState;
  /** SHA-256 of the card number: the key of the card's locks, never the number itself. */
  card_hash: string;
  /** What the card master said of the card (CardRecord without the PIN), for the sub-user row. */
  card_json: string;
  card_check: 'OtpSMS' | 'OtpEmail' | 'Pin';
  email: string;
  /** The holder's mobile number, for the SMS check. */
  tel: string | null;
  password_hash: string;
  client_id: string;
  /** The authorize parameters of the card request (SPEC.md section 3), JSON. */
  authorize_json: string;
  user_id: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  /** The paperless-statement choice (/api/signup/mail/digital), carried to the card at terms_accept. */
  mail_digital: number | null;
}

export type SignupState = 'sms_otp' | 'pin' | 'email_otp' | 'terms' | 'authorize' | 'done';

/** Every one-time secret (ARCHITECTURE.md): hashed, with purpose, expiry, attempt count; single use by a conditional update. */
export interface VerificationsTable {
  id: string;
  purpose: string;
  /** What the secret belongs to, such as a sign-up flow id. */
  subject: string;
  secret_hash: string;
  attempts: number;
  max_attempts: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /**
   * A keyed digest of what the secret is bound to (migration 0010): the address a reset link was
   * mailed to, the password hash a login ticket was issued under; null when bound to nothing more.
   */
  binding: string | null;
}

/**
 * An open sign-up waiting for its activation link (decision 0005): nothing is a member until the
 * link is used. One per e-mail; a new registration for the address replaces the row (and a new id
 * kills the old link, whose verification names the old id).
 */
export interface OpenSignupsTable {
  id: string;
  email: string;
  tel: string;
  last_name: string;
  first_name: string;
  last_name_kana: string;
  first_name_kana: string;
  sex: string;
  birthday: string;
  postal_code: string;
  email_flg: number;
  /** argon2id, as users.password_hash. */
  password_hash: string;
  /** The registered client ids the sign-up started from, comma-separated (the finish page's links). */
  client_ids: string;
  created_at: number;
  expires_at: number;
}

/**
 * An e-mail change waiting for the code sent to the new address (SPEC.md section 2,
 * /user/email/otp): the register_token is stored hashed; 'pending' until the code is right ('done')
 * or a newer change replaces it ('replaced').
 */
export interface EmailChangesTable {
  id: string;
  user_id: string;
  new_email: string;
  token_hash: string;
  state: 'pending' | 'done' | 'replaced';
  created_at: number;
  updated_at: number;
  expires_at: number;
  /** The session (token family) that asked for the change: only it may confirm it (decision 0012); null for older rows. */
  family_id: string | null;
}

/**
 * What a direct-login one-time token grants (decision 0006): the member, the client that may redeem it
 * (`client_id`), the client it came from, and the card it names. The token itself is a 256-bit
 * secret stored only as its SHA-256 in `verifications` (purpose 'direct_login', subject this id).
 */
export interface DirectLoginsTable {
  id: string;
  user_id: string;
  client_id: string;
  source_client_id: string | null;
  subuser_id: string | null;
  created_at: number;
  expires_at: number;
  /** The RFC 7636 S256 challenge the redeeming app must answer (decision 0013); null for the web and confidential clients that gave none. */
  code_challenge: string | null;
  /** When the member authenticated for the session that asked for the token, ms (migration 0019): the session it opens carries it; null: unknown. */
  auth_time: number | null;
}

export type MemberFlowKind = 'point_transfer' | 'numberless' | 'upgrade' | 'login_tel';

/**
 * A logged-in member's multi-step flow (decision 0006): point transfer, numberless card, upgrade to
 * a card member. The register_token is stored as its SHA-256; each step expects one state;
 * `data_json` carries what the flow needs (the card, where the code went).
 */
export interface MemberFlowsTable {
  id: string;
  user_id: string;
  kind: MemberFlowKind;
  token_hash: string;
  state: string;
  data_json: string;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** The point ledger simulator's transfers, keyed by the transfer id: a transfer happens at most once. */
export interface PointTransfersTable {
  id: string;
  user_id: string;
  esid: string;
  amount: number;
  open_after: number;
  card_after: number;
  created_at: number;
}

/** Fixed-window counters, such as messages per recipient. */
/** Signed one-time proofs' identifiers already accepted (db/used-jti-repo.ts), kept until the proof would have expired. */
export interface UsedJtisTable {
  purpose: string;
  digest: string;
  expires_at: number;
}

/** Pushed authorization requests (RFC 9126; modules/oauth/pushed-request-repo.ts), by the SHA-256 of their request_uri's random part. */
export interface PushedAuthorizationRequestsTable {
  uri_hash: string;
  client_id: string;
  /** JSON: the pushed authorization request's parameters. */
  params: string;
  created_at: number;
  started_at: number | null;
  expires_at: number;
  consumed_at: number | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** Mail and SMS waiting to be delivered or delivered: a failed delivery is retried, never lost. */
export interface OutboxTable {
  id: string;
  /** `backchannel`: an OpenID Connect back-channel logout, to the client named by `recipient` (modules/oidc/backchannel-logout.ts). */
  kind: 'mail' | 'sms' | 'backchannel';
  recipient: string;
  subject: string;
  /** Emptied once delivered, so that no code stays at rest longer than needed. */
  body: string;
  /** The HTML part of a mail (plain text is always there); emptied with the body once delivered. */
  html: string | null;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  created_at: number;
}

/**
 * The columns of a stored WebAuthn credential, a member's (PasskeysTable) or an operator's
 * (OperatorPasskeysTable): each table has them besides its holder, name and times. Ids and keys are
 * base64url.
 */
export interface WebAuthnCredentialColumns {
  credential_id: string;
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports, as the browser reported them at registration. */
  transports: string;
  /** 'singleDevice' or 'multiDevice' (WebAuthn's backup eligibility, BE): fixed for the credential's life. */
  device_type: string;
  /** 1: backed up to a sync fabric (WebAuthn's BS flag), as of its last use. */
  backed_up: number;
}

/** A member's passkey (WebAuthn credential; decision 0024). */
export interface PasskeysTable extends WebAuthnCredentialColumns {
  id: string;
  user_id: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A browser the member has signed in from: a keyed digest of its random device cookie (decision 0024). */
export interface MemberDevicesTable {
  user_id: string;
  device_hash: string;
  first_seen_at: number;
  last_seen_at: number;
}

/**
 * A browser's SSO session (migration 0017, decision 0026): `id` is the OpenID Connect `sid`; the cookie's
 * secret is kept as its SHA-256 only, the browser binding as a keyed digest of its device cookie.
 */
export interface SsoSessionsTable {
  id: string;
  user_id: string;
  secret_hash: string;
  browser_hash: string;
  /** The browser's coarse description (lib/device.ts) when the session began; a request from another kind of browser is refused. */
  device: string | null;
  /** When and how the member last authenticated in it (ms; RFC 8176 values, space-separated). */
  auth_time: number;
  amr: string;
  created_at: number;
  last_used_at: number;
  /** The client it was last used for. */
  last_client_id: string | null;
  /** 90 days from the last use: an authorize from the session or the SPA's refresh (LIMITS.ssoSessionIdleMs, SPEC.md section 9). */
  expires_at: number;
  ended_at: number | null;
  /** The network address of the login or the last recorded use (request.ip); null before migration 0022. */
  address: string | null;
}

/**
 * A key that signs ID tokens and logout tokens (migration 0016; modules/oidc/signing-keys.ts). The
 * private JWK is sealed under SIGNING_KEY_SECRET (lib/sealed-box.ts). Times in ms.
 */
export interface SigningKeysTable {
  kid: string;
  generation: number;
  alg: string;
  public_jwk: string;
  private_jwk_sealed: string;
  created_at: number;
  active_from: number;
  retire_after: number | null;
  expires_at: number | null;
}

/** An operator: the card company's staff (migration 0021, decision 0032). No password exists for one. */
export interface OperatorsTable {
  id: string;
  /** Lower case; unique. */
  email: string;
  display_name: string;
  /** 'support' | 'security' | 'admin' (packages/contracts/src/operators.ts, OPERATOR_ROLES). */
  role: string;
  /** 'active' | 'disabled'. */
  status: string;
  created_at: number;
  /** The inviting operator's id, or 'bootstrap' for the `npm run admin` command. */
  created_by: string;
}

/** An operator's passkey (WebAuthn credential), as PasskeysTable holds a member's. */
export interface OperatorPasskeysTable extends WebAuthnCredentialColumns {
  id: string;
  operator_id: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A single-use enrolment link: the SHA-256 of its token; used up once (`used_at`), dead at `expires_at`. */
export interface OperatorEnrolmentsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An operator token's session: the SHA-256 of the opaque token, its idle and absolute limits, its last passkey proof. */
export interface OperatorSessionsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  created_at: number;
  /** The idle limit counts from here (modules/operators/limits.ts). */
  last_used_at: number;
  /** The absolute limit: created_at plus the session's longest life. */
  expires_at: number;
  /** The last passkey proof: the sign-in's, or a step-up's. */
  proved_at: number;
  ended_at: number | null;
}

/**
 * The operators' audit log (migration 0022, modules/audit/): append-only, enforced by triggers; only the
 * retention purge deletes, through `audit_purge_window`. `detail` is JSON.
 */
export interface AuditLogTable {
  id: string;
  operator_id: string;
  operator_role: string;
  action: string;
  member_id: string | null;
  client_id: string | null;
  reason: string | null;
  ticket: string | null;
  address: string | null;
  request_id: string | null;
  detail: string | null;
  created_at: number;
}

/** The retention purge's window, open only inside its transaction (migration 0022). */
export interface AuditPurgeWindowTable {
  purge_before: number;
}

/** A client of the OAuth client registry (migration 0020, decision 0031): its CLIENTS_FILE-shaped definition as JSON. */
export interface OAuthClientsTable {
  client_id: string;
  definition: string;
  /** 1: known to every flow; 0: disabled, unknown to all of them. */
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A confidential client's secret, as its SHA-256 (decision 0008); several while a rotation's overlap lasts. */
export interface OAuthClientSecretsTable {
  id: string;
  client_id: string;
  secret_sha256: string;
  created_at: number;
  /** Refused from then on; null: until a rotation retires it. */
  retire_at: number | null;
}

/** One row (id 1): its version moves with every change of the clients or their secrets, and the nodes poll it. */
export interface OAuthClientRegistryTable {
  id: number;
  version: number;
}

export interface Database {
  users: UsersTable;
  term_acceptances: TermAcceptancesTable;
  login_throttle: LoginThrottleTable;
  auth_codes: AuthCodesTable;
  token_families: TokenFamiliesTable;
  token_grants: TokenGrantsTable;
  activity_log: ActivityLogTable;
  sub_users: SubUsersTable;
  point_accounts: PointAccountsTable;
  signup_flows: SignupFlowsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  used_jtis: UsedJtisTable;
  pushed_authorization_requests: PushedAuthorizationRequestsTable;
  outbox: OutboxTable;
  open_signups: OpenSignupsTable;
  email_changes: EmailChangesTable;
  direct_logins: DirectLoginsTable;
  member_flows: MemberFlowsTable;
  point_transfers: PointTransfersTable;
  passkeys: PasskeysTable;
  member_devices: MemberDevicesTable;
  sso_sessions: SsoSessionsTable;
  signing_keys: SigningKeysTable;
  operators: OperatorsTable;
  operator_passkeys: OperatorPasskeysTable;
  operator_enrolments: OperatorEnrolmentsTable;
  operator_sessions: OperatorSessionsTable;
  audit_log: AuditLogTable;
  audit_purge_window: AuditPurgeWindowTable;
  oauth_clients: OAuthClientsTable;
  oauth_client_secrets: OAuthClientSecretsTable;
  oauth_client_registry: OAuthClientRegistryTable;
}
