import fc from 'fast-check';

/**
 * The bad values of the fuzzer (docs/security.md "Bad input"; OWASP ASVS 5.0 V1 and V2 input
 * handling): wrong types, huge strings, control characters, full-width and emoji text, lone
 * surrogates, injection text, and near misses of a valid value. None of them contains a word the
 * answers are searched for (fuzz-verdict.ts), so that an echo of the request can never hide a leak.
 */

const char = (from: number, to: number) => fc.integer({ min: from, max: to }).map((c) => String.fromCharCode(c));

/** Full-width ASCII (U+FF01-FF5E), the ideographic space, half-width katakana. */
const fullWidth = fc.oneof(char(0xff01, 0xff5e), fc.constant('\u3000'), char(0xff61, 0xff9f));
const loneSurrogate = char(0xd800, 0xdfff);
const emoji = fc.constantFrom('😀', '👨‍👩‍👧‍👦', '🇯🇵', '🏳️‍🌈', '\u{1F9D1}\u{1F3FD}', '𠮷', '👍🏿');
const controls = fc.constantFrom('\u0000', '\u0001', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029', '\u200b', '\u200e', '\u202e', '\ufeff', '\ufffd', '\uffff');

const INJECTIONS = [
  "' OR '1'='1",
  "1; DROP TABLE users--",
  '" OR ""="',
  "admin'--",
  '%',
  '_',
  '\\',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}{{7*7}}',
  '%00',
  '%0d%0aSet-Cookie: a=b',
  '\r\nLocation: https://evil.example',
  'https://evil.example/',
  '//evil.example',
  'a@b@c',
  'null',
  'undefined',
  'NaN',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
];

const SHORT_ODDITIES = ['', ' ', '  ', '\u3000', '\t', '0', '-1', '1e309', '0x1f', '1.5', '٣', '１２３４５６', '１２３４', '０９０１２３４５６７８'];

/** A long run of one unit: `n` UTF-16 code units or a little more. */
const run = (unit: fc.Arbitrary<string>, lengths: number[]) =>
  fc.tuple(unit, fc.constantFrom(...lengths)).map(([u, n]) => (u || 'a').repeat(Math.ceil(n / Math.max(1, u.length))));

/**
 * Huge strings: long, and up to just under the 64 KiB body limit once encoded (so that the field
 * rule, not the parser, refuses them), and 66 to 100 KB (over the limit; whole bodies of 1 MB are in
 * fuzz-requests.ts).
 */
export const hugeString = fc.oneof(
  { weight: 8, arbitrary: run(fc.constantFrom('a', '9', 'あ', '\u0000', '%', '"'), [300, 5_000, 20_000]) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(100_000), 'あ'.repeat(22_000), '😀'.repeat(17_000)) },
);

/** Bad text of ordinary size. */
export const nastyText = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: fullWidth, minLength: 1, maxLength: 30 }),
  fc.string({ unit: emoji, minLength: 1, maxLength: 10 }),
  fc.string({ unit: controls, minLength: 1, maxLength: 10 }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constant('a')), minLength: 1, maxLength: 8 }),
  fc.constantFrom(...INJECTIONS, ...SHORT_ODDITIES),
);

/** Nested arrays and objects, as a value (deeper ones go as raw text: JSON.stringify itself overflows there). */
const deep = fc.tuple(fc.constantFrom(50, 500, 2_000), fc.boolean()).map(([depth, asObject]) => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
});

/**
 * A depth bomb: arrays or objects nested 10,000 to 20,000 deep, under the 64 KiB body limit (an
 * attack round's 20,000-deep array inside a passkey answer overflowed a schema refinement's stack).
 * Too deep for JSON.stringify itself, it stands in the fields as a marker that `expandDepthBombs`
 * turns into the raw text once the body is written.
 */
export class DepthBomb {
  constructor(
    readonly depth: number,
    readonly asObject: boolean,
  ) {}

