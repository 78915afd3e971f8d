import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { NetAnswerSimulator } from '../../ports/net-answer-simulator.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { loggedOutPage, logoutReceiver, logoutsPage } from './logout-receiver.ts';
import { exchangeAsPartner } from './partner-client.ts';
import { renderDemoPage, STYLESHEET, STYLESHEET_PATH, type DemoPage, type Row } from './pages.ts';

export interface PartnerDemoDeps {
  clients: ClientRegistry;
  issuer: string;
  clock: Clock;
  /** Absent when a test replaced Net Answer with its own adapter. */
  netAnswerSimulator: NetAnswerSimulator | undefined;
}

/** A query or form value as received: one bounded string, or nothing (a repeated parameter is not one value). */
const one = (query: unknown, name: string, max = 512): string | undefined => {
  const v = (query as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined;
};

function send(reply: FastifyReply, page: DemoPage, status = 200) {
  // These pages receive one-time tokens and codes in their URL: never cached, never a referrer.
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(renderDemoPage(page));
}

const notFound = (service: string): DemoPage => ({
  service,
  heading: 'ページが見つかりません',
  ok: false,
  lead: 'このデモページはありません。URLをご確認ください。',
  rows: [],
});

/** What the code flow's redirect brought (RFC 6749 sections 4.1.2 and 4.1.2.1, RFC 9207 iss). */
function callbackPage(service: string, query: unknown): DemoPage {
  const rows: Row[] = [];
  for (const name of ['code', 'state', 'iss', 'error', 'error_description']) {
    const v = one(query, name);
    if (v !== undefined) rows.push([name, v]);
  }
  const code = one(query, 'code');
  const error = one(query, 'error');
  if (error) return { service, heading: '認可エラーを受け取りました', ok: false, lead: `認可サーバーがエラー「${error}」を返しました。`, rows };
  if (code) {
    return {
      service,
      heading: '認可コードを受け取りました',
      ok: true,
      lead: 'パートナーのサーバーは、このコードを1分以内に1回だけ、PKCEのコード検証値とともにトークンエンドポイントで交換します。',
      rows,
    };
  }
  return { service, heading: '何も受け取っていません', ok: false, lead: '認可コードもエラーもありません。', rows };
}

/**
 * The development-only pages of the partner services and Net Answer (decision 0006, "Partner
 * services"); app.ts registers them outside production only. Each page shows what it received.
 */
export function registerPartnerDemoRoutes(app: FastifyInstance, deps: PartnerDemoDeps): void {
  app.get(STYLESHEET_PATH, async (_request, reply) => reply.header('Cache-Control', 'no-cache').type('text/css; charset=utf-8').send(STYLESHEET));

  /** The partner's direct-login landing: its server exchanges the token and reads the member with the access token. */
  app.get<{ Params: { clientId: string } }>('/dev/partner/:clientId/direct', async (request, reply) => {
    const client = deps.clients.get(request.params.clientId);
    if (!client) return send(reply, notFound('パートナーサービス'), 404);
    return send(reply, await exchangeAsPartner(deps.issuer, client, one(request.query, 'onetime_token')));
  });

  app.get<{ Params: { clientId: string } }>('/dev/partner/:clientId/callback', async (request, reply) => {
    const client = deps.clients.get(request.params.clientId);
    if (!client) return send(reply, notFound('パートナーサービス'), 404);
    return send(reply, callbackPage(client.name, request.query));
  });

  const logouts = logoutReceiver(deps);

  /**
   * The partner's back-channel logout URI (OpenID Connect Back-Channel Logout 1.0 sections 2.5 and 2.8):
   * 200 when it took the token, 400 with an RFC 6749-style error otherwise, a malformed body's too.
   */
  app.post<{ Params: { clientId: string } }>('/dev/partner/:clientId/backchannel_logout', { config: { oauth: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const client = deps.clients.get(request.params.clientId);
    if (!client) return reply.code(404).send({ error: 'invalid_request', error_description: 'no such partner' });
    // A JWT is longer than a query value of the pages; one longer than this is no logout token of the issuer's.
    const outcome = await logouts.receive(client, one(request.body, 'logout_token', 4096));
    if (!outcome.ok) return reply.code(400).send({ error: 'invalid_request', error_description: outcome.reason });
    return reply.code(200).send({});
  });

  /** What the partner's back-channel logout URI has received, for a person to look at. */
  app.get<{ Params: { clientId: string } }>('/dev/partner/:clientId/backchannel_logout', async (request, reply) => {
    const client = deps.clients.get(request.params.clientId);
    if (!client) return send(reply, notFound('パートナーサービス'), 404);
    return send(reply, logoutsPage(client, logouts.receivedBy(client.client_id)));
  });

  /** The partner's post_logout_redirect_uri (OpenID Connect RP-Initiated Logout 1.0 section 3): the state it gets back. */
  app.get<{ Params: { clientId: string } }>('/dev/partner/:clientId/logged_out', async (request, reply) => {
    const client = deps.clients.get(request.params.clientId);
    if (!client) return send(reply, notFound('パートナーサービス'), 404);
    return send(reply, loggedOutPage(client, one(request.query, 'state'), logouts.receivedBy(client.client_id)));
  });

  /** Net Answer's landing of a direct login: the key works once, within LIMITS.directLoginTokenTtlMs. */
  app.get('/dev/netanswer/login', async (request, reply) => {
    const service = 'Net Answer';
    if (!deps.netAnswerSimulator) return send(reply, notFound(service), 404);
    const key = one(request.query, 'key');
    const landing = key ? deps.netAnswerSimulator.redeem(key) : undefined;
    if (!landing) {
      return send(reply, {
        service,
        heading: 'ログインできませんでした',
        ok: false,
        lead: 'このURLは有効期限が切れているか、既に使用されています。',
        rows: [],
      });
    }
    return send(reply, {
      service,
      heading: 'Net Answerにログインしました',
      ok: true,
      lead: 'メンバーIDからのログイン連携を受け取り、カードのページを開きました。',
      rows: [
        ['Net Answer ID', landing.naId],
        ['カード（esid）', landing.esid],
        ['param1', landing.param1 || '（なし）'],
        ['param2', landing.param2 || '（なし）'],
      ],
    });
  });
}
