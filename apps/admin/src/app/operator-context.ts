import { createContext, useContext } from 'react';
import type { OperatorView } from '@sso/contracts/operators';

/** The signed-in operator, as POST /api/admin/me answered: the layout provides it to every screen. */
export const OperatorContext = createContext<OperatorView | undefined>(undefined);

export function useOperator(): OperatorView {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error('useOperator outside the signed-in layout');
  return operator;
}
