import { useEffect, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import type { OperatorView } from '@sso/contracts/operators';
import { adminCall, adminRoute, failureMessage, SessionEnded } from '../lib/api.ts';
import { ROLE_LABELS, sectionsFor } from '../lib/roles.ts';
import { operatorToken } from '../lib/token-store.ts';
import { Alert } from '../ui/field.tsx';
import { OperatorContext } from './operator-context.ts';
import { SECTIONS } from './sections.ts';

/**
 * The signed-in console: the operator's name and role, the sections their role reaches, and logout.
 * Without a live operator token (none kept, or the server answers 401) it goes to the sign-in.
 */
export function Layout() {
  const navigate = useNavigate();
  const [operator, setOperator] = useState<OperatorView>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (operatorToken.get() === undefined) {
      void navigate('/login', { replace: true });
      return;
    }
    const abort = new AbortController();
    adminCall(adminRoute('POST /api/admin/me'), undefined, { signal: abort.signal })
      .then((me) => setOperator(me.operator))
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        if (e instanceof SessionEnded) void navigate('/login', { replace: true });
        else setError(failureMessage(e));
      });
    return () => abort.abort();
  }, [navigate]);

  const logout = async () => {
    try {
      await adminCall(adminRoute('POST /api/admin/logout'), undefined);
    } catch {
      // The token is forgotten here whatever the server answered; it dies there at its idle limit.
    }
    operatorToken.clear();
    void navigate('/login', { replace: true });
  };

  if (error) {
    return (
      <main className="main">
        <Alert>{error}</Alert>
      </main>
    );
  }
  if (!operator) return <p className="main">読み込み中…</p>;
  return (
    <OperatorContext.Provider value={operator}>
      <header className="header">
        <span className="brand">メンバーID 運用コンソール</span>
        <span className="who" data-testid="operator">
          {operator.display_name}（{ROLE_LABELS[operator.role]}）
        </span>
        <button type="button" className="secondary" onClick={() => void logout()}>
          ログアウト
        </button>
      </header>
      <nav className="nav" aria-label="メニュー">
        <NavLink to="/" end>
          ホーム
        </NavLink>
        {sectionsFor(operator.role, SECTIONS).map((s) => (
          <NavLink key={s.path} to={s.path}>
            {s.label}
          </NavLink>
        ))}
      </nav>
      <main className="main">
        <Outlet />
      </main>
    </OperatorContext.Provider>
  );
}
