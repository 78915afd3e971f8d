/**
 * The steps of an open member's card (docs/decisions/0016): the card (its number, or a numberless
 * card's mobile), the holder check (the code or the PIN), the finish.
 */
export const OPEN_CARD_STEPS = ['カード情報', '本人確認', '完了'] as const;

/**
 * The headings of the open member's card screens. The router's titles end with them (the check
 * screens' after their flow's name), which its test keeps so.
 */
export const OPEN_CARD_HEADINGS = {
  card: 'カードの登録',
  numberless: 'ナンバーレスカードの登録',
  otp: 'ワンタイムパスワードの入力',
  pin: '暗証番号の確認',
  done: 'カードの登録完了',
} as const;
