import { describe, expect, it } from 'vitest';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { adminCall, adminLines, adminRoute, ApiFailure, FreshProofNeeded, NETWORK_MESSAGE, SessionEnded, withFreshProof } from './api.ts';
import { auditFilter, japanMidnight } from './audit-filter.ts';
import { AUTH_METHOD_LABELS, JWKS_MESSAGES, authMethodLabel, authMethodsFor, jwksOf, keysLabel } from './client-security.ts';
import { enrolmentTokenOf } from './enrol-link.ts';
import { subuserStatusLabel } from '@sso/contracts/constants';
import { AUDIT_ACTIONS } from '@sso/contracts/admin-members';
import { auditActionLabel, linesOf, minutesLeft, wordsOf } from './format.ts';
import { roleLabel, sectionsFor } from './roles.ts';
import { TOKEN_KEY, tokenStore, type TabStorage } from './token-store.ts';
import { isCreationOptions, isRequestOptions } from './webauthn.ts';

/** A tab's storage as a map. */
function memoryStorage(initial: Record<string, string> = {}): TabStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records the request and answers `status` with `body` (and `headers`). */
function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const sent: Sent[] = [];
  const fetcher: typeof fetch = async (url, init) => {
    sent.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };
  return { sent, fetcher };
}

const OPERATOR = { id: 'op-1', email: 'root@card.example.jp', display_name: '管理者 太郎', role: 'admin', status: 'active', created_at: 1 } as const;
const ME = { result_code: 0, result_message: '正常終了', operator: OPERATOR, session: { created_at: 1, idle_expires_at: 2, expires_at: 3, proved_at: 1 } };

