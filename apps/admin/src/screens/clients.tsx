import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { clientRegisterRequestSchema, clientUpdateRequestSchema, type AdminClientView } from '@sso/contracts/admin-clients';
import { usePageTitle } from '../app/page-title.ts';
import { adminCall, adminRoute, failureMessage, withFreshProof } from '../lib/api.ts';
import { AUTH_METHOD_LABELS, authMethodLabel, authMethodsFor, jwksOf, keysLabel } from '../lib/client-security.ts';
import { japanTime, linesOf, wordsOf } from '../lib/format.ts';
import { Alert, CheckField, Field, Notice, TextAreaField } from '../ui/field.tsx';
import { useFreshProof } from '../ui/use-fresh-proof.tsx';
import { useReason, type Reason } from '../ui/use-reason.tsx';

/** A new secret, shown once: the server keeps only its digest (decision 0008). */
interface ShownSecret {
  clientId: string;
  secret: string;
}

/**
 * The partner clients (admin; decision 0031): the list, a registration, an edit of the URIs, scopes,
 * terms, authentication method and keys, signing algorithms and FAPI flags (decisions 0034 to 0038),
 * enabling and disabling, and the secret's rotation with an overlap (the new secret shown once) and
 * the old one's retirement. Every change asks a reason; the sensitive ones a fresh proof.
 */
