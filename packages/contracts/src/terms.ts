/**
 * Term documents by key (SPEC.md section 3). {product} is this product's key.
 * Each has a fixed body; an unknown key has none (the SPA shows an empty title and body and warns).
 */
export const PRODUCT_KEY = 'MemberId';
export const PRODUCT_NAME = 'メンバーID';

export const TERM_KEYS = [
  'ServiceOnNetAnswer',
  `ServiceOn${PRODUCT_KEY}`,
  `PersonalInfoOn${PRODUCT_KEY}`,
  'ImportantMattersOnLineAccount',
  'ServiceOnLineAccount',
  'PersonalInfoOnLineAccount',
] as const;
export type TermKey = (typeof TERM_KEYS)[number];

export interface TermDocument {
  title: string;
  body: string;
}

/** The numbers the terms state (SPEC.md section 9), so that the bodies and the tests share them. */
export const TERM_FACTS = {
  autoLoginDays: 90,
  paperRequestMonths: 3,
  firstEnacted: '2006年4月1日',
  lastRevised: '2025年4月1日',
} as const;

const revision = (enacted: string) => `${enacted} 制定\n${TERM_FACTS.lastRevised} 改定`;
const body = (...lines: string[]) => lines.join('\n');

/** The fixed bodies (SPEC.md sections 3, 4 and 9): membership rules, notices, automatic login, the chat service. */
const DOCUMENTS: Record<TermKey, TermDocument> = {
  ServiceOnNetAnswer: {
    title: 'Net Answer 利用規約',
    body: body(
      '第1条（目的）本規約は、当社のカード会員向けオンラインサービス「Net Answer」のご利用条件を定めるものです。',
      '第2条（電子交付）当社は、ご利用明細その他の書面に代えて、その内容を電磁的方法により提供することがあります。',
      `第3条（書面の請求）会員は、電子交付の通知から${TERM_FACTS.paperRequestMonths}か月間、当該書面の交付を請求することができます。`,
      '第4条（通知の到達）当社から会員への通知は、登録されたメールアドレスへ電子メールを送信した時点で到達したものとみなします。',
      revision(TERM_FACTS.firstEnacted),
    ),
  },
  [`ServiceOn${PRODUCT_KEY}`]: {
    title: `${PRODUCT_NAME} 利用規約`,
    body: body(
      `第1条（目的）本規約は、${PRODUCT_NAME}（以下「ID」）のご利用条件を定めるものです。`,
      '第2条（会員資格）会員資格は、IDが発行された時点で成立します。',
      '第3条（資格の喪失）会員が登録内容に虚偽の申告をした場合、本規約に違反した場合、またはカード会員資格を喪失した場合、当社は会員資格を取り消すことがあります。',
      '第4条（退会）会員が退会した場合、IDとカードの連携は終了します。',
      `第5条（自動ログイン）自動ログインの有効期間は、IDが必要なサイトへの最終アクセスから${TERM_FACTS.autoLoginDays}日間です。`,
      '第6条（通知の到達）当社から会員への通知は、登録されたメールアドレスへ電子メールを送信した時点で到達したものとみなします。',
      revision('2023年4月1日'),
    ),
  },
  [`PersonalInfoOn${PRODUCT_KEY}`]: {
    title: `${PRODUCT_NAME} 個人情報の取扱いに関する同意条項`,
    body: body(
      `第1条（利用目的）当社は、${PRODUCT_NAME}の提供、本人確認、ご連絡およびサービス改善のため、会員の個人情報を利用します。`,
      '第2条（提供）当社は、法令に基づく場合を除き、会員の同意なく個人情報を第三者に提供しません。',
      '第3条（開示等）会員は、当社所定の方法により、自己の個人情報の開示、訂正または削除を求めることができます。',
      revision('2023年4月1日'),
    ),
  },
  ImportantMattersOnLineAccount: {
    title: 'LINE公式アカウントサービス 重要事項',
    body: body(
      '1. 本サービスは、当社カード会員の方のみご利用いただけます。',
      '2. 本サービスの利用料は無料です。ただし、通信料はお客さまのご負担となります。',
      '3. チャットで表示されるご請求金額は、毎月更新されます。',
      revision('2019年10月1日'),
    ),
  },
  ServiceOnLineAccount: {
    title: 'LINE公式アカウントサービス 利用規約',
    body: body(
      '第1条（目的）本規約は、LINE公式アカウントサービス（以下「本サービス」）のご利用条件を定めるものです。',
      '第2条（利用資格）本サービスは、当社カード会員の方のみご利用いただけます。',
      '第3条（利用料）本サービスの利用料は無料です。ただし、通信料はお客さまのご負担となります。',
      '第4条（ご請求金額）チャットで表示されるご請求金額は、毎月更新されます。',
      '第5条（利用の停止）会員は、いつでも本サービスの利用を停止することができます。',
      '第6条（自動終了）すべてのカード会員資格、IDまたはLINEの利用資格が失われた場合、本サービスは自動的に終了します。',
      revision('2019年10月1日'),
    ),
  },
  PersonalInfoOnLineAccount: {
    title: 'LINE公式アカウントサービス 個人情報の取扱い',
    body: body(
      '第1条（利用目的）当社は、本サービスの提供およびご案内のため、会員の個人情報とLINEの識別子を紐づけて利用します。',
      '第2条（提供）当社は、法令に基づく場合を除き、会員の同意なく個人情報を第三者に提供しません。',
      revision('2019年10月1日'),
    ),
  },
} as Record<TermKey, TermDocument>;

/** Current version of each term; a member who accepted an older version must accept again. */
export const TERM_VERSIONS: Record<TermKey, string> = Object.fromEntries(
  TERM_KEYS.map((k) => [k, '2025-04-01']),
) as Record<TermKey, string>;

export const isTermKey = (key: string): key is TermKey =>
  (TERM_KEYS as readonly string[]).includes(key);

/** Looks up a term; an unknown key gives an empty title and body (the caller logs the warning). */
export const termDocument = (key: string): TermDocument | undefined =>
  isTermKey(key) ? DOCUMENTS[key] : undefined;
