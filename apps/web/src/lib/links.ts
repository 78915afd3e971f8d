/** External links, defined once (SPEC.md section 9). Values for each environment arrive with issue 7. */
export const LINKS = {
  idTerms: 'https://www.example.com/id/terms',
  cookiePolicy: 'https://www.example.com/cookie-policy',
  help: 'https://www.example.com/id/faq',
  /** Help for a one-time password mail that did not arrive (SPEC.md section 2, e-mail one-time password). */
  mailNotReceived: 'https://www.example.com/id/faq/mail-not-received',
  /** The company's chatbot, where /problem/signup/card/chatbot sends the member (SPEC.md section 8, 904). */
  chatbot: 'https://www.example.com/chatbot',
} as const;
