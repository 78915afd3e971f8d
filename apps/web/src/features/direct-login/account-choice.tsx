import type { AccountRecord } from '../../lib/records.ts';
import { Button } from '../../ui/button.tsx';
import { SummaryList } from '../../ui/summary-list.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';

interface AccountChoiceProps {
  /** The account this browser is logged in to now. */
  current: AccountRecord;
  /** The account the direct login is for. */
  handOff: AccountRecord;
  onSwitch: () => Promise<ActionOutcome>;
  onStay: () => Promise<ActionOutcome>;
}

/**
 * A direct login never silently replaces another member's login in this browser (decision 0013):
 * both accounts are named, and the member chooses which one goes on.
 */
export function AccountChoice({ current, handOff, onSwitch, onStay }: AccountChoiceProps) {
  // One pending action for both buttons (SPEC.md section 4, "Buttons"): each choice revokes one of
  // the two logins, so two clicks in one frame must not run both.
  const { pending, run } = usePendingAction((choice: 'switch' | 'stay') => (choice === 'switch' ? onSwitch() : onStay()));
  return (
    <>
      <h1>ログインするアカウントの確認</h1>
      <p className={page.lead}>このブラウザでは、別のアカウントでログインしています。どちらのアカウントで続けるかお選びください。</p>
      <SummaryList
        rows={[
          { label: '現在ログイン中のアカウント', value: current.email },
          { label: 'ログイン連携のアカウント', value: handOff.email },
        ]}
      />
      <p className={page.lead}>切り替えると、現在のアカウントはこのブラウザからログアウトします。</p>
      <div className={page.actions}>
        <Button type="button" pending={pending} onClick={() => void run('switch')}>
          ログイン連携のアカウントに切り替える
        </Button>
        <Button type="button" variant="secondary" pending={pending} onClick={() => void run('stay')}>
          現在のアカウントのまま続ける
        </Button>
      </div>
    </>
  );
}
