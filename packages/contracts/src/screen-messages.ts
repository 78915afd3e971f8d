/*
 * The texts of the screens a member reaches past the login (the account changes, the cards, the
 * direct login, the points, the open-account link, an open member's card, the passkey settings)
 * and of the server's logout pages, beside messages.ts rather than in it: the SPA's entry holds
 * messages.ts whole, so what is there weighs on the login route's JavaScript
 * (bench/lib/spa-size.ts), and what is here loads with the screens that show it.
 */

/** Answers of the open sign-up, the password recovery and the account changes (SPEC.md section 8). */
export const ACCOUNT_MESSAGES = {
  /** An address that cannot be the new login id: never says whose it is. */
  emailUnavailable: 'このメールアドレスはご利用いただけません。別のメールアドレスをご入力ください。',
  emailSame: '現在と同じメールアドレスです。',
  /** A mobile number that cannot be the new login id: never says whose it is (decision 0014). */
  telUnavailable: 'この携帯電話番号はご利用いただけません。別の携帯電話番号をご入力ください。',
  telSame: '現在と同じ携帯電話番号です。',
  currentPasswordWrong: '現在のパスワードが正しくありません。',
  readonlyField: 'この項目は変更できません。',
  profileForOpenMembers: 'プロフィールの変更はオープン会員の方のみご利用いただけます。',
  /** An activation or reset link that expired, was used, or was replaced by a newer one. */
  linkInvalid: 'URLの有効期限が切れているか、既に使用されています。お手数ですが、もう一度お手続きください。',
  /** An e-mail change whose register_token is unknown, expired, replaced or already used (300). */
  changeExpired: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。',
  /** Too many wrong codes for the member's e-mail change (203, 30 minutes). */
  changeLocked: '入力回数の上限を超えたため、しばらくの間お手続きいただけません。時間をおいて再度お試しください。',
  /** A sensitive change asked without a fresh proof of presence (401 insufficient_user_authentication, RFC 9470). */
  freshProofNeeded: 'ご本人確認のため、現在のパスワードを入力してください。',
  /** The e-mail change's and the withdrawal's screens, before the proof is asked (decision 0012): why, and what will be asked. */
  freshProofWhy: '第三者による不正なお手続きを防ぐため、このお手続きの前にご本人確認をお願いしています。',
  /** `minutes`: LIMITS.freshProofMaxAgeMs. A silent login from the SSO session proves nothing (decision 0026): only a password or passkey counts. */
  freshProofWhat: (minutes: number) =>
    `ご本人確認の画面が表示されたら、現在のパスワードを入力するか、パスキーで確認してください（パスキーを必須に設定している場合はパスキーのみ）。パスワードまたはパスキーでのログインやご本人確認から${minutes}分以内の場合は表示されません。`,
} as const;

/** Answers of the card features (decision 0006). */
export const CARD_MESSAGES = {
  /** No card of the member by that id: the same words whether it is another member's or none at all. */
  cardNotFound: '対象のカードが見つかりません。カード一覧からやり直してください。',
  alreadyLinked: 'このカードは既に登録されています。',
  notActivatable: 'このカードは有効化の必要がありません。',
  activationKeyWrong: '認証キーが正しくありません。もう一度ご入力ください。',
  activationLocked: '入力回数の上限を超えたため、しばらくの間カードを有効化できません。時間をおいて再度お試しください。',
  addLocked: '入力回数の上限を超えたため、しばらくの間カードを追加できません。時間をおいて再度お試しください。',
  notRemovable: 'ご利用中のカードのみ削除できます。',
  notEnablable: 'このカードは現在ご利用いただけません。',
  netAnswerWrong: 'Net AnswerのIDまたはパスワードが正しくありません。',
  netAnswerLocked: '入力回数の上限を超えたため、しばらくの間Net Answerと連携できません。時間をおいて再度お試しください。',
  netAnswerRequired: 'Net Answerをご利用いただくには、Net AnswerのIDとパスワードの登録が必要です。',
  openMembersUpgrade: 'オープン会員の方は、「カードを登録する」からご本人様確認のうえカードをご登録ください。',
} as const;

/** Answers of the direct login and partner hand-off (decision 0006). */
export const DIRECT_LOGIN_MESSAGES = {
  serviceUnavailable: 'このサービスにはログインできません。',
  tokenInvalid: 'ログインの有効期限が切れたか、既に使用されています。お手数ですが、もう一度お手続きください。',
  termsRequired: 'このサービスをご利用いただくには、利用規約への同意が必要です。',
} as const;

