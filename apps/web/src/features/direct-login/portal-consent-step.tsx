import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { TopLink } from './top-link.tsx';

/**
 * The member's own go-ahead before a portal app is handed a logged-in session whose proof came in
 * the page's address (decision 0013). Any app can open this page with a challenge of its own, and an
 * app that registers the same custom URL scheme would then redeem the token with its verifier: the
 * challenge proves who redeems, not who asked. So the hand-off never runs by itself (RFC 8252
 * section 8.6: no automatic processing when the client's identity cannot be assured).
 */
export function PortalConsentStep({ name, onConfirm }: { name: string; onConfirm: () => void }) {
  return (
    <>
      <p className={page.lead}>
        ログインした状態で「{name}」へ移動します。「{name}」から移動を始めた覚えがない場合は、移動せずにトップへお戻りください。
      </p>
      <div className={page.actions}>
        <Button type="button" onClick={onConfirm}>
          「{name}」へ移動する
        </Button>
      </div>
      <TopLink />
    </>
  );
}
