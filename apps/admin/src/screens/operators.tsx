import { useCallback, useEffect, useState } from 'react';
import { OPERATOR_ROLES, operatorInviteRequestSchema, type OperatorRole, type OperatorView } from '@sso/contracts/operators';
import { useOperator } from '../app/operator-context.ts';
import { usePageTitle } from '../app/page-title.ts';
import { adminCall, adminRoute, failureMessage, withFreshProof, type AnswerOf } from '../lib/api.ts';
import { japanTime } from '../lib/format.ts';
import { ROLE_LABELS } from '../lib/roles.ts';
import { Alert, Field, Notice } from '../ui/field.tsx';
import { useFreshProof } from '../ui/use-fresh-proof.tsx';
import { useReason } from '../ui/use-reason.tsx';

type Invited = AnswerOf<'POST /api/admin/operators/invite'>;

/**
 * The operators (admin): the list, an invite with a role (which shows the single-use enrolment link to
 * hand over), and disabling and enabling with a reason (never oneself: the server refuses it too).
 */
export function Operators() {
  usePageTitle('オペレーター');
  const { prove, dialog } = useFreshProof();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [invited, setInvited] = useState<Invited>();
  const me = useOperator();
  const { ask, dialog: reasonDialog } = useReason();
  const [operators, setOperators] = useState<OperatorView[]>();
  const [done, setDone] = useState<string>();

  const load = useCallback(async () => {
    try {
      setOperators((await adminCall(adminRoute('POST /api/admin/operators'), undefined)).operators);
    } catch (e) {
      setError(failureMessage(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (o: OperatorView) => {
    const active = o.status === 'active';
    const why = await ask(`${o.display_name}を${active ? '無効にする' : '有効にする'}`);
    if (!why) return;
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await withFreshProof(() => adminCall(adminRoute(active ? 'POST /api/admin/operators/disable' : 'POST /api/admin/operators/enable'), { operator_id: o.id, ...why }), prove);
      setDone(active ? `${o.display_name}を無効にしました。` : `${o.display_name}を有効にしました。`);
      await load();
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = operatorInviteRequestSchema.safeParse({ email, display_name: displayName, role });
    setErrors(parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
    if (!parsed.success) return;
    setBusy(true);
    setError(undefined);
    setInvited(undefined);
    try {
      setInvited(await withFreshProof(() => adminCall(adminRoute('POST /api/admin/operators/invite'), parsed.data), prove));
      await load();
    } catch (err) {
      setError(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>オペレーター</h1>
      <section className="panel" aria-labelledby="invite-title">
        <h2 id="invite-title">オペレーターの招待</h2>
        <form onSubmit={(e) => void submit(e)} noValidate>
          {error && <Alert>{error}</Alert>}
          <Field id="invite-email" label="メールアドレス" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} autoComplete="off" required />
          <Field id="invite-name" label="氏名" value={displayName} onChange={(e) => setDisplayName(e.target.value)} error={errors.display_name} autoComplete="off" required />
          <div className="field">
            <label htmlFor="invite-role">権限</label>
            <select id="invite-role" name="invite-role" value={role} onChange={(e) => setRole(OPERATOR_ROLES.find((r) => r === e.target.value) ?? 'support')}>
              {OPERATOR_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <button type="submit" disabled={busy}>
              招待する
            </button>
          </div>
        </form>
        {invited && (
          <div>
            <Notice>
              {invited.operator.display_name}（{ROLE_LABELS[invited.operator.role]}）を招待しました。次のリンクを本人に渡してください。有効期限は
              {new Date(invited.expires_at).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo' })}までで、一度だけ使えます。
            </Notice>
            <div className="field">
              <label htmlFor="enrolment-url">登録用リンク</label>
              <input id="enrolment-url" className="secret" readOnly value={invited.enrolment_url} onFocus={(e) => e.target.select()} />
            </div>
          </div>
        )}
      </section>
      {operators && (
        <section className="panel" aria-labelledby="operators-title">
          <h2 id="operators-title">オペレーター一覧</h2>
          {done && <Notice>{done}</Notice>}
          <div className="table-wrap">
            <table className="stack">
              <thead>
                <tr>
                  <th scope="col">氏名</th>
                  <th scope="col">メールアドレス</th>
                  <th scope="col">権限</th>
                  <th scope="col">状態</th>
                  <th scope="col">登録日時</th>
                  <th scope="col">操作</th>
                </tr>
              </thead>
              <tbody>
                {operators.map((o) => (
                  <tr key={o.id}>
                    <td data-label="氏名">{o.display_name}</td>
                    <td data-label="メールアドレス">{o.email}</td>
                    <td data-label="権限">{ROLE_LABELS[o.role]}</td>
                    <td data-label="状態">{o.status === 'active' ? '有効' : '無効'}</td>
                    <td data-label="登録日時">{japanTime(o.created_at)}</td>
                    <td data-label="操作">
                      {o.id !== me.id && (
                        <button type="button" className={o.status === 'active' ? 'danger' : 'secondary'} onClick={() => void toggle(o)} disabled={busy} aria-label={`${o.display_name}を${o.status === 'active' ? '無効にする' : '有効にする'}`}>
                          {o.status === 'active' ? '無効にする' : '有効にする'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {reasonDialog}
      {dialog}
    </>
  );
}
