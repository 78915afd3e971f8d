import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { useMailLinkAction } from '../lib/use-mail-link-action.ts';
import { Alert } from './alert.tsx';
import { Button, buttonClass } from './button.tsx';
import page from './page.module.css';

export interface MailLinkPageProps<A> {
  title: string;
  /** Posts the link's token (public): the server ends every session of the member. */
  post: (token: string) => Promise<A>;
  /** What the page says before anything is done. */
  children: ReactNode;
  button: string;
  /** What it says once done, or what it says of the server's answer. */
  done: string | ((answer: A) => string);
  /** The way on, to Welcome, once done or refused. */
  onward: string;
}

/**
 * The page of a mail's link that ends every session of the member (the "passkey added" mail's,
 * decision 0024; every notice mail's "not me", decision 0033): what it will do and its button; once
 * done, the status and the way on; a link that expired or was used (902), the server's message and
 * the way on, and nothing of the member. Without a token it goes to Welcome, as /recover/password
 * does (SPEC.md section 2).
 */
export function MailLinkPage<A>({ title, post, children, button, done, onward }: MailLinkPageProps<A>) {
  const { token, result, answer, message, pending, run } = useMailLinkAction(post);
  if (!token) return <Navigate to="/" replace />;
  const onwardLink = (
    <Link to="/" className={buttonClass()}>
      {onward}
    </Link>
  );
  return (
    <>
      <h1>{title}</h1>
      {result === 'done' ? (
        <>
          <p role="status" className={page.lead}>
            {typeof done === 'string' ? done : done(answer as A)}
          </p>
          {onwardLink}
        </>
      ) : result === 'linkInvalid' ? (
        <>
          <Alert message={message} />
          {onwardLink}
        </>
      ) : (
        <>
          {children}
          <Alert message={message} />
          <Button type="button" pending={pending} onClick={() => void run()}>
            {button}
          </Button>
        </>
      )}
    </>
  );
}
