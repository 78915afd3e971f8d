import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { Steps } from '../../ui/steps.tsx';
import { EMAIL_CHANGE_STEPS } from './email-change-steps.ts';

interface ReloginDoneProps {
  title: string;
  /** What was changed, in a sentence. */
  done: string;
  /** What to log in with from now on. */
  relogin: string;
  /** The step indicator of the flow this page finishes, under the heading. */
  steps?: ReactNode;
}

/**
 * The finish of a change that ended every session of the member (e-mail and password
 * change revoke the tokens): the change, the request to log in again, and a button to log in.
 */
function ReloginDone({ title, done, relogin, steps }: ReloginDoneProps) {
  return (
    <>
      <h1>{title}</h1>
      {steps}
      <p className={page.lead}>{done}</p>
      <p className={page.lead}>{relogin}</p>
      <Link to="/" className={buttonClass()}>
        ログインする
      </Link>
    </>
  );
}

export const EmailChangeDonePage = () => (
  <ReloginDone
    title="メールアドレス変更完了"
    done="メールアドレスを変更しました。"
    relogin="新しいメールアドレスで再度ログインしてください。"
    steps={<Steps labels={EMAIL_CHANGE_STEPS} current={3} />}
  />
);

export const PasswordChangeDonePage = () => (
  <ReloginDone title="パスワード変更完了" done="パスワードを変更しました。" relogin="新しいパスワードで再度ログインしてください。" />
);