describe('the operator token store', () => {
  it('keeps the token in memory and in the tab storage, and forgets it in both', () => {
    const storage = memoryStorage();
    const store = tokenStore(storage);
    expect(store.get()).toBeUndefined();
    store.set('op_abc');
    expect(store.get()).toBe('op_abc');
    expect(storage.items.get(TOKEN_KEY)).toBe('op_abc');
    // A reload of the tab finds it again.
    expect(tokenStore(storage).get()).toBe('op_abc');
    store.clear();
    expect(store.get()).toBeUndefined();
    expect(storage.items.has(TOKEN_KEY)).toBe(false);
  });

  it('keeps the token in memory when the storage throws, and without any storage', () => {
    const throwing: TabStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    for (const storage of [throwing, undefined]) {
      const store = tokenStore(storage);
      store.set('op_x');
      expect(store.get()).toBe('op_x');
      store.clear();
      expect(store.get()).toBeUndefined();
    }
  });

  it('never touches localStorage: the module keeps the token in sessionStorage at most', async () => {
    const source = await import('node:fs').then((fs) => fs.readFileSync(new URL('./token-store.ts', import.meta.url), 'utf8'));
    expect(source).not.toMatch(/localStorage\s*[.[]/);
    expect(source).toMatch(/sessionStorage/);
  });
});

describe('the enrolment link', () => {
  it("reads the token from the link's fragment", () => {
    expect(enrolmentTokenOf('#token=Ab-_09xyz')).toBe('Ab-_09xyz');
    expect(enrolmentTokenOf('token=Ab-_09xyz')).toBe('Ab-_09xyz');
    expect(enrolmentTokenOf(`#token=${'a'.repeat(43)}&x=1`)).toBe('a'.repeat(43));
  });

  it('finds no token in an empty, foreign, over-long or ill-formed fragment', () => {
    for (const hash of ['', '#', '#token=', '#other=abc', `#token=${'a'.repeat(129)}`, '#token=a%20b', '#token=<script>']) {
      expect(enrolmentTokenOf(hash), hash).toBeUndefined();
    }
  });
});

describe('the operator API client', () => {
  it("posts to the route's path with the operator token, and parses the answer with the route's schema", async () => {
    const { sent, fetcher } = answering(200, ME);
    const tokens = tokenStore(memoryStorage());
    tokens.set('op_token');
    const me = await adminCall(adminRoute('POST /api/admin/me'), undefined, { fetcher, tokens });
    expect(me.operator.display_name).toBe('管理者 太郎');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/admin/me');
    expect(sent[0]!.init.method).toBe('POST');
    expect(new Headers(sent[0]!.init.headers).get('Authorization')).toBe('Bearer op_token');
    expect(sent[0]!.init.body).toBeUndefined();
  });

  it('sends no operator token to a public ceremony, and the body as JSON', async () => {
    const { sent, fetcher } = answering(200, { result_code: 0, result_message: '正常終了', options: { challenge: 'c' } });
    const tokens = tokenStore(memoryStorage());
    tokens.set('op_token');
    await adminCall(adminRoute('POST /api/admin/enrol/options'), { token: 'abc' }, { fetcher, tokens });
    const headers = new Headers(sent[0]!.init.headers);
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ token: 'abc' });
  });

  it('refuses an answer outside the contract, never hands it on', async () => {
    const { fetcher } = answering(200, { result_code: 0, result_message: '正常終了', operator: { ...OPERATOR, role: 'root' } });
    await expect(adminCall(adminRoute('POST /api/admin/me'), undefined, { fetcher, tokens: tokenStore(undefined) })).rejects.toMatchObject({ message: NETWORK_MESSAGE });
  });

  it("throws the server's Japanese message for a refusal, in a 200 or a 4xx", async () => {
    const invalid = { result_code: 902, result_message: OPERATOR_MESSAGES.enrolmentInvalid };
    for (const status of [200, 400]) {
      const { fetcher } = answering(status, invalid);
      const call = adminCall(adminRoute('POST /api/admin/enrol/options'), { token: 'x' }, { fetcher, tokens: tokenStore(undefined) });
      await expect(call).rejects.toBeInstanceOf(ApiFailure);
      await expect(call).rejects.toMatchObject({ message: OPERATOR_MESSAGES.enrolmentInvalid, resultCode: 902, status });
    }
  });

  it('tells a step-up (401 insufficient_user_authentication) from a dead session, and keeps the token for the step-up only', async () => {
    const tokens = tokenStore(memoryStorage());
    tokens.set('op_token');
    const stale = answering(401, { result_code: 300, result_message: OPERATOR_MESSAGES.freshProofNeeded }, { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication"' });
    const invite = { email: 'a@card.example.jp', display_name: '支援 花子', role: 'support' } as const;
    await expect(adminCall(adminRoute('POST /api/admin/operators/invite'), invite, { fetcher: stale.fetcher, tokens })).rejects.toBeInstanceOf(FreshProofNeeded);
    expect(tokens.get()).toBe('op_token');

    const dead = answering(401, { result_code: 300, result_message: 'x' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    await expect(adminCall(adminRoute('POST /api/admin/me'), undefined, { fetcher: dead.fetcher, tokens })).rejects.toBeInstanceOf(SessionEnded);
    expect(tokens.get()).toBeUndefined();
  });

  it('turns a network failure or a body that is no JSON into the network message', async () => {
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(adminCall(adminRoute('POST /api/admin/login/options'), undefined, { fetcher: down, tokens: tokenStore(undefined) })).rejects.toMatchObject({ message: NETWORK_MESSAGE, status: 0 });
    const html: typeof fetch = async () => new Response('<html>', { status: 502 });
    await expect(adminCall(adminRoute('POST /api/admin/login/options'), undefined, { fetcher: html, tokens: tokenStore(undefined) })).rejects.toMatchObject({ message: NETWORK_MESSAGE, status: 502 });
  });

  it('types the body by the route contract', () => {
    const { fetcher } = answering(200, {});
    const options = { fetcher, tokens: tokenStore(undefined) };
    // Compile-time checks (tsc -p apps/admin): a body the contract does not take does not compile.
    const wrong = () => {
      // @ts-expect-error the invite needs email, display_name and role
      void adminCall(adminRoute('POST /api/admin/operators/invite'), { email: 'a@b.jp' }, options);
      // @ts-expect-error /me takes no body
      void adminCall(adminRoute('POST /api/admin/me'), { x: 1 }, options);
    };
    expect(typeof wrong).toBe('function');
  });
});

describe('the fresh passkey proof', () => {
  const stale = () => new FreshProofNeeded(OPERATOR_MESSAGES.freshProofNeeded);

  it('proves and runs the action once more when the server asks for a fresh proof', async () => {
    let calls = 0;
    let proofs = 0;
    const result = await withFreshProof(
      async () => {
        calls += 1;
        if (calls === 1) throw stale();
        return 'done';
      },
      async () => {
        proofs += 1;
        return true;
      },
    );
    expect(result).toBe('done');
    expect([calls, proofs]).toEqual([2, 1]);
  });

  it('leaves the refusal standing when the operator cancels the proof, and asks no proof for other failures', async () => {
    let calls = 0;
    await expect(
      withFreshProof(
        async () => {
          calls += 1;
          throw stale();
        },
        async () => false,
      ),
    ).rejects.toBeInstanceOf(FreshProofNeeded);
    expect(calls).toBe(1);
    let asked = false;
    await expect(
      withFreshProof(
        async () => {
          throw new ApiFailure('アクセスが拒否されました。', 403, 300);
        },
        async () => (asked = true),
      ),
    ).rejects.toMatchObject({ status: 403 });
    expect(asked).toBe(false);
  });

  it('asks once: a second refusal after the proof is the answer', async () => {
    let proofs = 0;
    await expect(
      withFreshProof(
        async () => {
          throw stale();
        },
        async () => {
          proofs += 1;
          return true;
        },
      ),
    ).rejects.toBeInstanceOf(FreshProofNeeded);
    expect(proofs).toBe(1);
  });
});

describe('the WebAuthn options and the sections of each role', () => {
  it('hands the browser only options with what a ceremony needs', () => {
    expect(isCreationOptions({ challenge: 'c', rp: { name: 'x' }, user: { id: 'u', name: 'n', displayName: 'd' }, pubKeyCredParams: [] })).toBe(true);
    expect(isCreationOptions({ challenge: 'c', rp: { name: 'x' }, pubKeyCredParams: [] })).toBe(false);
    expect(isCreationOptions({ rp: {}, user: { id: 'u' }, pubKeyCredParams: [] })).toBe(false);
    expect(isRequestOptions({ challenge: 'c' })).toBe(true);
    expect(isRequestOptions({ challenge: 'c', allowCredentials: 'x' })).toBe(false);
    expect(isRequestOptions({})).toBe(false);
  });

  it('shows each role only the sections its API answers', () => {
    const sections = [
      { path: '/members', label: '会員', role: 'support' },
      { path: '/audit', label: '監査ログ', role: 'security' },
      { path: '/operators', label: 'オペレーター', role: 'admin' },
    ] as const;
    expect(sectionsFor('support', sections).map((s) => s.path)).toEqual(['/members']);
    expect(sectionsFor('security', sections).map((s) => s.path)).toEqual(['/members', '/audit']);
    expect(sectionsFor('admin', sections).map((s) => s.path)).toEqual(['/members', '/audit', '/operators']);
    // The audit names the host's break-glass command `host`: shown as it is.
    expect([roleLabel('security'), roleLabel('host')]).toEqual(['セキュリティ', 'host']);
  });
});

describe('the audit filter and the JSON Lines export', () => {
  it('sends only the fields given, trimmed, and the days in Japan time with the last day included', async () => {
    expect(auditFilter({ operator_id: '', member_id: ' m-1 ', client_id: '', action: '', from: '', to: '' })).toEqual({ member_id: 'm-1' });
    const filter = auditFilter({ operator_id: 'op', member_id: '', client_id: 'SIAP009', action: 'member.unlock', from: '2026-11-28', to: '2026-11-28' });
    // 2026-11-28 00:00 in Tokyo is 2026-11-27 15:00 UTC; `to` is the next midnight, excluded by the API.
    expect(filter).toEqual({ operator_id: 'op', client_id: 'SIAP009', action: 'member.unlock', from: Date.UTC(2026, 10, 27, 15), to: Date.UTC(2026, 10, 28, 15) });
    expect(japanMidnight('2026/11/28')).toBeUndefined();
    expect(japanMidnight('')).toBeUndefined();
  });

  it('parses every line of the export by the contract, and refuses the whole answer for one bad line', async () => {
    const row = { id: 'a1', at: 1, time: '1970-01-01T00:00:00.001Z', operator_id: 'op', operator_role: 'security', action: 'member.view', member_id: 'm', client_id: null, reason: null, ticket: null, address: '127.0.0.1', request_id: 'r', detail: {} };
    const lines = (text: string): typeof fetch => async () => new Response(text, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
    const options = (text: string) => ({ fetcher: lines(text), tokens: tokenStore(undefined) });
    const good = `${JSON.stringify(row)}\n${JSON.stringify({ ...row, id: 'a2' })}\n`;
    const read = await adminLines(adminRoute('POST /api/admin/audit/export'), {}, options(good));
    expect(read.rows.map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(read.text).toBe(good);
    await expect(adminLines(adminRoute('POST /api/admin/audit/export'), {}, options(`${JSON.stringify(row)}\n{"id":1}\n`))).rejects.toMatchObject({ message: NETWORK_MESSAGE });
    await expect(adminLines(adminRoute('POST /api/admin/audit/export'), {}, options('not json\n'))).rejects.toMatchObject({ message: NETWORK_MESSAGE });
    // A refusal answered as JSON is the server's message, not lines.
    const refused: typeof fetch = async () => new Response(JSON.stringify({ result_code: 300, result_message: 'アクセスが拒否されました。' }), { status: 403, headers: { 'Content-Type': 'application/json' } });
    await expect(adminLines(adminRoute('POST /api/admin/audit/export'), {}, { fetcher: refused, tokens: tokenStore(undefined) })).rejects.toMatchObject({ status: 403, message: 'アクセスが拒否されました。' });
  });

  it('reads URIs one per line and scopes by spaces or commas', async () => {
    expect(linesOf(' https://a.example/cb \r\n\nhttps://b.example/cb\n')).toEqual(['https://a.example/cb', 'https://b.example/cb']);
    expect(wordsOf('openid  profile,email、points')).toEqual(['openid', 'profile', 'email', 'points']);
    expect(wordsOf('')).toEqual([]);
    expect([minutesLeft(1), minutesLeft(60_000), minutesLeft(60_001), minutesLeft(null)]).toEqual(['あと1分', 'あと1分', 'あと2分', '—']);
  });

  it('says a card\'s status as the member\'s card screens say it, and an unknown one as it is', () => {
    expect(['active', 'inactive', 'unactivated4Z'].map(subuserStatusLabel)).toEqual(['ご利用中', '利用停止中', '有効化が必要です']);
    expect(subuserStatusLabel('closed')).toBe('closed');
  });

  it('says every audit action in Japanese, each its own words, and an unknown one as it is', () => {
    const labels = AUDIT_ACTIONS.map(auditActionLabel);
    expect(labels.every((l) => /[ぁ-んァ-ヶ一-龠]/.test(l))).toBe(true);
    expect(new Set(labels).size).toBe(AUDIT_ACTIONS.length);
    expect([auditActionLabel('member.unlock'), auditActionLabel('client.retire_secret')]).toEqual(['ログインロックの解除', '旧シークレットの失効']);
    expect(auditActionLabel('member.delete')).toBe('member.delete');
  });
});

describe("a client's authentication and signing settings in the console", () => {
  it('offers a public client none only, a confidential one first no method (Basic or form, as openid-client 6 posts it), then the secret methods and private_key_jwt (decision 0038), each in Japanese', () => {
    expect(authMethodsFor('public')).toEqual(['none']);
    expect(authMethodsFor('confidential')).toEqual(['', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);
    for (const m of [...authMethodsFor('public'), ...authMethodsFor('confidential')]) expect(AUTH_METHOD_LABELS[m]).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    expect(AUTH_METHOD_LABELS['']).toBe('指定なし（Basic・フォームどちらも可）');
    // The list shows a client's method in these words: null (none named) as no method.
    expect(authMethodLabel(null)).toBe(AUTH_METHOD_LABELS['']);
    expect(authMethodLabel('private_key_jwt')).toBe(AUTH_METHOD_LABELS.private_key_jwt);
  });

  it('reads a JWK Set typed as JSON, and says in Japanese what is wrong with one that is not, never throwing', () => {
    const set = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' }] };
    expect(jwksOf(JSON.stringify(set, null, 2))).toEqual({ jwks: set });
    expect(jwksOf('  ')).toEqual({ jwks: undefined });
    expect(jwksOf('{"keys": [')).toEqual({ error: JWKS_MESSAGES.notJson });
    expect(jwksOf('not json at all')).toEqual({ error: JWKS_MESSAGES.notJson });
    for (const shape of ['[]', '{"keys": {}}', '{"kty": "EC"}', 'null', '"keys"', '{"keys": [1]}']) expect(jwksOf(shape), shape).toEqual({ error: JWKS_MESSAGES.notKeySet });
  });

  it('says which keys a client has registered: inline, by URI, or none', () => {
    expect(keysLabel({ jwks: { keys: [{}, {}] }, jwks_uri: null })).toBe('JWKS（鍵2件）');
    expect(keysLabel({ jwks: null, jwks_uri: 'https://partner.example/jwks' })).toBe('jwks_uri: https://partner.example/jwks');
    expect(keysLabel({ jwks: null, jwks_uri: null })).toBe('なし');
  });
});
