import { useState } from 'react';
import { Link } from 'react-router';
import { passkeyNameSchema } from '@sso/contracts/passkeys';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { usePageTitle } from '../app/page-title.ts';
import { failureMessage } from '../lib/api.ts';
import { enrolPasskey } from '../lib/ceremonies.ts';
import { enrolmentTokenOf } from '../lib/enrol-link.ts';
import { Alert, Field, Notice } from '../ui/field.tsx';

/**
 * Read once, when the module first runs on the enrolment page: the token is then taken out of the
 * address bar (and so out of the history), as the link is single-use anyway (decision 0032).
 */
function takeToken(): string | undefined {
  const token = enrolmentTokenOf(window.location.hash);
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  return token;
}

/** The enrolment of an operator's passkey by the single-use link `/admin/enrol#token=…`. */
export function Enrol() {
  usePageTitle('パスキーの登録');
  const [token] = useState(takeToken);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!token) return;
    const parsed = passkeyNameSchema.safeParse(name);
    setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (!parsed.success) return;
    setBusy(true);
    setError(undefined);
    try {
      await enrolPasskey(token, parsed.data);
      setDone(true);
    } catch (err) {
      setError(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="panel narrow">
      <h1>オペレーターのパスキー登録</h1>
      {!token ? (
        <Alert>{OPERATOR_MESSAGES.enrolmentInvalid}</Alert>
      ) : done ? (
        <>
          <Notice>パスキーを登録しました。</Notice>
          <p>
            <Link to="/login">ログイン画面へ</Link>
          </p>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <p>この端末でパスキーを作成して、運用コンソールにログインできるようにします。リンクは一度だけ使えます。</p>
          {error && <Alert>{error}</Alert>}
          <Field
            id="passkey-name"
            label="パスキーの名前"
            hint="どの端末のパスキーか分かる名前（例: 業務PC）"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={nameError}
            autoComplete="off"
            required
          />
          <div className="actions">
            <button type="submit" disabled={busy}>
              パスキーを登録
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
