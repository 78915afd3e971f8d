import { useCallback, useEffect, useState } from 'react';
import { clientRegisterRequestSchema, clientUpdateRequestSchema, type AdminClientView } from '@sso/contracts/admin-clients';
import { usePageTitle } from '../app/page-title.ts';
import { adminCall, adminRoute, failureMessage, withFreshProof } from '../lib/api.ts';
import { japanTime, linesOf, wordsOf } from '../lib/format.ts';
import { Alert, Field, Notice } from '../ui/field.tsx';
import { useFreshProof } from '../ui/use-fresh-proof.tsx';
import { useReason, type Reason } from '../ui/use-reason.tsx';

/** A new secret, shown once: the server keeps only its digest (decision 0008). */
interface ShownSecret {
  clientId: string;
  secret: string;
}

/**
 * The partner clients (admin; decision 0031): the list, a registration, an edit of the URIs, scopes
 * and terms, enabling and disabling, and the secret's rotation with an overlap (the new secret shown
 * once) and the old one's retirement. Every change asks a reason; the sensitive ones a fresh proof.
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
                <div className="pair">
                  <dt>スコープ</dt>
                  <dd>{c.scopes.join(' ') || '—'}</dd>
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
                {c.type === 'confidential' && (
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
                        await adminCall(adminRoute('POST /api/admin/clients/update'), request);
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

/** A textarea with its visible label. */
function TextArea({ id, label, hint, value, onChange }: { id: string; label: string; hint?: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      <textarea id={id} name={id} rows={3} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={hint ? `${id}-hint` : undefined} />
    </div>
  );
}

type RegisterRequest = ReturnType<typeof clientRegisterRequestSchema.parse>;
type UpdateRequest = ReturnType<typeof clientUpdateRequestSchema.parse>;

