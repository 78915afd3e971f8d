import { TopButton } from '../../ui/back-to-top.tsx';
import page from '../../ui/page.module.css';

/** Profile change, finished (SPEC.md section 2, /user/profile/done): the member stays logged in and goes back to Top. */
export function ProfileChangeDonePage() {
  return (
    <>
      <h1>プロフィール変更完了</h1>
      <p className={page.lead}>プロフィールを変更しました。</p>
      <TopButton variant="primary" />
    </>
  );
}
