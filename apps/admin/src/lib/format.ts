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
