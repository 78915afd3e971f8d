import { termDocument } from '@sso/contracts/terms';

export interface ShownTerm {
  key: string;
  title: string;
  body: string;
}

/** Each listed term with its title and fixed body; an unknown key gives empty texts and a warning (SPEC.md section 3). */
export function termsOf(keys: readonly string[]): ShownTerm[] {
  return keys.map((key) => {
    const doc = termDocument(key);
    if (!doc) console.warn(`unknown term key: ${key}`);
    return { key, title: doc?.title ?? '', body: doc?.body ?? '' };
  });
}
