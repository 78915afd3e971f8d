/**
 * The OAuth scopes of this service (RFC 6749 section 3.3; docs/decisions/0010-scopes-and-audience.md,
 * which has the scope of every Bearer endpoint in one table). A token may call a Bearer endpoint only
 * when its scope holds the one the endpoint declares (RFC 6750 section 3.1, `insufficient_scope`).
 */
export const SCOPES = {
  /** The sign-in itself: the client learns who the member is. No Bearer endpoint needs it alone. */
  openid: 'openid',
  /** The member and their attributes (/api/user, /api/user/attribute, /api/user/profile): what a partner needs to know. */
  userRead: 'user:read',
  /** Account management: e-mail, password, profile change, withdrawal, ending a partner's session, the signed-in browsers and services (decision 0026). */
  accountWrite: 'account:write',
  /** The member's activity log. */
  activityRead: 'activity:read',
  /** The member's card list and the cards waiting to be added. */
  cardsRead: 'cards:read',
  /** Adding, activating, enabling, refreshing and removing cards; the open account and the card upgrade. */
  cardsWrite: 'cards:write',
  /** Joining an open account to the card member (/api/link/open). */
  linkWrite: 'link:write',
  /** The point balances. */
  pointsRead: 'points:read',
  /** Point transfer. */
  pointsTransfer: 'points:transfer',
  /** Handing the member to another client: one-time tokens for direct login, Net Answer's direct-login URL. */
  directLogin: 'direct_login',
  /**
   * OpenID Connect Core 1.0 section 5.4: the claims the userinfo endpoint and the ID token may carry,
   * beside `sub` (docs/decisions/0025-openid-provider.md). `profile`: the names (kanji and kana),
   * birthdate, gender, updated_at.
   */
  profile: 'profile',
  /** `email`, `email_verified`. */
  email: 'email',
  /** `phone_number` (E.164), `phone_number_verified`. */
  phone: 'phone',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

/**
 * What each scope allows, in the words a partner's developer reads them (the OpenAPI document's
 * OAuth flow, docs/partners.md): the same as the comments above and decision 0010's table.
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  openid: 'The sign-in: the client learns who the member is. No API endpoint needs it alone.',
  'user:read': 'The member and their attributes (/api/user, /api/user/attribute, /api/user/profile).',
  'account:write': 'Account management: e-mail, password, login mobile number, passkeys, profile, withdrawal, the signed-in browsers and services.',
  'activity:read': "The member's activity log.",
  'cards:read': 'The card list and the cards waiting to be added.',
  'cards:write': "Adding, activating, enabling, refreshing and removing cards; an open member's card upgrade.",
  'link:write': 'Joining an open account to the card member.',
  'points:read': 'The point balances.',
  'points:transfer': 'Moving the open points to a card.',
  direct_login: 'Handing the member to another client: direct-login one-time tokens, the Net Answer direct-login URL.',
  profile: 'OpenID Connect claims at userinfo: name, family_name, given_name, the kana names (family_name#ja-Kana-JP, given_name#ja-Kana-JP), birthdate, gender, updated_at.',
  email: 'OpenID Connect claims at userinfo: email, email_verified.',
  phone: 'OpenID Connect claims at userinfo: phone_number (E.164), phone_number_verified.',
};

/** Every scope that exists, as the metadata's `scopes_supported` lists them (RFC 8414 section 2). */
export const ALL_SCOPES: readonly Scope[] = Object.values(SCOPES);

export const isScope = (s: string): s is Scope => (ALL_SCOPES as readonly string[]).includes(s);

/** What the web client (SIAP009) asks for at authorize: everything its pages call. */
export const WEB_SCOPE = ALL_SCOPES.join(' ');
