import type { FastifyInstance } from 'fastify';

/**
 * The deepest nesting of arrays and objects a JSON body may have. The contracts' deepest body is
 * a WebAuthn answer (packages/contracts/src/passkeys.ts) at five or six levels with its extension
 * results; 32 leaves room for any legitimate one, while a body under the 64 KiB limit can otherwise
 * nest some 30,000 levels, deep enough to overflow the stack of any recursive walk of it (a schema's
 * refinement, JSON.stringify, a log serializer): a 500 and a stack trace a request.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * How deep the text's arrays and objects nest, read without parsing it: one pass, no recursion,
 * brackets inside strings skipped (RFC 8259 section 7: a string ends at an unescaped quote). Stops
 * counting once past `limit`. Malformed text is JSON.parse's to refuse afterwards.
 */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The `application/json` parser: Fastify's own (the same prototype-poisoning refusals), behind a
 * bound on the nesting, so that a depth bomb is refused before any route or schema walks it. The
 * refusal is a 400 the error handler answers like any malformed body (error-handler.ts: the 901 body,
 * or invalid_request on an OAuth endpoint), logged as one warn line without a stack.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthOver(text, MAX_JSON_DEPTH)) {
      request.log.warn({ bytes: text.length, max_depth: MAX_JSON_DEPTH }, 'JSON body nested too deep');
      done(Object.assign(new Error('JSON body nested too deep'), { statusCode: 400 }), undefined);
      return;
    }
    parse(request, text, done);
  });
}
