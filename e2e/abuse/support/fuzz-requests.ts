import fc from 'fast-check';
import { NET_ANSWER_AUTH } from './client.ts';
import type { FuzzRequest } from './fuzz-http.ts';
import { badValue, expandDepthBombs, extraKey, headerText, nastyQueryText, nearMiss } from './fuzz-values.ts';

/**
 * Turns one fuzz table entry (fuzz-endpoints.ts) into an arbitrary of whole HTTP requests. Every
 * request starts from a valid one of the entry (its contract's shape) and bends it: fields set to
 * bad values, removed, added or repeated; the body in the other encoding, malformed or in a wrong
 * content type; the query, the method, the credentials and some headers changed. A share is left
 * valid, so that the requests also reach the services behind the first validation.
 */

export type Fields = Record<string, unknown>;

export interface FuzzContext {
  origin: string;
  /** Access tokens of the demo card member, the demo open member, a member who may withdraw, and one who may log out everywhere. */
  tokens: { card: string; open: string; victim: string; leaver: string };
}

export type Caller = keyof FuzzContext['tokens'] | 'client' | 'none';

export interface Endpoint {
  method: 'GET' | 'POST';
  /** The route as Fastify registered it. */
  route: string;
  /** For the report. */
  group: string;
  /** What an answer must be (fuzz-verdict.ts). */
  expect: 'result' | 'oauth' | 'page' | 'json';
  /** Who sends a valid request: a member's Bearer token, a confidential client's Basic credentials, or nobody. */
  caller: Caller;
  body?: 'json' | 'form';
  valid?: (c: FuzzContext) => Fields[];
  query?: (c: FuzzContext) => Fields[];
  /** Concrete paths of a route with a parameter or a wildcard. */
  paths?: fc.Arbitrary<string>;
  /** Valid requests here cost an argon2id hash each (~40 ms): few of them. */
  argon2?: boolean;
}

interface Op {
  kind: 'set' | 'delete' | 'extra' | 'repeat';
  key: string;
  value?: unknown;
}

/** The operations on a valid request's fields (all arbitraries built once: a chain would rebuild them for every request). */
const opArbitrary = (valid: Fields, value: (v: unknown) => fc.Arbitrary<unknown>): fc.Arbitrary<Op> => {
  const keys = Object.keys(valid);
  const extra = fc.record({ kind: fc.constant('extra' as const), key: extraKey, value: value('x') });
  if (keys.length === 0) return extra;
  const values = keys.map((k) => value(valid[k]).map((v) => [k, v] as const));
  const keyed = (kind: 'set' | 'repeat') => fc.oneof(...values).map(([key, v]): Op => ({ kind, key, value: v }));
  return fc.oneof(
    { weight: 6, arbitrary: keyed('set') },
    { weight: 2, arbitrary: fc.constantFrom(...keys).map((k): Op => ({ kind: 'delete', key: k })) },
    { weight: 2, arbitrary: extra },
    { weight: 1, arbitrary: keyed('repeat') },
  );
};

/** The fields after the operations, and the repeated keys (a JSON text or a form with a key twice). */
function apply(valid: Fields, ops: Op[]): { fields: Fields; repeats: [string, unknown][] } {
  const fields: Fields = {};
  // defineProperty: '__proto__' and friends become own fields, as JSON.parse of an attacker's text makes them.
  const put = (k: string, v: unknown) => Object.defineProperty(fields, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(valid)) put(k, v);
  const repeats: [string, unknown][] = [];
  for (const op of ops) {
    if (op.kind === 'delete') delete fields[op.key];
    else if (op.kind === 'repeat') repeats.push([op.key, op.value]);
    else put(op.key, op.value);
  }
  return { fields, repeats };
}

