/**
 * What every page's frame shows (SPEC.md section 2, "Header, footer and page behaviour"), the SPA's
 * (apps/web/src/app/header.tsx, footer.tsx) and the server's own pages (apps/server/src/http/server-page.ts)
 * alike: the logo, and the footer's links to the ID terms and the cookie policy and its copyright
 * line covering 2023 to 2025.
 */

/** The logo, an SVG image: given to an `<img>` as a data URI, which both Content-Security-Policies allow (img-src data:). */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="30" viewBox="0 0 160 30"><rect width="30" height="30" rx="6" fill="#0b4a8b"/><text x="15" y="21" font-family="sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">ID</text><text x="38" y="21" font-family="sans-serif" font-size="16" font-weight="700" fill="#0b4a8b">Member ID</text></svg>';

export const LOGO_DATA_URI = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`;

/** The footer's links: their texts, and the company's pages they open (a build of the SPA may override the address, apps/web/src/lib/links.ts). */
export const FOOTER_LINKS = {
  idTerms: { text: 'ID利用規約', href: 'https://www.example.com/id/terms' },
  cookiePolicy: { text: 'Cookieポリシー', href: 'https://www.example.com/cookie-policy' },
} as const;

export const COPYRIGHT = '© 2023-2025 Credit Card Company, Inc.';
