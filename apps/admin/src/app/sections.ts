import type { ConsoleSection } from '../lib/roles.ts';

/** The console's sections, each with the least role its API routes declare in the catalogue (decision 0032). */
export const SECTIONS: readonly ConsoleSection[] = [{ path: '/operators', label: 'オペレーター', role: 'admin' }];
