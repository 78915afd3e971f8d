import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Subuser } from '@sso/contracts/cards';
import { CLIENT_IDS, LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { RESULT } from '@sso/contracts/result-codes';
import { fetchCards } from '../../lib/cards-query.ts';
import { showFailure } from '../../lib/failure-view.ts';
import { toResult } from '../../lib/result.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { useDelayed } from '../../ui/use-delayed.ts';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { netAnswerUrl, outstandingTermsOf } from './direct-login-api.ts';
import { NetAnswerLinkForm } from './netanswer-link-form.tsx';
import { ServiceTermsStep } from './service-terms-step.tsx';
import styles from './hand-off.module.css';
import { TopLink } from './top-link.tsx';

type Stage =
  | { kind: 'loading' }
  | { kind: 'pick'; cards: Subuser[] }
  | { kind: 'link'; card: Subuser }
  | { kind: 'terms'; card: Subuser; terms: string[] }
  | { kind: 'none' }
  | { kind: 'leaving' };

/** Net Answer's own deep-link parameters, passed through when the link to this screen carries them. */
const deepLink = (search: URLSearchParams) => [search.get('param1') ?? '', search.get('param2') ?? ''] as const;

/**
 * Redirect to Net Answer (SPEC.md sections 2 and 7; decision 0006): the member's active cards; one
 * goes straight on, several are picked from. Net Answer's one-time URL is asked for the card
 * (/api/subuser/direct_login/na); a card without a linked Net Answer id (902 netAnswerRequired)
 * first gets the id and password, then the hand-off is tried again; so does a member who has not
 * accepted Net Answer's terms, after accepting them (decision 0013).
 */
export function NetAnswerRedirectPage() {
  const [search] = useSearchParams();
  const [param1, param2] = deepLink(search);
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [message, setMessage] = useState<string>();
  const showWaiting = useDelayed(stage.kind === 'loading' || stage.kind === 'leaving' ? stage.kind : undefined, LIMITS.loadingTextDelayMs);

  const handOff = useCallback(
    async (card: Subuser): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        const url = await netAnswerUrl(card, param1, param2);
        setStage({ kind: 'leaving' });
        globalThis.location.assign(url);
        return 'leaving';
      } catch (e) {
        const r = toResult(e);
        const terms = outstandingTermsOf(e);
        if (terms) setStage({ kind: 'terms', card, terms });
        else if (r.result_code === RESULT.RETRYABLE && r.result_message === CARD_MESSAGES.netAnswerRequired) setStage({ kind: 'link', card });
        else {
          // A failure of the one card's hand-off leaves nothing to wait for; a picked card's leaves the list.
          setStage((s) => (s.kind === 'pick' ? s : { kind: 'none' }));
          showFailure(e, { setMessage });
        }
      }
    },
    [param1, param2],
  );
  const { pending, run } = usePendingAction(handOff);

  useEffect(() => {
    const controller = new AbortController();
    fetchCards(controller.signal).then(
      (cards) => {
        if (controller.signal.aborted) return;
        const active = cards.filter((c) => c.status === 'active');
        if (active.length === 1) void run(active[0]!);
        setStage(active.length === 0 ? { kind: 'none' } : active.length === 1 ? { kind: 'loading' } : { kind: 'pick', cards: active });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setStage({ kind: 'none' });
        showFailure(e, { setMessage });
      },
    );
    return () => controller.abort();
  }, [run]);

  return (
    <>
      <h1>Net Answer</h1>
      {showWaiting === 'loading' && <p role="status">{TEXTS.loading}</p>}
      {showWaiting === 'leaving' && <p role="status">Net Answerへ移動しています。</p>}
      {stage.kind === 'pick' && (
        <>
          <p className={page.lead}>Net Answerでご確認になるカードを選んでください。</p>
          <ul className={styles.choices}>
            {stage.cards.map((card) => (
              <li key={card.subuser_id}>
                <Button type="button" variant="secondary" pending={pending} onClick={() => void run(card)}>
                  {card.card_name}（{card.card_number_mask}）
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      {stage.kind === 'link' && <NetAnswerLinkForm card={stage.card} onLinked={() => handOff(stage.card)} />}
      {stage.kind === 'terms' && <ServiceTermsStep clientId={CLIENT_IDS.netAnswer} terms={stage.terms} onAccepted={() => handOff(stage.card)} />}
      {stage.kind === 'none' && !message && <p className={page.lead}>Net Answerをご利用いただけるカードがありません。</p>}
      <Alert message={message} />
      {(stage.kind === 'none' || stage.kind === 'pick') && <TopLink />}
    </>
  );
}
