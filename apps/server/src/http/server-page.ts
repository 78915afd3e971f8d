import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { COPYRIGHT, FOOTER_LINKS, LOGO_DATA_URI } from '@sso/contracts/page-frame';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { escapeHtml } from '../lib/html.ts';

/** The SPA's first page (welcome, where login starts): the way on from a page of the server's own. */
export const WELCOME_PATH = '/content/';

/**
 * The SPA's frame in CSS (apps/web/src/app/global.css, layout.module.css, ui/button.module.css): the
 * 16 px main font, the header with the 22 px logo (30 px on PC), the 700 px main column that is a
 * white card from the 768 px breakpoint, the dark footer, and the full-width primary button.
 */
const STYLE = `html{font-size:16px}
body{margin:0;font-family:'Hiragino Kaku Gothic ProN','Noto Sans CJK JP','Noto Sans JP',Meiryo,sans-serif;font-size:16px;line-height:1.6;color:#1f1f1f;background:#f2f4f7}
a{color:#0b4a8b}
h1{font-size:22px;margin:0 0 20px}
p{margin:0 0 16px}
.page{min-height:100vh;display:flex;flex-direction:column}
.header{background:#fff;border-bottom:1px solid #d0d4da}
.header-inner{display:flex;align-items:center;justify-content:space-between;padding:10px 16px;max-width:700px;margin:0 auto;box-sizing:border-box}
.logo{display:inline-flex;align-items:center}
.logo img{height:22px;width:auto;display:block}
.main{flex:1;width:100%;max-width:700px;margin:0 auto;padding:24px 16px;box-sizing:border-box;background:#fff}
.actions{margin-top:24px}
.button{display:block;width:100%;font:inherit;font-size:16px;font-weight:700;padding:14px;border-radius:6px;border:2px solid #0b4a8b;background:#0b4a8b;color:#fff;cursor:pointer;text-align:center;text-decoration:none;box-sizing:border-box}
.button:focus-visible{outline:3px solid #e0a800;outline-offset:2px}
.footer{background:#24303e;color:#fff;padding:20px 16px;font-size:14px}
.footer a{color:#fff}
.footer-inner{max-width:700px;margin:0 auto;display:flex;flex-direction:column;gap:8px}
.footer-links{display:flex;gap:20px;list-style:none;margin:0;padding:0}
@media (min-width:768px){.logo img{height:30px}.main{margin:24px auto;padding:32px 40px;border-radius:8px}}`;

/** The style element's hash, added to the page's style-src (CSP Level 3, hash-source): the policy still allows no other inline style. */
const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** A paragraph of text, escaped. */
export const paragraph = (text: string): string => `<p>${escapeHtml(text)}</p>`;

/** A link that looks like the SPA's primary button: an error page's way to login or home (SPEC.md section 2). */
export const linkButton = (href: string, text: string): string => `<p class="actions"><a class="button" href="${escapeHtml(href)}">${escapeHtml(text)}</a></p>`;

/** The class a form's submit button takes to look like the SPA's primary button. */
export const BUTTON_CLASS = 'button';

/**
 * A page the server renders itself (the OIDC logout's pages, the authorize endpoint's 400 page) in
 * the SPA's frame (SPEC.md section 2): the logged-out header, a logo linking to the welcome page
 * where login starts, the 700 px main column, and the footer with the ID terms, the cookie policy
 * and the copyright. `content` is HTML the caller built from escaped parts. No script: the frame
 * needs none, and the Content-Security-Policy allows none inline.
 */
export function serverPage(title: string, content: string): string {
  const links = [FOOTER_LINKS.idTerms, FOOTER_LINKS.cookiePolicy].map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`).join('');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${PRODUCT_NAME}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><div class="page">
<header class="header"><div class="header-inner"><a class="logo" href="${WELCOME_PATH}"><img src="${LOGO_DATA_URI}" alt="${PRODUCT_NAME}"></a></div></header>
<main class="main">
<h1>${escapeHtml(title)}</h1>
${content}
</main>
<footer class="footer"><div class="footer-inner"><ul class="footer-links">${links}</ul><small>${escapeHtml(COPYRIGHT)}</small></div></footer>
</div></body></html>`;
}

/** The Content-Security-Policy the security headers set (security-headers.ts) with the frame's style allowed by its hash. */
const withFrameStyle = (policy: string) => policy.replace(/(^|;)(\s*style-src[^;]*)/, `$1$2 ${STYLE_SOURCE}`);

/** Answers a page of serverPage's, never cached, with its style allowed by hash in the policy it already has. */
export function sendServerPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string') reply.header('content-security-policy', withFrameStyle(policy));
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}
