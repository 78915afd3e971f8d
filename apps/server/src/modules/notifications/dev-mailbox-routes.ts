import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';
import type { DevMailbox } from './dev-mailbox.ts';

function page(mailbox: DevMailbox): string {
  const items = mailbox
    .list()
    .map(
      (m) => `<article>
<h2>${m.kind === 'sms' ? 'SMS' : 'メール'}: ${escapeHtml(m.to)}</h2>
<p><time datetime="${m.sentAt}">${m.sentAt}</time>${m.subject ? ` ／ 件名: ${escapeHtml(m.subject)}` : ''}</p>
<p>${escapeHtml(m.text).replaceAll('\n', '<br>')}</p>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>開発用メールボックス</title></head>
<body><main>
<h1>開発用メールボックス</h1>
<p>開発環境で送信された SMS とメール（新しい順）。JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a></p>
${items || '<p>まだ何も届いていません。</p>'}
</main></body></html>`;
}

/**
 * /dev/mailbox and /dev/mailbox.json (docs/operations.md "Mail and SMS delivery"): every SMS and mail received in
 * development, newest first. Registered only when NODE_ENV is not production (app.ts decides).
 */
export function registerDevMailboxRoutes(app: FastifyInstance, mailbox: DevMailbox): void {
  app.get('/dev/mailbox.json', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(mailbox.list()));
  app.get('/dev/mailbox', async (_request, reply) =>
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page(mailbox)),
  );
}
