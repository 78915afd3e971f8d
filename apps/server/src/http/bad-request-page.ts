import { CLIENT_MESSAGES } from '@sso/contracts/messages';

/**
 * The page an authorize endpoint answers (HTTP 400) when client_id or redirect_uri is not registered:
 * such a request is never redirected (RFC 6749 section 4.1.2.1).
 */
export const BAD_REQUEST_PAGE = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>エラー</title></head><body><main><h1>エラー</h1><p>${CLIENT_MESSAGES['C99-000404']}</p></main></body></html>`;
