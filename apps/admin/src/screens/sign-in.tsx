import { useState } from 'react';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../app/page-title.ts';
import { failureMessage } from '../lib/api.ts';
import { signInWithPasskey } from '../lib/ceremonies.ts';
import { operatorToken } from '../lib/token-store.ts';
import { Alert } from '../ui/field.tsx';

/** The operator's sign-in: a passkey only, no password exists (decision 0032). */
export function SignIn() {
  usePageTitle('ログイン');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const signIn = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await signInWithPasskey();
      operatorToken.set(answer.access_token);
      void navigate('/', { replace: true });
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="panel narrow">
      <h1>運用コンソール ログイン</h1>
      <p>登録済みのパスキーでログインしてください。オペレーターのログインにパスワードは使いません。</p>
      {error && <Alert>{error}</Alert>}
      <div className="actions">
        <button type="button" onClick={() => void signIn()} disabled={busy}>
          パスキーでログイン
        </button>
      </div>
    </main>
  );
}
