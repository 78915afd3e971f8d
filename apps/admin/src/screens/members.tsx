import { useState } from 'react';
import { Link } from 'react-router';
import { memberResendActivationRequestSchema, memberSearchRequestSchema } from '@sso/contracts/admin-members';
import { usePageTitle } from '../app/page-title.ts';
import { adminCall, adminRoute, failureMessage, type AnswerOf } from '../lib/api.ts';
import { japanTime, MEMBER_STATUS, MEMBER_TYPE } from '../lib/format.ts';
import { Alert, Field, Notice } from '../ui/field.tsx';
import { useReason } from '../ui/use-reason.tsx';

type Found = AnswerOf<'POST /api/admin/members/search'>['members'];

const KINDS = {
  email: 'メールアドレス',
  tel: '携帯電話番号',
  member_id: '会員ID',
  card: 'カード番号下4桁と生年月日',
} as const;
type Kind = keyof typeof KINDS;
const isKind = (v: string): v is Kind => v in KINDS;

/** Member search (support): by e-mail, mobile number (any forgiving form), member id, or a card's last four with the birth date. */
export function Members() {
  usePageTitle('会員検索');
  const [kind, setKind] = useState<Kind>('email');
  const [text, setText] = useState('');
  const [birthday, setBirthday] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<Found>();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const request = kind === 'card' ? { card_last4: text, birthday } : { [kind]: text };
    const parsed = memberSearchRequestSchema.safeParse(request);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      setFound((await adminCall(adminRoute('POST /api/admin/members/search'), parsed.data)).members);
    } catch (err) {
      setError(failureMessage(err));
      setFound(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>会員検索</h1>
      <section className="panel">
        <form onSubmit={(e) => void submit(e)} noValidate>
          {error && <Alert>{error}</Alert>}
          <div className="field">
            <label htmlFor="search-kind">検索方法</label>
            <select id="search-kind" name="search-kind" value={kind} onChange={(e) => isKind(e.target.value) && setKind(e.target.value)}>
              {Object.entries(KINDS).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <Field
            id="search-text"
            label={kind === 'card' ? 'カード番号下4桁' : KINDS[kind]}
            hint={kind === 'tel' ? 'ハイフンや全角数字を含めても検索できます' : undefined}
            value={text}
            onChange={(e) => setText(e.target.value)}
            inputMode={kind === 'tel' || kind === 'card' ? 'numeric' : undefined}
            autoComplete="off"
          />
          {kind === 'card' && <Field id="search-birthday" label="生年月日" hint="例: 19900101、1990/1/1" value={birthday} onChange={(e) => setBirthday(e.target.value)} autoComplete="off" />}
          <div className="actions">
            <button type="submit" disabled={busy}>
              検索
            </button>
          </div>
        </form>
      </section>
      <ResendActivation />
      {found && (
        <section className="panel" aria-labelledby="results-title">
          <h2 id="results-title">検索結果（{found.length}件）</h2>
          {found.length === 0 ? (
            <p>該当する会員はいません。</p>
          ) : (
            <div className="table-wrap">
              <table className="stack">
                <thead>
                  <tr>
                    <th scope="col">会員ID</th>
                    <th scope="col">種別</th>
                    <th scope="col">状態</th>
                    <th scope="col">メールアドレス</th>
                    <th scope="col">携帯電話番号</th>
                    <th scope="col">登録日時</th>
                  </tr>
                </thead>
                <tbody>
                  {found.map((m) => (
                    <tr key={m.member_id}>
                      <td data-label="会員ID">
                        <Link to={`/members/${encodeURIComponent(m.member_id)}`}>{m.member_id}</Link>
                      </td>
                      <td data-label="種別">{MEMBER_TYPE[m.member_type]}</td>
                      <td data-label="状態">{MEMBER_STATUS[m.status]}</td>
                      <td data-label="メールアドレス">{m.email}</td>
                      <td data-label="携帯電話番号">{m.tel ?? '—'}</td>
                      <td data-label="登録日時">{japanTime(m.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
    </>
  );
}

/** A pending open sign-up is no member yet: its activation mail is resent by its e-mail, with a reason. */
function ResendActivation() {
  const { ask, dialog } = useReason();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    if (email.trim() === '') {
      setError('メールアドレスを入力してください');
      return;
    }
    const why = await ask('有効化メールの再送');
    if (!why) return;
    const parsed = memberResendActivationRequestSchema.safeParse({ email, ...why });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await adminCall(adminRoute('POST /api/admin/members/resend-activation'), parsed.data);
      setDone('有効化メールを再送しました。');
    } catch (err) {
      setError(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="resend-title">
      <h2 id="resend-title">有効化メールの再送（登録手続き中の方）</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        {error && <Alert>{error}</Alert>}
        {done && <Notice>{done}</Notice>}
        <Field id="resend-email" label="登録手続き中のメールアドレス" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        <div className="actions">
          <button type="submit" className="secondary" disabled={busy}>
            有効化メールを再送
          </button>
        </div>
      </form>
      {dialog}
    </section>
  );
}