/**
 * Who may register as an open member (SPEC.md section 6), stated where the member agrees to the terms
 * of the open sign-up.
 */
export const OPEN_MEMBER_CONDITIONS = {
  lead: 'オープン会員としてご登録いただけるのは、次のすべてに当てはまる方です。',
  items: [
    '満12歳以上の方（中学生の方を除きます）',
    '日本国内にお住まいの方',
    '法人または反社会的勢力に該当しない方',
    'ご本人名義のメールアドレスをログインIDとしてご利用になる方',
  ],
} as const;

/** The three refusals of the point merge screens (SPEC.md section 2), and the transfer's answers (decision 0006). */
export const POINT_MESSAGES = {
  openInfoUnavailable: 'オープン会員の情報を取得できませんでした。',
  /** Top's points part when the point ledger was slow or down: the rest of Top is shown (SPEC.md section 2, Top). */
  balanceUnavailable: 'ただいまポイント残高を表示できません。時間をおいて再度お試しください。',
  noEligibleCard: 'ポイントを移行できるカードが登録されていません。',
  zeroBalance: 'オープン会員のポイント残高が0のため、ポイントの移行は不要です。',
  transferExpired: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。',
  transferLocked: '入力回数の上限を超えたため、しばらくの間ポイントを移行できません。時間をおいて再度お試しください。',
} as const;

/** Answers of the open-account link (decision 0006). A failed match never says which field differed. */
export const LINK_MESSAGES = {
  notMatched: 'ご入力の情報に一致するオープン会員が見つかりません。ご入力内容をご確認ください。',
  locked: '入力回数の上限を超えたため、しばらくの間連携できません。時間をおいて再度お試しください。',
  alreadyLinked: '既にオープン会員の情報と連携済みです。',
  cardMembersOnly: 'オープン会員の連携はカード会員の方のみご利用いただけます。',
} as const;

/** Answers of the numberless card and of an open member adding a card (`register`/`upgrade/sc`, decision 0016). */
export const UPGRADE_MESSAGES = {
  openMembersOnly: 'このお手続きはオープン会員の方のみご利用いただけます。',
  /** The upgrade asks the PIN alone (no bank account), so the sign-up's pinWrong would name too much. */
  pinWrong: '暗証番号が正しくありません。もう一度ご入力ください。',
} as const;

/** The RP-initiated logout's pages (OpenID Connect RP-Initiated Logout 1.0; decision 0025), rendered by the server. */
export const LOGOUT_MESSAGES = {
  doneTitle: 'ログアウトしました',
  done: 'メンバーIDからログアウトしました。ご利用のサービスに戻るには、もう一度ログインしてください。',
  /** A post_logout_redirect_uri that is not the client's: the member is not sent there. */
  notReturned: 'ログアウト後の戻り先が登録されていないため、元のサービスには戻りません。このページを閉じてください。',
  confirmTitle: 'ログアウトの確認',
  confirm: 'メンバーIDからログアウトしますか？',
  confirmButton: 'ログアウトする',
  invalidTitle: 'エラー',
  invalid: 'ログアウトの要求が正しくありません。ご利用のサービスからもう一度お試しください。',
  toWelcome: 'メンバーIDのトップへ',
} as const;

/**
 * The passkey settings' words (/user/passkeys, docs/decisions/0024-passkeys.md), the server's answers
 * among them; the sign-in's and the step-up's stay PASSKEY_MESSAGES in messages.ts.
 */
export const PASSKEY_SETTINGS_MESSAGES = {
  title: 'パスキー',
  lead: 'パスキーを登録すると、パスワードを入力せずに、この端末の指紋・顔認証や画面ロックでログインできます。フィッシングサイトでは使えないため、より安全です。',
  add: 'パスキーを登録する',
  notFound: '対象のパスキーが見つかりません。一覧からやり直してください。',
  tooMany: '登録できるパスキーの数の上限に達しています。使わなくなったパスキーを削除してから登録してください。',
  none: '登録されているパスキーはありません。',
  requireNeedsPasskey: 'パスキーを登録してから設定してください。',
  requireLabel: '重要なお手続きの本人確認にパスキーを必須にする',
  synced: '同期されたパスキー',
  deviceBound: 'この端末のみのパスキー',
  revoked: 'パスキーを無効にし、すべての端末でログアウトしました。パスワードを変更することをおすすめします。',
} as const;
