import { describe, expect, it } from 'vitest';
import { PROFILE_FIELD_KEYS, profileFieldsSchema, type ProfileResponse } from '@sso/contracts/account';
import { japanDate } from '@sso/contracts/open-signup';
import { errorInput, profileValues, readonlyInputs } from './profile-form.ts';

const stored: ProfileResponse = {
  result_code: 0,
  result_message: 'ok',
  auth_source: 'open',
  last_name: '山田',
  first_name: '花子',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'ハナコ',
  sex: '2',
  birthday: '19991231',
  tel: '09012345678',
  postal_code: '1000001',
  email_flg: false,
  readonly: ['birthday'],
};

describe('the profile form', () => {
  it('starts from the stored profile, which passes the contract rules unchanged', () => {
    const values = profileValues(stored);
    expect(values).toEqual({
      last_name: '山田',
      first_name: '花子',
      last_name_kana: 'ヤマダ',
      first_name_kana: 'ハナコ',
      sex: '2',
      birthday: '19991231',
      tel: '09012345678',
      postal_code: '1000001',
      email_flg: false,
    });
    expect(profileFieldsSchema(japanDate(Date.now())).safeParse(values).success).toBe(true);
  });

  it('leaves a sex that is neither 1 nor 2 unchosen, so that the member must choose', () => {
    expect(profileValues({ ...stored, sex: '' }).sex).toBeUndefined();
  });

  it('makes read-only the inputs of the keys the answer names; a name key covers both parts', () => {
    expect([...readonlyInputs(['birthday'])]).toEqual(['birthday']);
    expect([...readonlyInputs(['full_name', 'full_name_kana'])]).toEqual(['last_name', 'first_name', 'last_name_kana', 'first_name_kana']);
    expect([...readonlyInputs([])]).toEqual([]);
    expect([...readonlyInputs(['password', 'email'])]).toEqual([]);
    expect(readonlyInputs([...PROFILE_FIELD_KEYS]).size).toBe(9);
  });

  it('shows a server error on the input it names, a name key under the family name, and an unknown key nowhere', () => {
    expect(errorInput('birthday')).toBe('birthday');
    expect(errorInput('tel')).toBe('tel');
    expect(errorInput('full_name')).toBe('last_name');
    expect(errorInput('full_name_kana')).toBe('last_name_kana');
    expect(errorInput('first_name')).toBe('first_name');
    expect(errorInput('dry_run')).toBeUndefined();
  });
});
