import { useState } from 'react';
import { Navigate } from 'react-router';
import { termDocument } from '@sso/contracts/terms';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { submitAuthorizeForm } from './hand-off.ts';
import { getLoginContext } from './login-context.ts';
import styles from './terms.module.css';

/** Additional terms (SPEC.md section 2, "Terms agreement"): the terms the login answer listed. */
export function AdditionalTermsPage() {
  const context = getLoginContext();
  const [agreed, setAgreed] = useState(false);
  const [pending, setPending] = useState(false);
  if (!context) return <Navigate to="/" replace />;

  const documents = context.terms.map((key) => {
    const doc = termDocument(key);
    if (!doc) console.warn(`unknown term key: ${key}`);
    return { key, title: doc?.title ?? '', body: doc?.body ?? '' };
  });

  const onSubmit = () => {
    if (!agreed || pending) return;
    setPending(true);
    submitAuthorizeForm(context.authorize, { user_mail: context.id, user_pass: context.password, terms: context.terms });
  };

  return (
    <>
      <h1>利用規約</h1>
      {documents.map((d) => (
        <section key={d.key} className={styles.term}>
          <h2 className={styles.title}>{d.title}</h2>
          <label className={styles.visuallyHidden} htmlFor={`term-${d.key}`}>
            {d.title || d.key}
          </label>
          <textarea id={`term-${d.key}`} className={styles.body} readOnly value={d.body} rows={6} />
        </section>
      ))}
      <Checkbox id="agree" label="利用規約を確認、同意しました" hint="※チェック必須" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} required />
      <Button type="button" onClick={onSubmit} disabled={!agreed} pending={pending}>
        同意する
      </Button>
    </>
  );
}
