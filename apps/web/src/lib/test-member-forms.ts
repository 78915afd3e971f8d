/**
 * A valid member's form values for the SPA's schema tests (SPEC.md sections 3 and 5): the profile of
 * the profile change, and the open sign-up's form built on it. Tests spread them and change a field.
 */
export const VALID_PROFILE = {
  last_name: '山田',
  first_name: '太郎',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'タロウ',
  sex: '1',
  birthday: '20000101',
  postal_code: '1000001',
  tel: '09012345678',
  email_flg: false,
};

export const VALID_OPEN_SIGNUP = {
  ...VALID_PROFILE,
  email: 'taro@example.com',
  password: 'Open-pass1!',
  password_check: 'Open-pass1!',
  check: true,
};