/** The registration form: the definition and the reason in one form. */
function RegisterClient({ busy, onRegister, onError }: { busy: boolean; onRegister: (r: RegisterRequest, why: Reason) => Promise<boolean>; onError: (m: string | undefined) => void }) {
  const [f, setF] = useState({ client_id: '', name: '', type: 'confidential', redirect_uris: '', post_logout: '', backchannel: '', scopes: 'openid', terms: '', reason: '', ticket: '' });
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = clientRegisterRequestSchema.safeParse({
      client_id: f.client_id.trim(),
      name: f.name.trim(),
      type: f.type,
      redirect_uris: linesOf(f.redirect_uris),
      post_logout_redirect_uris: linesOf(f.post_logout),
      ...(f.backchannel.trim() ? { backchannel_logout_uri: f.backchannel.trim() } : {}),
      scopes: wordsOf(f.scopes),
      terms: wordsOf(f.terms),
      reason: f.reason,
      ...(f.ticket.trim() ? { ticket: f.ticket } : {}),
    });
    if (!parsed.success) {
      onError(`${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
      return;
    }
    onError(undefined);
    const { reason, ticket } = parsed.data;
    if (await onRegister(parsed.data, { reason, ...(ticket ? { ticket } : {}) })) setF((x) => ({ ...x, client_id: '', name: '', redirect_uris: '', post_logout: '', backchannel: '', reason: '', ticket: '' }));
  };
  return (
    <section className="panel" aria-labelledby="register-title">
      <h2 id="register-title">クライアントの登録</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field id="client-id" label="クライアントID" value={f.client_id} onChange={(e) => set('client_id')(e.target.value)} autoComplete="off" />
        <Field id="client-name" label="サービス名" value={f.name} onChange={(e) => set('name')(e.target.value)} autoComplete="off" />
        <div className="field">
          <label htmlFor="client-type">種別</label>
          <select id="client-type" name="client-type" value={f.type} onChange={(e) => set('type')(e.target.value)}>
            <option value="confidential">コンフィデンシャル（シークレットあり）</option>
            <option value="public">パブリック（PKCEのみ）</option>
          </select>
        </div>
        <TextArea id="client-redirects" label="リダイレクトURI" hint="1行に1つ" value={f.redirect_uris} onChange={set('redirect_uris')} />
        <TextArea id="client-post-logout" label="ログアウト後のリダイレクトURI" hint="1行に1つ（任意）" value={f.post_logout} onChange={set('post_logout')} />
        <Field id="client-backchannel" label="バックチャネルログアウトURI（任意）" value={f.backchannel} onChange={(e) => set('backchannel')(e.target.value)} autoComplete="off" />
        <Field id="client-scopes" label="スコープ" hint="空白区切り" value={f.scopes} onChange={(e) => set('scopes')(e.target.value)} autoComplete="off" />
        <Field id="client-terms" label="規約" hint="空白区切り（任意）" value={f.terms} onChange={(e) => set('terms')(e.target.value)} autoComplete="off" />
        <TextArea id="client-reason" label="理由" value={f.reason} onChange={set('reason')} />
        <Field id="client-ticket" label="チケット番号（任意）" value={f.ticket} onChange={(e) => set('ticket')(e.target.value)} autoComplete="off" />
        <div className="actions">
          <button type="submit" disabled={busy}>
            登録する
          </button>
        </div>
      </form>
    </section>
  );
}

/** The edit of a client's URIs, scopes and terms, with the reason. */
function EditClient({ client, busy, onSave, onError }: { client: AdminClientView; busy: boolean; onSave: (r: UpdateRequest, why: Reason) => Promise<boolean>; onError: (m: string | undefined) => void }) {
  const id = `edit-${client.client_id}`;
  const [f, setF] = useState({
    redirect_uris: client.redirect_uris.join('\n'),
    post_logout: client.post_logout_redirect_uris.join('\n'),
    backchannel: client.backchannel_logout_uri ?? '',
    scopes: client.scopes.join(' '),
    terms: client.terms.join(' '),
    reason: '',
    ticket: '',
  });
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = clientUpdateRequestSchema.safeParse({
      client_id: client.client_id,
      redirect_uris: linesOf(f.redirect_uris),
      post_logout_redirect_uris: linesOf(f.post_logout),
      backchannel_logout_uri: f.backchannel.trim() === '' ? null : f.backchannel.trim(),
      scopes: wordsOf(f.scopes),
      terms: wordsOf(f.terms),
      reason: f.reason,
      ...(f.ticket.trim() ? { ticket: f.ticket } : {}),
    });
    if (!parsed.success) {
      onError(`${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
      return;
    }
    onError(undefined);
    const { reason, ticket } = parsed.data;
    await onSave(parsed.data, { reason, ...(ticket ? { ticket } : {}) });
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={`${client.name}の編集`}>
      <TextArea id={`${id}-redirects`} label="リダイレクトURI" hint="1行に1つ" value={f.redirect_uris} onChange={set('redirect_uris')} />
      <TextArea id={`${id}-post-logout`} label="ログアウト後のリダイレクトURI" hint="1行に1つ" value={f.post_logout} onChange={set('post_logout')} />
      <Field id={`${id}-backchannel`} label="バックチャネルログアウトURI" value={f.backchannel} onChange={(e) => set('backchannel')(e.target.value)} autoComplete="off" />
      <Field id={`${id}-scopes`} label="スコープ" hint="空白区切り" value={f.scopes} onChange={(e) => set('scopes')(e.target.value)} autoComplete="off" />
      <Field id={`${id}-terms`} label="規約" hint="空白区切り" value={f.terms} onChange={(e) => set('terms')(e.target.value)} autoComplete="off" />
      <TextArea id={`${id}-reason`} label="理由" value={f.reason} onChange={set('reason')} />
      <Field id={`${id}-ticket`} label="チケット番号（任意）" value={f.ticket} onChange={(e) => set('ticket')(e.target.value)} autoComplete="off" />
      <div className="actions">
        <button type="submit" disabled={busy}>
          変更を保存
        </button>
      </div>
    </form>
  );
}
