import { OPERATOR_ROLES, roleAllows, type OperatorRole } from '@sso/contracts/operators';

/** The roles in the console's Japanese (decision 0032: support < security < admin). */
export const ROLE_LABELS: Record<OperatorRole, string> = {
  support: 'サポート',
  security: 'セキュリティ',
  admin: '管理者',
};

/** A screen of the console and the least role that may open it: the role its API routes declare in the catalogue. */
export interface ConsoleSection {
  path: string;
  label: string;
  role: OperatorRole;
}

/** The sections an operator of `role` sees in the navigation: only those whose API would answer them. */
export const sectionsFor = (role: OperatorRole, sections: readonly ConsoleSection[]): ConsoleSection[] => sections.filter((s) => roleAllows(role, s.role));

/** A role as the audit log names it, in Japanese when it is one of the roles (the host's command is `host`). */
export function roleLabel(role: string): string {
  const known = OPERATOR_ROLES.find((r) => r === role);
  return known === undefined ? role : ROLE_LABELS[known];
}
