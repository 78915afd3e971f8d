import { Link } from 'react-router';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';

interface ReloginDoneProps {
  title: string;
  /** What was changed, in a sentence. */
  done: string;
  /** What to log in with from now on. */
  relogin: string;
}

/**
 * The finish of a change that ended every session of the member (issue 5: e-mail and password
 * change revoke the tokens): the change, the request to log in again, and a button to log in.
 */
function ReloginDone({ title, done, relogin }: ReloginDoneProps) {
  return (
    <>
      <h1>{title}</h1>
      <p className={page.lead}>{done}</p>
      <p className={page.lead}>{relogin}</p>
      <Link to="/" className={buttonClass()}>
        ログインする
      </Link>
    </>
  );
}

export const EmailChangeDonePage = () => (
  <ReloginDone title="メールアドレス変更完了" done="メールアドレスを変更しました。" relogin="新しいメールアドレスで再度ログインしてください。" />
);

export const PasswordChangeDonePage = () => (
  <ReloginDone title="パスワード変更完了" done="パスワードを変更しました。" relogin="新しいパスワードで再度ログインしてください。" />
);