  toJSON(): string {
    return `~~depth-bomb:${this.depth}:${this.asObject ? 'o' : 'a'}~~`;
  }
}

const depthBomb = fc.constantFrom(new DepthBomb(20_000, false), new DepthBomb(10_000, true), new DepthBomb(64, false));

/** The JSON text with every depth bomb's marker replaced by its nesting. */
export const expandDepthBombs = (json: string): string =>
  json.replace(/"~~depth-bomb:(\d+):([ao])~~"/g, (_, depth: string, kind: string) => {
    const n = Number(depth);
    return kind === 'o' ? `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` : `${'['.repeat(n)}${']'.repeat(n)}`;
  });

type Path = (string | number)[];

/** Where a value nests other values: the paths of its leaves (a passkey answer's `response.clientDataJSON`, ...). */
const leafPaths = (v: unknown, at: Path = []): Path[] =>
  typeof v === 'object' && v !== null && Object.keys(v).length > 0 ? Object.entries(v).flatMap(([k, x]) => leafPaths(x, [...at, Array.isArray(v) ? Number(k) : k])) : [at];

const replacedAt = (v: unknown, path: Path, by: unknown): unknown => {
  if (path.length === 0) return by;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, unknown>;
  copy[head] = replacedAt(copy[head], rest, by);
  return copy;
};

/** The valid object or array with a depth bomb at one of its leaves, so that it passes the outer shape and reaches the inner rules. */
const bombInside = (valid: object): fc.Arbitrary<unknown> => fc.tuple(fc.constantFrom(...leafPaths(valid)), depthBomb).map(([path, bomb]) => replacedAt(valid, path, bomb));

export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER + 2, -0),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(nastyText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), nastyText, { maxKeys: 3 }),
  fc.constant({ length: 1, toString: 'x' }),
  deep,
  depthBomb,
);

/** A near miss of a valid value: the valid text bent a little, or its type changed without changing how it reads. */
export function nearMiss(valid: unknown): fc.Arbitrary<unknown> {
  if (typeof valid === 'number') return fc.constantFrom(String(valid), valid + 1, -valid, valid + 0.5, [valid]);
  if (typeof valid === 'boolean') return fc.constantFrom(String(valid), valid ? 1 : 0, !valid, [valid]);
  if (typeof valid === 'object' && valid !== null) return fc.oneof(fc.constant(JSON.stringify(valid)), bombInside(valid));
  if (typeof valid !== 'string') return fc.constant(valid === undefined ? '' : JSON.stringify(valid));
  const toFullWidth = valid.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  return fc.oneof(
    fc.constantFrom(toFullWidth, ` ${valid} `, `${valid}\u3000`, valid.toUpperCase(), valid.slice(0, -1), valid + valid, `${valid}\n`, [valid], Number(valid)),
    fc.tuple(fc.nat({ max: valid.length }), fc.oneof(controls, emoji, loneSurrogate, fullWidth)).map(([at, c]) => valid.slice(0, at) + c + valid.slice(at)),
  );
}

/** Any bad value for a field whose valid value is `valid`. */
export const badValue = (valid: unknown): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 4, arbitrary: nearMiss(valid) }, { weight: 4, arbitrary: nastyText }, { weight: 3, arbitrary: wrongType }, { weight: 1, arbitrary: hugeString });

/** Bad text for a query parameter or a header: no longer than a URL or header line allows. */
export const nastyQueryText = fc.oneof({ weight: 8, arbitrary: nastyText }, { weight: 1, arbitrary: run(fc.constantFrom('a', 'あ', '%'), [300, 1_000]) });

/** Text that a header value may carry (RFC 9110 field-value: visible ASCII and obs-text), as an attacker would send it. */
export const headerText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(char(0x20, 0x7e), char(0x80, 0xff)), maxLength }).map((s) => s.trim());

/** Field names beyond the contract: prototype keys, look-alikes of real ones, and random text. */
export const extraKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'result_code', 'user_id', 'member_type', 'is_admin', 'id', ''),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);
