/** Kysely table types. Times are epoch milliseconds in BIGINT columns, flags are 0/1 integers, so one schema fits SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  email: string;
  tel: string | null;
  password_hash: string;
  member_type: 'card' | 'open';
  status: 'active' | 'withdrawn';
  last_name: string | null;
  first_name: string | null;
  last_name_kana: string | null;
  first_name_kana: string | null;
  sex: string | null;
  birthday: string | null;
  postal_code: string | null;
  email_flg: number;
  created_at: number;
  updated_at: number;
}

export interface TermAcceptancesTable {
  user_id: string;
  term_key: string;
  version: string;
  accepted_at: number;
}

export interface LoginThrottleTable {
  key: string;
  failed_count: number;
  locked_until: number | null;
  updated_at: number;
}

export interface AuthCodesTable {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  user_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  family_id: string | null;
}

export interface TokenFamiliesTable {
  id: string;
  user_id: string;
  client_id: string;
  terminal_id: string | null;
  scope: string;
  created_at: number;
  revoked_at: number | null;
}

/** One row per issued access/refresh pair; parent_id links a rotation to the pair it replaced. */
export interface TokenGrantsTable {
  id: string;
  family_id: string;
  parent_id: string | null;
  access_hash: string;
  refresh_hash: string;
  access_expires_at: number;
  refresh_expires_at: number;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

export interface ActivityLogTable {
  id: string;
  user_id: string;
  event: string;
  client_id: string | null;
  detail: string | null;
  created_at: number;
}

export interface SubUsersTable {
  id: string;
  user_id: string;
  esid: string;
  status: string;
  member_div_code: string;
  card_name: string;
  card_image_url: string;
  card_brand: string;
  card_number_mask: string;
  created_at: number;
}

export interface PointAccountsTable {
  user_id: string;
  kind: 'open' | 'na';
  points: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  term_acceptances: TermAcceptancesTable;
  login_throttle: LoginThrottleTable;
  auth_codes: AuthCodesTable;
  token_families: TokenFamiliesTable;
  token_grants: TokenGrantsTable;
  activity_log: ActivityLogTable;
  sub_users: SubUsersTable;
  point_accounts: PointAccountsTable;
}
