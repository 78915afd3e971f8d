import type { FastifyReply } from 'fastify';
import { CLIENT_MESSAGES, FRAME_TEXTS } from '@sso/contracts/messages';
import { linkButton, paragraph, sendServerPage, serverPage, WELCOME_PATH } from './server-page.ts';

/**
 * The page an authorize endpoint answers (HTTP 400) when client_id or redirect_uri is not registered:
 * such a request is never redirected (RFC 6749 section 4.1.2.1). The wrong-URL message (SPEC.md
 * section 8, C99-000404) under the title and advice of the SPA's page for the same link
 * (apps/web/src/features/errors/error-routes.tsx, PartnerMistakePage), in the frame, with the error
 * page's button to login (SPEC.md section 2).
 */
const BAD_REQUEST_PAGE = serverPage(
  FRAME_TEXTS.invalidLinkTitle,
  [paragraph(CLIENT_MESSAGES['C99-000404']), paragraph(FRAME_TEXTS.invalidLinkAdvice), linkButton(WELCOME_PATH, FRAME_TEXTS.toLogin)].join('\n'),
);

export const sendBadRequestPage = (reply: FastifyReply): FastifyReply => sendServerPage(reply, 400, BAD_REQUEST_PAGE);
