/**
 * Term documents by key (SPEC.md section 3). {product} is this product's key.
 * The full fixed bodies are completed with issue 7; an unknown key gives an empty title and body.
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

const DOCUMENTS: Record<TermKey, TermDocument> = {
  ServiceOnNetAnswer: {
    title: 'Net Answer 利用規約',
    body: '本規約は、Net Answer のご利用条件を定めるものです。',
  },
  [`ServiceOn${PRODUCT_KEY}`]: {
    title: `${PRODUCT_NAME} 利用規約`,
    body: `本規約は、${PRODUCT_NAME} のご利用条件を定めるものです。会員資格は、IDが発行された時点で成立します。`,
  },
  [`PersonalInfoOn${PRODUCT_KEY}`]: {
    title: `${PRODUCT_NAME} 個人情報の取扱いに関する同意条項`,
    body: `${PRODUCT_NAME} のご利用にあたり、個人情報を以下のとおり取り扱います。`,
  },
  ImportantMattersOnLineAccount: {
    title: 'LINE公式アカウントサービス 重要事項',
    body: 'LINE公式アカウントサービスのご利用にあたっての重要事項です。',
  },
  ServiceOnLineAccount: {
    title: 'LINE公式アカウントサービス 利用規約',
    body: 'LINE公式アカウントサービスのご利用条件を定めるものです。',
  },
  PersonalInfoOnLineAccount: {
    title: 'LINE公式アカウントサービス 個人情報の取扱い',
    body: 'LINE公式アカウントサービスにおける個人情報の取扱いを定めるものです。',
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
