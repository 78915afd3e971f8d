import { useState } from 'react';
import { Link } from 'react-router';
import { isLoggedIn, takeEphemeralMessage } from '../../lib/records.ts';
import { buttonClass } from '../../ui/button.tsx';

interface ErrorPageProps {
  title: string;
  message: string;
  detail?: string;
}

/** Error pages (SPEC.md section 2): a message and a button to login or home. */
export function ErrorPage({ title, message, detail }: ErrorPageProps) {
  const [ephemeral] = useState(() => takeEphemeralMessage());
  const loggedIn = isLoggedIn();
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">{ephemeral ?? message}</p>
      {detail && <p>{detail}</p>}
      <Link to={loggedIn ? '/top' : '/'} className={buttonClass()}>
        {loggedIn ? 'トップへ' : 'ログインへ'}
      </Link>
    </>
  );
}
