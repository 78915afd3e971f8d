import { useCallback, useState } from 'react';
import { Navigate } from 'react-router';
import { termDocument } from '@sso/contracts/terms';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import { submitAuthorizeForm } from './hand-off.ts';
import { getLoginContext } from './login-context.ts';
import styles from './terms.module.css';

/** Each listed term with its title and fixed body; an unknown key gives empty texts and a warning (SPEC.md section 3). */
function termsOf(keys: string[]) {
  return keys.map((key) => {
    const doc = termDocument(key);
    if (!doc) console.warn(`unknown term key: ${key}`);
    return { key, title: doc?.title ?? '', body: doc?.body ?? '' };
  });
}

/**
 * Additional terms (SPEC.md section 2, "Terms agreement"): the terms the login answer listed, a
 * required agreement, then the authorize hand-off with the login held in memory (SPEC.md section 4).
 */
export function AdditionalTermsPage() {
  const [context] = useState(getLoginContext);
  const [documents] = useState(() => termsOf(context?.terms ?? []));
  const [agreed, setAgreed] = useState(false);

  const submit = useCallback(async (): Promise<ActionOutcome> => {
    // The hidden login fields must still be there (SPEC.md section 2).
    if (!agreed || !context?.id || !context.password) return;
    submitAuthorizeForm(context.authorize, { user_mail: context.id, user_pass: context.password, terms: context.terms });
    return 'leaving';
  }, [agreed, context]);
  const { pending, run } = usePendingAction(submit);

  if (!context) return <Navigate to="/" replace />;

  return (
    <>
      <h1>利用規約</h1>
      {documents.map((d) => (
        <div key={d.key} className={styles.term}>
          {/* An unknown key has no title: the key still names the box for assistive technology. */}
          <label htmlFor={`term-${d.key}`} className={d.title ? styles.title : styles.visuallyHidden}>
            {d.title || d.key}
          </label>
          <textarea id={`term-${d.key}`} className={styles.body} readOnly value={d.body} rows={6} />
        </div>
      ))}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <Checkbox id="agree" label="利用規約を確認、同意しました" hint="※チェック必須" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} required />
        <Button type="submit" disabled={!agreed} pending={pending}>
          同意する
        </Button>
      </form>
    </>
  );
}
