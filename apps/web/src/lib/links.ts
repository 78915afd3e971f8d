/** External links, defined once (SPEC.md section 9). Values for each environment arrive with issue 7. */
export const LINKS = {
  idTerms: 'https://www.example.com/id/terms',
  cookiePolicy: 'https://www.example.com/cookie-policy',
  help: 'https://www.example.com/id/faq',
} as const;