const jsonText = ({ fields, repeats }: ReturnType<typeof apply>) => {
  const base = JSON.stringify(fields);
  const more = repeats.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`);
  return expandDepthBombs(more.length === 0 ? base : `${base.slice(0, -1)}${base === '{}' ? '' : ','}${more.join(',')}}`);
};

const formValues = (v: unknown): string[] =>
  v === undefined ? [] : v === null ? [''] : Array.isArray(v) ? v.flatMap((x) => (Array.isArray(x) ? [JSON.stringify(x)] : formValues(x))) : typeof v === 'object' ? [JSON.stringify(v)] : [String(v)];

const formText = ({ fields, repeats }: ReturnType<typeof apply>) => {
  const p = new URLSearchParams();
  for (const [k, v] of [...Object.entries(fields), ...repeats]) for (const one of formValues(v)) p.append(k, one);
  return p.toString();
};

const CT = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** Content types a client might wrongly send, and none at all. */
const wrongContentType = fc.constantFrom<string | undefined>(
  undefined,
  'application/json; charset=utf-8',
  'application/json; charset=iso-8859-1',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded; charset=shift_jis',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/json, text/plain',
  '*/*',
  'json',
  ';',
);

const bytes = (...parts: (string | readonly number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from([...p]))));
const MULTIPART = bytes('--fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--fuzz--\r\n');
const MANY_PARAMS = Buffer.from(Array.from({ length: 5_000 }, (_, i) => `k${i}=v`).join('&'));
const NESTED = [1_000, 30_000].map((n) => Buffer.from(`{"a":${'['.repeat(n)}${']'.repeat(n)}}`));
/** Over the 64 KiB body limit: 70 KB, and 1 MB (rarely: every one is a megabyte on the wire). */
const [OVER_LIMIT, MEGABYTE] = [70_000, 1_000_000].map((n) => Buffer.from(`{"a":"${'a'.repeat(n)}"}`)) as [Buffer, Buffer];

/** Bodies no parser should take: cut, padded, in another encoding, invalid UTF-8, deep, wide or over the 64 KiB limit. */
const malformed = (validText: string): fc.Arbitrary<Buffer> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.oneof({ weight: 9, arbitrary: fc.constant(OVER_LIMIT) }, { weight: 1, arbitrary: fc.constant(MEGABYTE) }) },
    fc.nat({ max: Math.max(0, validText.length - 1) }).map((n) => Buffer.from(validText.slice(0, n))),
    fc
      .constantFrom(`${validText},}`, `${validText}x`, validText.replaceAll('"', "'"), `\ufeff${validText}`, '', ' ', 'null', '[]', '"x"', '123', 'true')
      .map((s) => Buffer.from(s)),
    fc
      .constantFrom('{"a":NaN}', '{a:1}', '{"a":1,}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}')
      .map((s) => Buffer.from(s)),
    fc.constantFrom('%', '%ZZ=%E0%A4%A', '&&==&', 'a=1&a=2&a[]=3&a[b]=4', '__proto__[admin]=1&constructor[prototype][x]=1', '=').map((s) => Buffer.from(s)),
    fc.constantFrom(MULTIPART, MANY_PARAMS, ...NESTED),
    fc.constantFrom([0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe3, 0x81]).map((b) => bytes('{"id":"', b, '"}')),
    fc.constant(Buffer.from(validText, 'utf16le')),
  );

interface Body {
  contentType: string | undefined;
  body: Buffer | undefined;
}

function bodyArbitrary(e: Endpoint, valid: Fields): fc.Arbitrary<Body> {
  const natural = e.body ?? 'json';
  const other = natural === 'json' ? 'form' : 'json';
  const encode = (how: 'json' | 'form') => (m: ReturnType<typeof apply>): Body => ({
    contentType: CT[how],
    body: Buffer.from(how === 'json' ? jsonText(m) : formText(m)),
  });
  const mutated = fc.array(opArbitrary(valid, badValue), { minLength: 1, maxLength: 4 }).map((ops) => apply(valid, ops));
  const validText = natural === 'json' ? JSON.stringify(valid) : formText(apply(valid, []));
  const body = fc.oneof(
    { weight: e.argon2 ? 1 : 12, arbitrary: fc.constant(apply(valid, [])).map(encode(natural)) },
    { weight: 50, arbitrary: mutated.map(encode(natural)) },
    { weight: 10, arbitrary: mutated.map(encode(other)) },
    { weight: 20, arbitrary: fc.tuple(fc.constantFrom(CT.json, CT.form), malformed(validText)).map(([contentType, b]): Body => ({ contentType, body: b })) },
  );
  // One in six carries a wrong content type (or none) whatever the body is.
  return fc.tuple(body, fc.option(wrongContentType, { freq: 5 })).map(([b, ct]) => (ct === null ? b : { ...b, contentType: ct }));
}

/** Query text: the entry's valid query bent like a body, or for other routes now and then some junk. */
function queryArbitrary(e: Endpoint, c: FuzzContext): fc.Arbitrary<string> {
  const tail = fc.option(fc.constantFrom('&%', '&%ZZ', '&a[b]=1', '&&&', '&=', '&%00=%00', '&a=%E0%A4%A', '&%ED%A0%80=1', '&__proto__[x]=1'), { freq: 8 });
  const text = (fields: Fields, repeats: [string, unknown][]) => formText({ fields, repeats });
  const queryValue = (v: unknown) => fc.oneof({ weight: 3, arbitrary: nearMiss(v) }, { weight: 3, arbitrary: nastyQueryText }, { weight: 1, arbitrary: fc.array(nastyQueryText, { maxLength: 3 }) });
  const bent = (valid: Fields) =>
    fc.oneof(
      { weight: e.argon2 ? 1 : 3, arbitrary: fc.constant(text(valid, [])) },
      { weight: 7, arbitrary: fc.array(opArbitrary(valid, queryValue), { minLength: 1, maxLength: 3 }).map((ops) => {
        const m = apply(valid, ops);
        return text(m.fields, m.repeats);
      }) },
    );
  const base = e.query
    ? fc.oneof(...e.query(c).map(bent))
    : fc.option(fc.dictionary(extraKey, nastyQueryText, { maxKeys: 3 }).map((d) => text(d, [])), { freq: 10 }).map((q) => q ?? '');
  return fc.tuple(base, tail).map(([q, t]) => {
    const all = q + (t ?? '');
    return all === '' ? '' : `?${all.replace(/^&/, '')}`;
  });
}

const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');

/** The Authorization header: the right credentials most of the time where the endpoint needs them, otherwise none or garbage. */
function authArbitrary(e: Endpoint, c: FuzzContext): fc.Arbitrary<string | undefined> {
  const token = c.tokens[e.caller === 'open' || e.caller === 'victim' || e.caller === 'leaver' ? e.caller : 'card'];
  const bearerGarbage = fc.oneof(
    fc.constantFrom('Bearer', 'Bearer ', `bearer ${token}`, `Bearer  ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token} ${token}`, `Token ${token}`, `Basic ${token}`),
    headerText(120).map((s) => `Bearer ${s}`),
    fc.constant(`Bearer ${'A'.repeat(4_000)}`),
  );
  const basicGarbage = fc.oneof(
    fc.constantFrom(b64('SIAP004:wrong-secret'), b64('SIAP004'), b64(':'), b64('SIAP009:'), '!!!', '').map((s) => `Basic ${s}`),
    headerText(60).map((s) => `Basic ${b64(s)}`),
  );
  const garbage = fc.oneof(bearerGarbage, basicGarbage);
  if (e.caller === 'client') {
    return fc.oneof({ weight: 40, arbitrary: fc.constant(NET_ANSWER_AUTH.authorization) }, { weight: 20, arbitrary: fc.constant(undefined) }, { weight: 40, arbitrary: garbage });
  }
  if (e.caller === 'none') return fc.oneof({ weight: 70, arbitrary: fc.constant(undefined) }, { weight: 10, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 20, arbitrary: garbage });
  return fc.oneof({ weight: 55, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 15, arbitrary: fc.constant(undefined) }, { weight: 30, arbitrary: bearerGarbage });
}

/** Now and then one more header an attacker controls. */
const extraHeaders: fc.Arbitrary<Record<string, string> | null> = fc.option(
  fc.oneof<fc.Arbitrary<Record<string, string>>[]>(
    headerText(300).map((v) => ({ 'user-agent': v })),
    fc.constantFrom<Record<string, string>>({ origin: 'http://localhost:5173' }, { origin: 'null' }, { 'x-forwarded-for': '1.2.3.4, evil' }, { 'content-encoding': 'gzip' }, { accept: 'application/xml' }, { 'x-http-method-override': 'DELETE' }),
    headerText(200).map((v) => ({ cookie: v })),
  ),
  { freq: 6 },
);

const methodArbitrary = (e: Endpoint) =>
  e.method === 'GET'
    ? fc.oneof({ weight: 86, arbitrary: fc.constant('GET') }, { weight: 7, arbitrary: fc.constant('HEAD') }, { weight: 7, arbitrary: fc.constantFrom('POST', 'DELETE', 'OPTIONS') })
    : fc.oneof({ weight: 93, arbitrary: fc.constant('POST') }, { weight: 7, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') });

/** Every request the fuzzer may send to the endpoint. */
export function requestArbitrary(e: Endpoint, c: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const valid = e.valid?.(c) ?? [{}];
  const body = e.method === 'POST' ? fc.oneof(...valid.map((v) => bodyArbitrary(e, v))) : fc.option(bodyArbitrary(e, {}), { freq: 10 });
  return fc
    .record({
      method: methodArbitrary(e),
      path: e.paths ?? fc.constant(e.route),
      query: queryArbitrary(e, c),
      body,
      auth: authArbitrary(e, c),
      extra: extraHeaders,
    })
    .map(({ method, path, query, body: b, auth, extra }) => {
      const headers: Record<string, string> = { ...extra };
      if (b?.contentType) headers['content-type'] = b.contentType;
      if (auth) headers.authorization = auth;
      // The request line stays well under Node's 16 KiB header limit: what happens over it is the parser's, fuzz.test.ts tries it apart.
      const target = path.length + query.length > 10_000 ? path : path + query;
      return { method, path: target, headers, body: method === 'GET' || method === 'HEAD' ? undefined : b?.body };
    });
}
