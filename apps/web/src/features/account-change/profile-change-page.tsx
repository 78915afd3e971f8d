import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { ProfileResponse } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../../lib/failure-view.ts';
import { useCommitAction } from '../../lib/use-member-form.ts';
import { newsletterRow, personalRows } from '../../lib/profile-summary.ts';
import { ApiFailure } from '../../lib/result.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { SummaryList } from '../../ui/summary-list.tsx';
import { useDelayed } from '../../ui/use-delayed.ts';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { changeProfile, fetchProfile, type ProfileFields } from './account-change-api.ts';
import { readonlyInputs, useProfileForm } from './profile-form.ts';
import { ProfileInputs } from './profile-inputs.tsx';

/** The confirm mode is a history entry of its own, so that the browser's back button returns to the input. */
interface ModeState {
  mode?: 'confirm';
}

/**
 * Profile change (SPEC.md sections 2 and 3), open members only: loads the profile; a card
 * member's 300 goes to Top. Then the editor.
 */
export function ProfileChangePage() {
  const navigate = useNavigate();
  const [message, setMessage] = useState<string>();
  // Loaded once a visit: never a cached profile (after a change the next visit shows the stored
  // one), and no refetch while the member edits.
  const query = useQuery({
    queryKey: ['profile'],
    queryFn: ({ signal }) => fetchProfile(signal),
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // The loading text shows only if loading lasts over 100 ms (SPEC.md section 9).
  const showLoading = useDelayed(query.isPending || undefined, LIMITS.loadingTextDelayMs);

  useEffect(() => {
    const e = query.error;
    // A 401 whose refresh failed has already gone to the error flow in the API client.
    if (!e || (e instanceof ApiFailure && e.status === 401)) return;
    if (e instanceof ApiFailure && e.result.result_code === RESULT.ACCESS_DENIED) void navigate('/top', { replace: true });
    else showFailure(e, { setMessage });
  }, [query.error, navigate]);

  if (query.isSuccess) return <ProfileEditor profile={query.data} />;
  return (
    <>
      <h1>プロフィール変更</h1>
      {query.isPending && showLoading && <p>{TEXTS.loading}</p>}
      {query.isError && <Alert message={message ?? TEXTS.loadFailed} />}
    </>
  );
}

/**
 * The input and confirm modes, like the open sign-up's: "確認する" validates on the server
 * (dry_run 1) and shows the confirm mode; "変更する" changes (dry_run 0) and goes to the finish page;
 * "修正する" goes back to the input with the values kept. The confirm mode shows only values the
 * server checked; otherwise (a reload) it goes back to the input.
 */
function ProfileEditor({ profile }: { profile: ProfileResponse }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [readonly] = useState(() => readonlyInputs(profile.readonly));
  const [checked, setChecked] = useState<ProfileFields>();
  const confirming = (location.state as ModeState | null)?.mode === 'confirm';

  // A mode change keeps the path: scroll to the top as a page change does (SPEC.md section 2).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [confirming]);

  const backToInput = useCallback(() => void navigate(-1), [navigate]);

  const check = useCallback(
    async (values: ProfileFields): Promise<ActionOutcome> => {
      await changeProfile(values, 1);
      setChecked(values);
      void navigate(location.pathname, { state: { mode: 'confirm' } satisfies ModeState });
    },
    [navigate, location.pathname],
  );
  const { form, message, setMessage, view, pending: checking, onSubmit } = useProfileForm(profile, check);

  const change = useCallback(
    async (values: ProfileFields): Promise<ActionOutcome> => {
      await changeProfile(values, 0);
      void navigate('/user/profile/done', { replace: true });
      return 'leaving';
    },
    [navigate],
  );
  const { pending: changing, run: runChange } = useCommitAction(view, change, backToInput);

  if (confirming && !checked) return <Navigate to={location.pathname} replace />;

  if (confirming && checked) {
    return (
      <>
        <h1>プロフィール変更</h1>
        <p className={page.lead}>以下の内容に変更します。よろしければ「変更する」を押してください。</p>
        <SummaryList rows={[...personalRows(checked), newsletterRow(checked)]} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="button" pending={changing} onClick={() => void runChange(checked)}>
            変更する
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={changing}
            onClick={() => {
              setMessage(undefined);
              backToInput();
            }}
          >
            修正する
          </Button>
        </div>
      </>
    );
  }

  return (
    <ProfileInputs
      form={form}
      readonly={readonly}
      message={message}
      pending={checking}
      onSubmit={onSubmit}
    />
  );
}
