import { linkOpenResponseSchema, type LinkOpenRequest } from '@sso/contracts/points';
import { apiPost } from '../../lib/api-client.ts';

/**
 * The body of POST /api/link/open (SPEC.md section 3, "Open link: email, last_name_kana,
 * first_name_kana, birthday, tel"), plus the open account's password that proves it is the
 * member's (decision 0014).
 */
export const linkOpenBody = (f: LinkOpenRequest) => ({
  email: f.email,
  last_name_kana: f.last_name_kana,
  first_name_kana: f.first_name_kana,
  birthday: f.birthday,
  tel: f.tel,
  password: f.password,
});

/** POST /api/link/open (Bearer): the open account's points join the ID; answers the open points now held. */
export const linkOpenAccount = (fields: LinkOpenRequest) =>
  apiPost('/api/link/open', linkOpenResponseSchema, { auth: true, json: linkOpenBody(fields), what: 'open link' });
