import { NOT_ME_SCREEN_TEXTS as T } from '@sso/contracts/not-me-screen';
import { MailLinkPage } from '../../ui/mail-link-page.tsx';
import page from '../../ui/page.module.css';
import { reportNotMe } from './not-me-api.ts';

/**
 * The "not me" link of a notice mail (/not-me?token=…, docs/decisions/0033-not-me-link.md): what
 * will happen, then 「すべての端末でログアウトする」. Opening the page does nothing. Done, every
 * session of the member has ended, this browser's too, and a reset mail is on its way, or, where the
 * link's address is no longer the member's, the page sends the member to the support desk.
 */
export function NotMePage() {
  return (
    <MailLinkPage title={T.title} post={reportNotMe} button={T.button} done={(answer) => (answer.reset_mailed ? T.done : T.doneAddressChanged)} onward="トップへ戻る">
      <p className={page.lead}>{T.lead}</p>
      <ol>
        {T.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className={page.lead}>{T.hint}</p>
    </MailLinkPage>
  );
}
