/** Client messages (SPEC.md section 8, "Client messages"), word for word. */
export const CLIENT_MESSAGES = {
  'C99-000400': '入力内容をご確認ください。',
  'C99-000404': 'URLをご確認ください。',
  'C99-000500': '操作を継続できません。お手数ですが再ログインしてください。',
  'C99-000600': 'しばらく待っても画面が切り替わらない場合は、こちらの画面を閉じてください。',
  'C99-000700':
    'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。',
  'C99-000999': '予期しない問題のため処理できませんでした。',
} as const;

export type ClientMessageCode = keyof typeof CLIENT_MESSAGES;

/**
 * Texts of the screens' frame: a pending button, the steps of a multi-step flow, the support
 * reference on /500 (docs/operations.md) and the page of a partner's link the authorize endpoint
 * would refuse (RFC 6749 section 4.1.2.1: the member is told, never sent on).
 */
export const FRAME_TEXTS = {
  working: '処理中…',
  step: 'ステップ',
  supportReference: 'お問い合わせ番号',
  invalidLinkTitle: 'リンクが無効です',
  invalidLink: 'ご利用のサービスから開いたリンクに誤りがあるため、ログイン画面を表示できません。',
  invalidLinkAdvice: 'お手数ですが、リンクを開いたサービスの提供元にお問い合わせください。',
  /** An error page's button (SPEC.md section 2, "Error pages: each shows a message and a button to login or home"). */
  toLogin: 'ログインへ',
  toTop: 'トップへ',
} as const;

/**
 * A password field's show-password toggle (WAI-ARIA toggle button: its name stays, aria-pressed says
 * whether the password shows). The visible text is part of the name (WCAG 2.5.3).
 */
export const SECRET_TOGGLE = {
  visible: '表示',
  password: 'パスワードを表示',
  pin: '暗証番号を表示',
} as const;

/**
 * Beside the lock message (203, kept word for word, SPEC.md section 8): for how long the account stays
 * locked (LIMITS.loginLockMs, decisions 0003 and 0011) and that a password reset lifts it (decision 0011).
 */
export const LOGIN_LOCK_HELP = {
  text: (minutes: number) =>
    `ロックは${minutes}分たつと自動で解除されます。すぐにご利用になりたい場合は、パスワードを再設定するとロックが解除されます。`,
  resetLink: 'パスワードを再設定する',
  /**
   * The same 203 when the network address's failures refused it (decision 0007; the answer's
   * `lock: "address"`): only time lifts that, so no reset is offered.
   */
  byAddress: (minutes: number) =>
    `ご利用の接続元からのログインの失敗が多いため、一時的にログインを制限しています。${minutes}分ほど時間をおいてから、もう一度お試しください。`,
} as const;

/**
 * A required field left empty (SPEC.md section 5), word for word: the login form's one check. The
 * forms' other messages are VALIDATION_MESSAGES in validation-messages.ts.
 */
export const REQUIRED_MESSAGE = '入力してください';

/** Server-side result messages. The texts of 200/203 never say which of id or password was wrong. */
export const SERVER_MESSAGES = {
  ok: '正常に処理しました。',
  credentials: 'IDまたはパスワードが正しくありません。',
  locked: 'ログインに続けて失敗したため、アカウントを一時的にロックしました。しばらく経ってから再度お試しください。',
  /** A suspended member's login (203; migration 0022): not worded by SPEC.md, written in the style of its messages. */
  suspended: 'このアカウントは現在ご利用を停止しております。お手数ですが、当社お問い合わせ窓口までご連絡ください。',
  recaptcha: 'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。',
  accessDenied: 'アクセスが拒否されました。',
  outOfService: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。',
  validation: '入力内容をご確認ください。',
  unauthorized: '操作を継続できません。お手数ですが再ログインしてください。',
  unexpected: '予期しない問題のため処理できませんでした。',
} as const;

/** Answers of the card sign-up (decision 0004). 902 answers clear the OTP or PIN field (SPEC.md section 8). */
export const SIGNUP_MESSAGES = {
  cardNotFound: 'ご入力のカード情報ではご登録いただけません。カード番号・有効期限・セキュリティコードをご確認ください。',
  cardAlreadyLinked: 'このカードは既にメンバーIDに登録されています。ログインしてご利用ください。',
  emailRegistered:
    'このメールアドレスは既にメンバーIDに登録されています。ログインするか、パスワードをお忘れの方はパスワードの再設定を行ってください。',
  otpWrong: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。',
  otpExpired: 'ワンタイムパスワードの有効期限が切れています。再送信してください。',
  pinWrong: '暗証番号または口座番号が正しくありません。もう一度ご入力ください。',
  locked: '入力回数の上限を超えたため、しばらくの間ご登録いただけません。時間をおいて再度お試しください。',
  resendLimit: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。',
  flowExpired: '登録の有効期限が切れたか、手続きの順序が正しくありません。お手数ですが最初からやり直してください。',
  infoGuide: 'ご入力のカードはWebでのご登録を受け付けておりません。ご案内をご確認ください。',
  chatbotGuide: 'ご入力のカードのご登録については、チャットボットでご案内しております。',
  resent: 'ワンタイムパスワードを再送信しました。',
} as const;