export function Clients() {
  usePageTitle('パートナー');
  const { prove, dialog: proofDialog } = useFreshProof();
  const { ask, dialog: reasonDialog } = useReason();
  const [clients, setClients] = useState<AdminClientView[]>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [secret, setSecret] = useState<ShownSecret>();
  const [editing, setEditing] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setClients((await adminCall(adminRoute('POST /api/admin/clients'), undefined)).clients);
    } catch (e) {
      setError(failureMessage(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  /** Asks why (unless given), runs the change with a fresh proof when asked, says what happened and reloads. */
  const change = async (title: string, message: string, run: (why: Reason) => Promise<void>, given?: Reason) => {
    const why = given ?? (await ask(title));
    if (!why) return false;
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await withFreshProof(() => run(why), prove);
      setDone(message);
      await load();
      return true;
    } catch (e) {
      setError(failureMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const toggle = (c: AdminClientView) =>
    void change(c.enabled ? `${c.name}の無効化` : `${c.name}の有効化`, c.enabled ? 'クライアントを無効にしました。発行済みのトークンは失効しました。' : 'クライアントを有効にしました。', async (why) => {
      await adminCall(adminRoute(c.enabled ? 'POST /api/admin/clients/disable' : 'POST /api/admin/clients/enable'), { client_id: c.client_id, ...why });
    });
  const rotate = (c: AdminClientView) =>
    void change(`${c.name}のシークレット更新`, '新しいシークレットを発行しました。', async (why) => {
      const answer = await adminCall(adminRoute('POST /api/admin/clients/secret/rotate'), { client_id: c.client_id, ...why });
      setSecret({ clientId: c.client_id, secret: answer.client_secret });
    });
  const retire = (c: AdminClientView) =>
    void change(`${c.name}の旧シークレット失効`, '旧シークレットを失効させました。', async (why) => {
      await adminCall(adminRoute('POST /api/admin/clients/secret/retire'), { client_id: c.client_id, ...why });
    });

  return (
    <>
      <h1>パートナー</h1>
      {error && <Alert>{error}</Alert>}
      {done && <Notice>{done}</Notice>}
      {secret && (
        <section className="panel" aria-labelledby="secret-title">
          <h2 id="secret-title">新しいクライアントシークレット（{secret.clientId}）</h2>
          <p>この画面を離れると二度と表示できません。パートナーに安全な方法で渡してください。</p>
          <div className="field">
            <label htmlFor="client-secret">クライアントシークレット</label>
            <input id="client-secret" className="secret" readOnly value={secret.secret} onFocus={(e) => e.target.select()} />
          </div>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setSecret(undefined)}>
              控えたので閉じる
            </button>
          </div>
        </section>
      )}
      <RegisterClient
        busy={busy}
        onRegister={(request, why) =>
          change(
            'クライアントの登録',
            'クライアントを登録しました。',
            async () => {
              const answer = await adminCall(adminRoute('POST /api/admin/clients/register'), request);
              if (answer.client_secret) setSecret({ clientId: answer.client.client_id, secret: answer.client_secret });
            },
            why,
          )
        }
        onError={setError}
      />
      {clients && (
        <section className="panel" aria-labelledby="clients-title">
          <h2 id="clients-title">クライアント一覧（{clients.length}件）</h2>
          {clients.map((c) => (
            <article key={c.client_id} className="panel" aria-labelledby={`client-${c.client_id}`}>
              <h3 id={`client-${c.client_id}`}>
                {c.name}（{c.client_id}）{c.enabled ? '' : ' — 無効'}
              </h3>
              <dl className="summary">
                <div className="pair">
                  <dt>種別</dt>
                  <dd>{c.type === 'confidential' ? 'コンフィデンシャル' : 'パブリック'}</dd>
                </div>
                <div className="pair">
                  <dt>リダイレクトURI</dt>
                  <dd>{c.redirect_uris.join(' ') || '—'}</dd>
                </div>
                {c.web_origins.length > 0 && (
                  <div className="pair">
                    <dt>Webオリジン</dt>
                    <dd>{c.web_origins.join(' ')}</dd>
                  </div>
                )}
                <div className="pair">
                  <dt>スコープ</dt>
                  <dd>{c.scopes.join(' ') || '—'}</dd>
                </div>
                <div className="pair">
                  <dt>認証方式</dt>
                  <dd>{authMethodLabel(c.token_endpoint_auth_method)}</dd>
                </div>
                <div className="pair">
                  <dt>公開鍵</dt>
                  <dd>{keysLabel(c)}</dd>
                </div>
                <div className="pair">
                  <dt>IDトークンの署名</dt>
                  <dd>{c.id_token_signed_response_alg}</dd>
                </div>
                <div className="pair">
                  <dt>UserInfoの署名</dt>
                  <dd>{c.userinfo_signed_response_alg ?? 'なし（JSON）'}</dd>
                </div>
                <div className="pair">
                  <dt>PAR必須</dt>
                  <dd>{c.require_pushed_authorization_requests ? 'はい' : 'いいえ'}</dd>
                </div>
                <div className="pair">
                  <dt>DPoP必須</dt>
                  <dd>{c.dpop_bound_access_tokens ? 'はい' : 'いいえ'}</dd>
                </div>
                <div className="pair">
                  <dt>シークレット</dt>
                  <dd>{c.secrets.length === 0 ? '—' : c.secrets.map((s) => `${japanTime(s.created_at)}発行${s.retire_at ? `（${japanTime(s.retire_at)}失効）` : ''}`).join('、')}</dd>
                </div>
              </dl>
              <div className="actions">
                <button type="button" className="secondary" onClick={() => setEditing(editing === c.client_id ? undefined : c.client_id)} aria-expanded={editing === c.client_id} aria-label={`${c.name}を編集`}>
                  編集
                </button>
                <button type="button" className={c.enabled ? 'danger' : undefined} onClick={() => toggle(c)} disabled={busy} aria-label={`${c.name}を${c.enabled ? '無効にする' : '有効にする'}`}>
                  {c.enabled ? '無効にする' : '有効にする'}
                </button>
                {c.type === 'confidential' && c.token_endpoint_auth_method !== 'private_key_jwt' && (
                  <>
                    <button type="button" className="secondary" onClick={() => rotate(c)} disabled={busy} aria-label={`${c.name}のシークレットを更新`}>
                      シークレットを更新
                    </button>
                    {c.secrets.length > 1 && (
                      <button type="button" className="secondary" onClick={() => retire(c)} disabled={busy} aria-label={`${c.name}の旧シークレットを失効`}>
                        旧シークレットを失効
                      </button>
                    )}
                  </>
                )}
              </div>
              {editing === c.client_id && (
                <EditClient
                  client={c}
                  busy={busy}
                  onError={setError}
                  onSave={(request, why) =>
                    change(
                      `${c.name}の変更`,
                      'クライアントを変更しました。',
                      async () => {
                        const answer = await adminCall(adminRoute('POST /api/admin/clients/update'), request);
                        // Leaving private_key_jwt for a secret: the new secret, once (decision 0038).
                        if (answer.client_secret) setSecret({ clientId: c.client_id, secret: answer.client_secret });
                        setEditing(undefined);
                      },
                      why,
                    )
                  }
                />
              )}
            </article>
          ))}
        </section>
      )}
      {reasonDialog}
      {proofDialog}
    </>
  );
}

type RegisterRequest = ReturnType<typeof clientRegisterRequestSchema.parse>;
type UpdateRequest = ReturnType<typeof clientUpdateRequestSchema.parse>;

/**
 * What both forms edit: a client's URIs, scopes and terms, its authentication method and keys, its
 * signing algorithms (decision 0034; userinfo '': plain JSON) and FAPI flags, and the change's reason.
 */
const CLIENT_FIELDS = {
  redirect_uris: '',
  post_logout: '',
  backchannel: '',
  web_origins: '',
  scopes: '',
  terms: '',
  // None named (''): a secret in the Basic header or the form (decision 0038), left out of the request.
  auth_method: '',
  jwks: '',
  jwks_uri: '',
  id_alg: 'RS256',
  userinfo_alg: '',
  par: false,
  dpop: false,
  reason: '',
  ticket: '',
};
type ClientFields = typeof CLIENT_FIELDS;
type TextKey = { [K in keyof ClientFields]: ClientFields[K] extends string ? K : never }[keyof ClientFields];

/**
 * The request's part of those fields, or the JWKS's problem in Japanese. What a form leaves empty is
 * null here (the back-channel URI, the keys, the userinfo algorithm): an update removes it with null,
 * a registration leaves it out (`present`).
 */
function requestOf(f: ClientFields): { request: Record<string, unknown> } | { error: string } {
  const keyed = f.auth_method === 'private_key_jwt';
  const read = keyed ? jwksOf(f.jwks) : { jwks: undefined };
  if ('error' in read) return read;
  return {
    request: {
      redirect_uris: linesOf(f.redirect_uris),
      post_logout_redirect_uris: linesOf(f.post_logout),
      backchannel_logout_uri: f.backchannel.trim() || null,
      web_origins: linesOf(f.web_origins),
      scopes: wordsOf(f.scopes),
      terms: wordsOf(f.terms),
      jwks: read.jwks ?? null,
      jwks_uri: (keyed && f.jwks_uri.trim()) || null,
      id_token_signed_response_alg: f.id_alg,
      userinfo_signed_response_alg: f.userinfo_alg || null,
      require_pushed_authorization_requests: f.par,
      dpop_bound_access_tokens: f.dpop,
      reason: f.reason,
      ...(f.ticket.trim() ? { ticket: f.ticket } : {}),
    },
  };
}

/** A registration's request: what is empty left out. */
const present = (request: Record<string, unknown>) => Object.fromEntries(Object.entries(request).filter(([, v]) => v !== null));

/** A request checked by its schema: it and its reason, or undefined after the first issue is shown. */
function checked<T extends Reason>(parsed: z.ZodSafeParseResult<T>, onError: (m: string | undefined) => void): [T, Reason] | undefined {
  if (!parsed.success) {
    onError(`${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    return undefined;
  }
  onError(undefined);
  const { reason, ticket } = parsed.data;
  return [parsed.data, { reason, ...(ticket ? { ticket } : {}) }];
}

/**
 * One form of a client's URIs, scopes, terms, authentication and signing settings and the reason: the
 * registration's (`optional`: the optional fields say so, after `children`, its own fields) and an
 * edit's. `type` decides the authentication methods offered.
 */
function ClientForm<F extends ClientFields>({
  id,
  optional,
  type,
  f,
  setF,
  busy,
  submitLabel,
  label,
  onSubmit,
  children,
}: {
  id: string;
  optional: boolean;
  type: AdminClientView['type'];
  f: F;
  setF: (update: (x: F) => F) => void;
  busy: boolean;
  submitLabel: string;
  label?: string;
  onSubmit: () => Promise<void>;
  children?: ReactNode;
}) {
  const set = (k: TextKey) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  const ifOptional = (text: string) => (optional ? `${text}（任意）` : text);
  // The JWKS's problem once the admin has left the field: invalid JSON is said at once, never sent.
  const [jwksLeft, setJwksLeft] = useState(false);
  const jwksRead = jwksOf(f.jwks);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
      noValidate
      aria-label={label}
    >
      {children}
      <TextAreaField id={`${id}-redirects`} label="リダイレクトURI" hint="1行に1つ" value={f.redirect_uris} onChange={set('redirect_uris')} />
      <TextAreaField id={`${id}-post-logout`} label="ログアウト後のリダイレクトURI" hint={ifOptional('1行に1つ')} value={f.post_logout} onChange={set('post_logout')} />
      <Field id={`${id}-backchannel`} label={ifOptional('バックチャネルログアウトURI')} value={f.backchannel} onChange={set('backchannel')} autoComplete="off" />
      <TextAreaField
        id={`${id}-web-origins`}
        label={ifOptional('Webオリジン')}
        hint="パブリッククライアントのみ。ブラウザアプリのページのオリジン（https://ホスト名[:ポート]、パス・末尾のスラッシュなし）を1行に1つ"
        value={f.web_origins}
        onChange={set('web_origins')}
      />
      <Field id={`${id}-scopes`} label="スコープ" hint="空白区切り" value={f.scopes} onChange={set('scopes')} autoComplete="off" />
      <Field id={`${id}-terms`} label="規約" hint={ifOptional('空白区切り')} value={f.terms} onChange={set('terms')} autoComplete="off" />
      <div className="field">
        <label htmlFor={`${id}-auth-method`}>認証方式</label>
        <select id={`${id}-auth-method`} name={`${id}-auth-method`} value={f.auth_method} onChange={set('auth_method')}>
          {authMethodsFor(type).map((m) => (
            <option key={m} value={m}>
              {AUTH_METHOD_LABELS[m]}
            </option>
          ))}
        </select>
      </div>
      {f.auth_method === 'private_key_jwt' && (
        <>
          <TextAreaField
            id={`${id}-jwks`}
            label="JWKS（公開鍵のJSON）"
            hint='{"keys": [ … ]} の形。jwks_uri とどちらか一方'
            value={f.jwks}
            onChange={set('jwks')}
            onBlur={() => setJwksLeft(true)}
            error={jwksLeft && 'error' in jwksRead ? jwksRead.error : undefined}
            spellCheck={false}
          />
          <Field id={`${id}-jwks-uri`} label="jwks_uri（公開鍵の公開先URL）" hint="https のURL。JWKS とどちらか一方" value={f.jwks_uri} onChange={set('jwks_uri')} autoComplete="off" />
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-id-alg`}>IDトークンの署名アルゴリズム</label>
        <select id={`${id}-id-alg`} name={`${id}-id-alg`} value={f.id_alg} onChange={set('id_alg')}>
          <option value="RS256">RS256</option>
          <option value="ES256">ES256</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-userinfo-alg`}>UserInfoの署名</label>
        <select id={`${id}-userinfo-alg`} name={`${id}-userinfo-alg`} value={f.userinfo_alg} onChange={set('userinfo_alg')}>
          <option value="">なし（JSONで応答）</option>
          <option value="RS256">RS256</option>
          <option value="ES256">ES256</option>
        </select>
      </div>
      <CheckField id={`${id}-par`} label="PAR（プッシュ型認可リクエスト）を必須にする" checked={f.par} onChange={(e) => setF((x) => ({ ...x, par: e.target.checked }))} />
      <CheckField id={`${id}-dpop`} label="DPoPで送信者を限定したトークンを必須にする" checked={f.dpop} onChange={(e) => setF((x) => ({ ...x, dpop: e.target.checked }))} />
      <TextAreaField id={`${id}-reason`} label="理由" value={f.reason} onChange={set('reason')} />
      <Field id={`${id}-ticket`} label="チケット番号（任意）" value={f.ticket} onChange={set('ticket')} autoComplete="off" />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** The registration form: the definition and the reason in one form. */
function RegisterClient({ busy, onRegister, onError }: { busy: boolean; onRegister: (r: RegisterRequest, why: Reason) => Promise<boolean>; onError: (m: string | undefined) => void }) {
  const [f, setF] = useState({ ...CLIENT_FIELDS, client_id: '', name: '', type: 'confidential' as AdminClientView['type'], scopes: 'openid' });
  const submit = async () => {
    const fields = requestOf(f);
    if ('error' in fields) return onError(fields.error);
    const method = f.auth_method ? { token_endpoint_auth_method: f.auth_method } : {};
    const request = checked(clientRegisterRequestSchema.safeParse({ client_id: f.client_id.trim(), name: f.name.trim(), type: f.type, ...method, ...present(fields.request) }), onError);
    if (request && (await onRegister(...request))) setF((x) => ({ ...x, client_id: '', name: '', redirect_uris: '', post_logout: '', backchannel: '', web_origins: '', jwks: '', jwks_uri: '', reason: '', ticket: '' }));
  };
  return (
    <section className="panel" aria-labelledby="register-title">
      <h2 id="register-title">クライアントの登録</h2>
      <ClientForm id="client" optional type={f.type} f={f} setF={setF} busy={busy} submitLabel="登録する" onSubmit={submit}>
        <Field id="client-id" label="クライアントID" value={f.client_id} onChange={(e) => setF((x) => ({ ...x, client_id: e.target.value }))} autoComplete="off" />
        <Field id="client-name" label="サービス名" value={f.name} onChange={(e) => setF((x) => ({ ...x, name: e.target.value }))} autoComplete="off" />
        <div className="field">
          <label htmlFor="client-type">種別</label>
          <select
            id="client-type"
            name="client-type"
            value={f.type}
            onChange={(e) => {
              const type = e.target.value === 'public' ? 'public' : 'confidential';
              // The method follows the type: none for a public client, none named (a secret, Basic or form) for a confidential one.
              setF((x) => ({ ...x, type, auth_method: authMethodsFor(type)[0] ?? 'none' }));
            }}
          >
            <option value="confidential">コンフィデンシャル（シークレットあり）</option>
            <option value="public">パブリック（PKCEのみ）</option>
          </select>
        </div>
      </ClientForm>
    </section>
  );
}

/** The edit of a client's URIs, scopes, terms, authentication and signing settings, with the reason. */
function EditClient({ client, busy, onSave, onError }: { client: AdminClientView; busy: boolean; onSave: (r: UpdateRequest, why: Reason) => Promise<boolean>; onError: (m: string | undefined) => void }) {
  const [f, setF] = useState({
    redirect_uris: client.redirect_uris.join('\n'),
    post_logout: client.post_logout_redirect_uris.join('\n'),
    backchannel: client.backchannel_logout_uri ?? '',
    web_origins: client.web_origins.join('\n'),
    scopes: client.scopes.join(' '),
    terms: client.terms.join(' '),
    auth_method: client.token_endpoint_auth_method ?? '',
    jwks: client.jwks ? JSON.stringify(client.jwks, null, 2) : '',
    jwks_uri: client.jwks_uri ?? '',
    id_alg: client.id_token_signed_response_alg,
    userinfo_alg: client.userinfo_signed_response_alg ?? '',
    par: client.require_pushed_authorization_requests,
    dpop: client.dpop_bound_access_tokens,
    reason: '',
    ticket: '',
  });
  const submit = async () => {
    const fields = requestOf(f);
    if ('error' in fields) return onError(fields.error);
    // The method only when changed: a client that names none takes a secret either way (decision 0038), which naming one would end;
    // none named again is null.
    const method = f.auth_method === (client.token_endpoint_auth_method ?? '') ? {} : { token_endpoint_auth_method: f.auth_method || null };
    const request = checked(clientUpdateRequestSchema.safeParse({ client_id: client.client_id, ...fields.request, ...method }), onError);
    if (request) await onSave(...request);
  };
  return <ClientForm id={`edit-${client.client_id}`} optional={false} type={client.type} f={f} setF={setF} busy={busy} submitLabel="変更を保存" label={`${client.name}の編集`} onSubmit={submit} />;
}
