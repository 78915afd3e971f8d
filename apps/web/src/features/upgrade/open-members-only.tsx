import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useIsOpenMemberQuery } from '../../lib/is-open-member.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import { Steps } from '../../ui/steps.tsx';
import { OPEN_CARD_STEPS } from './upgrade-steps.ts';

/**
 * The start of an open member's card (docs/decisions/0016) under its heading, its first step: a
 * card member adds cards on the all-cards list instead, and goes there.
 */
export function OpenMembersOnly({ title, children }: { title: string; children: ReactNode }) {
  const isOpen = useIsOpenMemberQuery();
  if (isOpen.data === false) return <Navigate to="/subusers/all" replace />;
  return (
    <>
      <h1>{title}</h1>
      <Steps labels={OPEN_CARD_STEPS} current={1} />
      <LoadStatus loading={isOpen.isPending} error={isOpen.error} />
      {isOpen.data === true && children}
    </>
  );
}
