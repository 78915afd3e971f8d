import { PRODUCT_NAME } from '@sso/contracts/terms';
import { escapeHtml } from '../../lib/html.ts';
import type { OutgoingMessage } from './notifier.ts';

/** A link paragraph: a caption line, then the address (on its own line in the text part). */
export interface MailLink {
  label: string;
  url: string;
}

/** A paragraph: text (line breaks kept) or a link. */
export type MailParagraph = string | MailLink;

const FOOTER = [`${PRODUCT_NAME}`, 'このメールは送信専用のアドレスからお送りしています。ご返信いただいてもお答えできません。'].join('\n');

const htmlParagraph = (p: MailParagraph) =>
  typeof p === 'string'
    ? `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`
    : `<p>${escapeHtml(p.label)}<br><a href="${escapeHtml(p.url)}">${escapeHtml(p.url)}</a></p>`;

/**
 * A mail with its plain-text and HTML parts from the same paragraphs (mail bodies in
 * Japanese, plain text and HTML), so that the two never say different things. Everything
 * interpolated into the HTML is escaped.
 */
export function composeMail(to: string, subject: string, paragraphs: MailParagraph[]): OutgoingMessage {
  const all = [...paragraphs, FOOTER];
  const text = all.map((p) => (typeof p === 'string' ? p : `${p.label}\n${p.url}`)).join('\n\n');
  const html = [
    '<!doctype html>',
    `<html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body>${all.map(htmlParagraph).join('')}</body></html>`,
  ].join('\n');
  return { kind: 'mail', to, subject, text, html };
}
