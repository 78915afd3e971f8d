import { describe, expect, it } from 'vitest';
import { PRODUCT_KEY, TERM_KEYS, termDocument } from './terms.ts';

const bodyOf = (key: string) => termDocument(key)?.body ?? '';

describe('term documents (SPEC.md sections 3, 4 and 9)', () => {
  it('gives every term key of section 3 a title and a body', () => {
    expect(TERM_KEYS).toEqual([
      'ServiceOnNetAnswer',
      `ServiceOn${PRODUCT_KEY}`,
      `PersonalInfoOn${PRODUCT_KEY}`,
      'ImportantMattersOnLineAccount',
      'ServiceOnLineAccount',
      'PersonalInfoOnLineAccount',
    ]);
    for (const key of TERM_KEYS) {
      expect(termDocument(key)?.title, key).toMatch(/\S/);
      expect(bodyOf(key).length, key).toBeGreaterThan(40);
    }
  });

  it('states the membership rules of section 4 in the ID terms', () => {
    const id = bodyOf(`ServiceOn${PRODUCT_KEY}`);
    expect(id).toContain('会員資格は、IDが発行された時点で成立します');
    expect(id).toMatch(/虚偽.*違反.*カード会員資格を喪失/);
    expect(id).toContain('退会した場合、IDとカードの連携は終了します');
  });

  it('states the chat-account rules of section 4 and the chat constants of section 9', () => {
    const chat = bodyOf('ServiceOnLineAccount');
    expect(chat).toContain('当社カード会員の方のみ');
    expect(chat).toContain('会員は、いつでも本サービスの利用を停止することができます');
    expect(chat).toMatch(/すべてのカード会員資格、IDまたはLINEの利用資格が失われた場合、本サービスは自動的に終了します/);
    for (const key of ['ServiceOnLineAccount', 'ImportantMattersOnLineAccount']) {
      expect(bodyOf(key)).toContain('利用料は無料です。ただし、通信料はお客さまのご負担となります');
      expect(bodyOf(key)).toContain('ご請求金額は、毎月更新されます');
    }
  });

  it('states automatic login, paper documents and notice delivery of section 9', () => {
    expect(bodyOf(`ServiceOn${PRODUCT_KEY}`)).toContain('最終アクセスから90日間');
    expect(bodyOf('ServiceOnNetAnswer')).toContain('電子交付の通知から3か月間、当該書面の交付を請求');
    for (const key of ['ServiceOnNetAnswer', `ServiceOn${PRODUCT_KEY}`]) {
      expect(bodyOf(key)).toContain('登録されたメールアドレスへ電子メールを送信した時点で到達したものとみなします');
    }
  });

  it('dates every revision between 2006 and 2025', () => {
    const years = TERM_KEYS.flatMap((key) => [...bodyOf(key).matchAll(/(\d{4})年\d{1,2}月\d{1,2}日 (?:制定|改定)/g)].map((m) => Number(m[1])));
    expect(years.length).toBeGreaterThanOrEqual(TERM_KEYS.length * 2);
    expect(Math.min(...years)).toBe(2006);
    expect(Math.max(...years)).toBe(2025);
  });

  it('has no document for an unknown key', () => {
    expect(termDocument('ServiceOnSomethingElse')).toBeUndefined();
    expect(termDocument('toString')).toBeUndefined();
  });
});
