import { describe, expect, it } from 'vitest';
import { inputKindOf, normaliseFields, normaliseInput } from './input-normalise.ts';

describe('forgiving input (SPEC.md section 5, docs/decisions/0018)', () => {
  it('NFKC for a text field: a full-width e-mail address becomes half-width', () => {
    expect(normaliseInput('text', 'ｔａｒｏ．ｙａｍａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('taro.yamada@example.com');
    expect(normaliseInput('text', 'user@example.com')).toBe('user@example.com');
  });

  it('strips hyphens and their look-alikes, slashes and spaces from phone, postal code and card number', () => {
    expect(normaliseInput('digits', '090-1234-5678')).toBe('09012345678');
    expect(normaliseInput('digits', '０９０－１２３４－５６７８')).toBe('09012345678');
    expect(normaliseInput('digits', '090ー1234ー5678')).toBe('09012345678');
    expect(normaliseInput('digits', '090ｰ1234‐5678')).toBe('09012345678');
    expect(normaliseInput('digits', '090−1234–5678—')).toBe('09012345678');
    expect(normaliseInput('digits', '１００-０００１')).toBe('1000001');
    expect(normaliseInput('digits', '〒100 0001')).toBe('〒1000001');
    expect(normaliseInput('digits', '4541 0000 0000 0000')).toBe('4541000000000000');
    expect(normaliseInput('digits', '4541　0000／0000 0000 ')).toBe('4541000000000000');
  });

  it('leaves in what is not a separator, so that the digits rule still refuses it', () => {
    expect(normaliseInput('digits', '090a1234')).toBe('090a1234');
    expect(normaliseInput('digits', '090.1234')).toBe('090.1234');
  });

  it('takes a birthday with slashes, hyphens or 年月日, padding a one-digit month or day', () => {
    expect(normaliseInput('birthday', '1990/01/01')).toBe('19900101');
    expect(normaliseInput('birthday', '１９９０／１／２')).toBe('19900102');
    expect(normaliseInput('birthday', '1990-1-2')).toBe('19900102');
    expect(normaliseInput('birthday', '1990.12.31')).toBe('19901231');
    expect(normaliseInput('birthday', '1990年4月1日')).toBe('19900401');
    expect(normaliseInput('birthday', '19900101')).toBe('19900101');
    // Not a date with separators: the separators go, the length rule answers.
    expect(normaliseInput('birthday', '90/1/1')).toBe('9011');
  });

  it('converts hiragana and half-width katakana in a kana name to full-width katakana', () => {
    expect(normaliseInput('kana', 'やまだ')).toBe('ヤマダ');
    expect(normaliseInput('kana', 'ゔぃくとりあ')).toBe('ヴィクトリア');
    expect(normaliseInput('kana', 'ﾀﾞｲｽｹ')).toBe('ダイスケ');
    expect(normaliseInput('kana', 'たろー')).toBe('タロー');
    expect(normaliseInput('kana', 'ヤマダ')).toBe('ヤマダ');
  });

  it('keeps a kanji name full-width: half-width katakana and ASCII become full-width, and ideographs stay as typed', () => {
    expect(normaliseInput('name', 'ﾔﾏﾀﾞ')).toBe('ヤマダ');
    expect(normaliseInput('name', 'Anna')).toBe('Ａｎｎａ');
    expect(normaliseInput('name', 'Ａｎｎａ')).toBe('Ａｎｎａ');
    expect(normaliseInput('name', 'ジョン Smith')).toBe('ジョン\u3000Ｓｍｉｔｈ');
    // A compatibility ideograph (神, U+FA19) is not folded to its unified form (神, U+795E), as NFKC would.
    expect(normaliseInput('name', '\uFA19田')).toBe('\uFA19田');
    expect(normaliseInput('name', '山田')).toBe('山田');
  });

  it('leaves a password byte for byte', () => {
    expect(normaliseInput('verbatim', 'Ｐａｓｓ 1２ ')).toBe('Ｐａｓｓ 1２ ');
  });

  it('takes a login id as an e-mail address or a mobile number with hyphens', () => {
    expect(normaliseInput('loginId', ' ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ ')).toBe('taro@example.jp');
    expect(normaliseInput('loginId', '090-1234-5678')).toBe('09012345678');
    expect(normaliseInput('loginId', '０９０ １２３４ ５６７８')).toBe('09012345678');
    expect(normaliseInput('loginId', '1-taro@example.jp')).toBe('1-taro@example.jp');
  });

  it('knows each field by its name; unknown names are text in an input but left alone on submit', () => {
    expect(inputKindOf('tel')).toBe('digits');
    expect(inputKindOf('last_name_kana')).toBe('kana');
    expect(inputKindOf('password', 'password')).toBe('verbatim');
    expect(inputKindOf('pin', 'password')).toBe('digits');
    expect(inputKindOf('other', 'password')).toBe('verbatim');
    expect(inputKindOf('other', 'text')).toBe('text');
    expect(inputKindOf(undefined, 'text')).toBe('text');
    expect(inputKindOf('other')).toBe('verbatim');
  });

  it('normalises a whole form by names, leaving passwords and non-strings alone', () => {
    const values = { tel: '090-1234-5678', first_name_kana: 'たろう', password: 'Ｐａｓｓ1', check: true, other: 'ＡＢ' };
    expect(normaliseFields(values)).toEqual({ tel: '09012345678', first_name_kana: 'タロウ', password: 'Ｐａｓｓ1', check: true, other: 'ＡＢ' });
  });
});
