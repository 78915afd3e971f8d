import { useCallback, useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { isPortalClient } from '@sso/contracts/client-origin';
import { LIMITS } from '@sso/contracts/constants';
import { RESULT } from '@sso/contracts/result-codes';
import { ApiFailure } from '../../lib/api-client.ts';
import { fetchCards } from '../../lib/cards-query.ts';
import { showFailure } from '../../lib/failure-view.ts';
import { goToCardholdersOnly } from '../../lib/navigation.ts';
import { watchCustomScheme } from '../../lib/hand-off.ts';
import { openPortal } from '../../lib/portal-hand-back.ts';
import { getSession } from '../../lib/records.ts';
import { Alert } from '../../ui/alert.tsx';
import { useDelayed } from '../../ui/use-delayed.ts';
import { outstandingTermsOf, serviceUrl } from './direct-login-api.ts';
import { serviceTarget } from './hand-off-params.ts';
import { PortalConsentStep } from './portal-consent-step.tsx';
import { ServiceTermsStep } from './service-terms-step.tsx';
import { TopLink } from './top-link.tsx';

/**
 * Redirect to a partner service (SPEC.md sections 2 and 4; decisions 0006 and 0013): the service
 * named by the query or the session's state gets a one-time token for the member (and their first
 * active card), the token's hand-off URL is asked for, and the member leaves for it. A service whose
 * terms the member has not accepted shows them first. A portal app's token is bound to the PKCE
 * challenge of the app that asked, and it is asked for only once the member says go
 * (PortalConsentStep); a portal app that gave none is opened without a token (its resume URI). A
 * portal app's URL is its custom scheme: if the app has not opened after the grace
 * period, /problem/busy (C99-000600).
 */
export function ServiceRedirectPage() {
  const [search] = useSearchParams();
  const [target] = useState(() => serviceTarget(search, getSession().redirectState));
  const [message, setMessage] = useState<string>();
  const [terms, setTerms] = useState<string[]>();
  // Each attempt asks for a token again: the first, and one after the terms are accepted.
  const [attempt, setAttempt] = useState(0);
  // A challenge that came in the address waits for the member's go-ahead (decision 0013).
  const [confirmed, setConfirmed] = useState(() => !target?.proof);
  const showWaiting = useDelayed(message === undefined && terms === undefined ? true : undefined, LIMITS.loadingTextDelayMs);

  useEffect(() => {
    if (!target || !confirmed) return;
    if (isPortalClient(target.clientId) && !target.proof) return openPortal(target.clientId);
    const controller = new AbortController();
    let stopWatching: () => void = () => undefined;
    (async () => {
      const card = (await fetchCards(controller.signal)).find((c) => c.status === 'active');
      // A second effect run (StrictMode) or a page left while the cards loaded asks for no token.
      if (controller.signal.aborted) return;
      const url = await serviceUrl(target.clientId, card, target.proof);
      if (controller.signal.aborted) return;
      globalThis.location.assign(url);
      stopWatching = watchCustomScheme(url);
    })().catch((e: unknown) => {
      if (controller.signal.aborted) return;
      const outstanding = outstandingTermsOf(e);
      if (outstanding) setTerms(outstanding);
      else if (e instanceof ApiFailure && e.status === 400 && e.result.result_code === RESULT.ACCESS_DENIED) {
        // A cardholders-only service and a member without a card (SPEC.md section 6): the page that says so and the way on.
        goToCardholdersOnly(e.result.result_message);
      } else showFailure(e, { setMessage });
    });
    return () => {
      controller.abort();
      stopWatching();
    };
  }, [target, attempt, confirmed]);

  const retry = useCallback(async () => {
    setTerms(undefined);
    setAttempt((n) => n + 1);
  }, []);

  if (!target) return <Navigate to="/404" replace />;
  const name = target.serviceName || 'サービス';
  return (
    <>
      <h1>{name}へ移動</h1>
      {!confirmed ? (
        <PortalConsentStep name={name} onConfirm={() => setConfirmed(true)} />
      ) : terms ? (
        <ServiceTermsStep clientId={target.clientId} terms={terms} onAccepted={retry} />
      ) : message === undefined ? (
        showWaiting && <p role="status">「{name}」へ移動しています。画面が切り替わるまでお待ちください。</p>
      ) : (
        <>
          <Alert message={message} />
          <TopLink />
        </>
      )}
    </>
  );
}