/** The services only cardholders use (SPEC.md section 6), and the open sign-up's conditions (section 6). */
export const SERVICE_MESSAGES = {
  /** A member without a card at a door of a cardholders-only service (300): never the partner's page. */
  cardholdersOnly: 'LINE公式アカウントサービスは、当社のクレジットカードをお持ちの方のみご利用いただけます。カードを登録すると、ご利用いただけるようになります。',
  /** The way on: adding a card from the ID's Top page. */
  addCardFromTop: 'カードの登録は、メンバーIDのトップページから行えます。',
  /** The open sign-up started from a cardholders-only service: said before registering and on the finish page. */
  openSignupNoLineAccount:
    'メールアドレスで登録したオープン会員の方は、このままではLINE公式アカウントサービスをご利用いただけません。登録後にカードを登録すると、ご利用いただけるようになります。',
} as const;

/**
 * Passkeys (docs/decisions/0024-passkeys.md): the sign-in, the step-up and the browser's ceremony;
 * the settings' words are PASSKEY_SETTINGS_MESSAGES in screen-messages.ts.
 */
export const PASSKEY_MESSAGES = {
  loginButton: 'パスキーでログイン',
  /** A partner asked for phishing-resistant authentication (`acr_values`, decision 0025): the password form is not offered. */
  loginPasskeyRequired: 'このサービスへのログインには、パスキーが必要です。「パスキーでログイン」からログインしてください。',
  reauthButton: 'パスキーで確認する',
  /** An assertion the server cannot accept: unknown, another member's, a wrong site, a replayed or stale challenge. Never says which. */
  notAccepted: 'パスキーを確認できませんでした。もう一度お試しいただくか、パスワードでログインしてください。',
  /** The browser's ceremony ended without an answer (cancelled, timed out, no passkey on the device). */
  cancelled: 'パスキーの操作が完了しませんでした。もう一度お試しください。',
  unsupported: 'ご利用のブラウザはパスキーに対応していません。',
  alreadyRegistered: 'このパスキーは既に登録されています。',
  /** The fresh-proof refusal of a member who chose to require a passkey (RFC 9470 challenge). */
  freshProofPasskeyNeeded: 'ご本人確認のため、パスキーで確認してください。',
  /** The proof prompt of a member who requires a passkey, on a device without it (decision 0012: nobody is locked out). */
  freshProofPasskeyAway:
    'この端末にパスキーがない場合は、パスキーを保存した端末（スマートフォンなど）でお手続きください。パスキーを保存した端末をお持ちでない場合は、お問い合わせ窓口までご連絡ください。',
  /** The password change's current password, which the passkey's confirmation in the same request replaces. */
  currentPasswordHint: '（パスキーで本人確認する場合は入力不要）',
  /** The fresh-proof prompt of a member with a passkey who may still use the password. */
  freshProofEither: 'ご本人確認のため、パスキーで確認するか、現在のパスワードを入力してください。',
} as const;

/**
 * What a member reads for an OAuth error (RFC 6749 sections 4.1.2.1 and 5.2, RFC 6750 section 3.1,
 * OpenID Connect Core 1.0 section 3.1.2.6): never the server's English error_description, which is
 * for partners. The spec's C99 texts where one fits; one table, read by every screen of the SPA.
 */
export const OAUTH_ERROR_MESSAGES = {
  /** A used, expired or another client's code or refresh token: the member logs in again. */
  invalid_grant: CLIENT_MESSAGES['C99-000500'],
  invalid_token: CLIENT_MESSAGES['C99-000500'],
  login_required: CLIENT_MESSAGES['C99-000500'],
  consent_required: CLIENT_MESSAGES['C99-000500'],
  interaction_required: CLIENT_MESSAGES['C99-000500'],
  account_selection_required: CLIENT_MESSAGES['C99-000500'],
  /** A malformed request or a link the server refuses: the link is at fault, so the URL is. */
  invalid_request: CLIENT_MESSAGES['C99-000404'],
  invalid_request_uri: CLIENT_MESSAGES['C99-000404'],
  invalid_request_object: CLIENT_MESSAGES['C99-000404'],
  /** The client's own set-up (not the member's doing). */
  invalid_client: CLIENT_MESSAGES['C99-000999'],
  unauthorized_client: CLIENT_MESSAGES['C99-000999'],
  unsupported_grant_type: CLIENT_MESSAGES['C99-000999'],
  unsupported_response_type: CLIENT_MESSAGES['C99-000999'],
  invalid_scope: CLIENT_MESSAGES['C99-000999'],
  insufficient_scope: CLIENT_MESSAGES['C99-000999'],
  server_error: CLIENT_MESSAGES['C99-000999'],
  access_denied: SERVER_MESSAGES.accessDenied,
  temporarily_unavailable: SERVER_MESSAGES.outOfService,
} as const satisfies Record<string, string>;

/** The Japanese text of an OAuth error code; an unknown code gives the unexpected message (C99-000999). */
export function oauthErrorMessage(error: string): string {
  return Object.hasOwn(OAUTH_ERROR_MESSAGES, error) ? OAUTH_ERROR_MESSAGES[error as keyof typeof OAUTH_ERROR_MESSAGES] : CLIENT_MESSAGES['C99-000999'];
}

/** Other texts (SPEC.md section 8). */
export const TEXTS = {
  loading: 'データを読み込んでいます...',
  loadFailed: 'データの読み込みに失敗しました',
  identityUnconfirmed: 'ご本人様確認ができません',
  registerFailed: '登録できませんでした',
  slow: '処理に時間がかかっています',
  notFound: 'お探しのページが見つかりませんでした。',
} as const;
