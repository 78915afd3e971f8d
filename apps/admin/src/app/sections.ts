import type { ConsoleSection } from '../lib/roles.ts';

/** The console's sections, each with the least role its API routes declare in the catalogue (decision 0032). */
export const SECTIONS: readonly ConsoleSection[] = [
  { path: '/members', label: '会員検索', role: 'support' },
  { path: '/audit', label: '監査ログ', role: 'security' },
  { path: '/clients', label: 'パートナー', role: 'admin' },
  { path: '/operators', label: 'オペレーター', role: 'admin' },
];
