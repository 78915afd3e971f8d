import { AUDIT_ACTIONS, type AuditActionName } from '@sso/contracts/admin-members';

/** Times in the console: Japan time, as the support desk and the members read them. */
export const japanTime = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '—' : new Date(ms).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });

/** A duration left, in minutes rounded up ("あと 12 分"). */
export const minutesLeft = (ms: number | null): string => (ms === null ? '—' : `あと${Math.max(1, Math.ceil(ms / 60_000))}分`);

/** A member's status in Japanese. */
export const MEMBER_STATUS: Record<'active' | 'locked' | 'suspended' | 'withdrawn', string> = {
  active: '利用中',
  locked: 'ログインロック中',
  suspended: '利用停止中',
  withdrawn: '退会済み',
};

export const MEMBER_TYPE: Record<'card' | 'open', string> = { card: 'カード会員', open: 'オープン会員' };

/** The personal fields of a member's page in Japanese. */
export const FIELD_LABELS: Record<'email' | 'tel' | 'profile_tel' | 'name' | 'name_kana' | 'birthday' | 'postal_code', string> = {
  email: 'メールアドレス',
  tel: '携帯電話番号',
  profile_tel: '電話番号',
  name: '氏名',
  name_kana: '氏名（カナ）',
  birthday: '生年月日',
  postal_code: '郵便番号',
};

/** A list of URIs typed one per line: the lines, trimmed, empty ones left out. */
export const linesOf = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** A list of words typed with spaces or commas (scopes, terms). */
export const wordsOf = (text: string): string[] => text.split(/[\s,、]+/).filter((w) => w !== '');

/** The audit log's actions in Japanese, as the audit screen's filter and rows say them (docs/operations.md, "The audit log"). */
export const AUDIT_ACTION_LABELS: Record<AuditActionName, string> = {
  'operator.bootstrap': '最初の管理者の作成',
  'operator.enrol': 'パスキーの登録（オペレーター）',
  'operator.sign_in': 'ログイン（オペレーター）',
  'operator.invite': 'オペレーターの招待',
  'operator.disable': 'オペレーターの無効化',
  'operator.enable': 'オペレーターの有効化',
  'member.search': '会員検索',
  'member.view': '会員情報の表示',
  'member.reveal': '個人情報の表示',
  'member.unlock': 'ログインロックの解除',
  'member.end_sessions': '全セッションの終了',
  'member.password_reset': 'パスワード再設定メールの送信',
  'member.resend_activation': '有効化メールの再送',
  'member.suspend': '会員の利用停止',
  'member.restore': '会員の利用再開',
  'member.passkey_remove': '会員のパスキーの削除',
  'client.create': 'クライアントの登録',
  'client.update': 'クライアントの変更',
  'client.disable': 'クライアントの無効化',
  'client.enable': 'クライアントの有効化',
  'client.rotate_secret': 'シークレットの更新',
  'client.retire_secret': '旧シークレットの失効',
  'audit.read': '監査ログの閲覧',
  'audit.export': '監査ログの書き出し',
};

/** An audit action in Japanese; one this build does not know (a newer server's), as it is. */
export const auditActionLabel = (action: string): string => ((AUDIT_ACTIONS as readonly string[]).includes(action) ? AUDIT_ACTION_LABELS[action as AuditActionName] : action);
