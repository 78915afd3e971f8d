import { usePageTitle } from '../app/page-title.ts';
import { useOperator } from '../app/operator-context.ts';
import { ROLE_LABELS } from '../lib/roles.ts';

/** The console's first page after the sign-in. */
export function Home() {
  usePageTitle('ホーム');
  const operator = useOperator();
  return (
    <>
      <h1>ホーム</h1>
      <section className="panel">
        <dl className="summary">
          <dt>氏名</dt>
          <dd>{operator.display_name}</dd>
          <dt>メールアドレス</dt>
          <dd>{operator.email}</dd>
          <dt>権限</dt>
          <dd>{ROLE_LABELS[operator.role]}</dd>
        </dl>
      </section>
      <p className="hint">操作のたびにセッションが延長されます。15分間操作がないとき、またはログインから8時間でログアウトします。</p>
    </>
  );
}
