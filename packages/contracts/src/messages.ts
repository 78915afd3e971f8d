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

/** Server-side result messages. The texts of 200/203 never say which of id or password was wrong. */
export const SERVER_MESSAGES = {
  ok: '正常に処理しました。',
  credentials: 'IDまたはパスワードが正しくありません。',
  locked: 'ログインに続けて失敗したため、アカウントを一時的にロックしました。しばらく経ってから再度お試しください。',
  recaptcha: 'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。',
  accessDenied: 'アクセスが拒否されました。',
  outOfService: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。',
  validation: '入力内容をご確認ください。',
  unauthorized: '操作を継続できません。お手数ですが再ログインしてください。',
  unexpected: '予期しない問題のため処理できませんでした。',
} as const;

/** Field validation messages (SPEC.md section 5), word for word. */
export const VALIDATION_MESSAGES = {
  required: '入力してください',
  digits: 'すべて半角数字で入力してください',
  sex: '性別を選択してください',
  birthdayLength: '8桁で入力してください',
  birthdayDate: '正しい日付を入力してください',
  ascii: '半角英数字で入力してください',
  passwordConfirm: 'パスワード欄と同じ値を入力してください',
} as const;

/** Other texts (SPEC.md section 8). */
export const TEXTS = {
  loading: 'データを読み込んでいます...',
  loadFailed: 'データの読み込みに失敗しました',
  identityUnconfirmed: 'ご本人様確認ができません',
  registerFailed: '登録できませんでした',
  slow: '処理に時間がかかっています',
  notFound: 'お探しのページが見つかりませんでした。',
} as const;
