import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { activityLabel } from '@sso/contracts/account';
import { subuserStatusLabel } from '@sso/contracts/constants';
import { REVEALABLE_FIELDS, type MemberOverviewView, type RevealableFieldName } from '@sso/contracts/admin-members';
import { roleAllows } from '@sso/contracts/operators';
import { usePageTitle } from '../app/page-title.ts';
import { useOperator } from '../app/operator-context.ts';
import { adminCall, adminRoute, failureMessage, withFreshProof } from '../lib/api.ts';
import { FIELD_LABELS, japanTime, MEMBER_STATUS, MEMBER_TYPE, minutesLeft } from '../lib/format.ts';
import { Alert, Notice } from '../ui/field.tsx';
import { Table } from '../ui/table.tsx';
import { useFreshProof } from '../ui/use-fresh-proof.tsx';
import { useReason, type Reason } from '../ui/use-reason.tsx';

/** The member actions that take the member and a reason, by the catalogue key of each. */
type MemberActionKey =
  | 'POST /api/admin/members/unlock'
  | 'POST /api/admin/members/end-sessions'
  | 'POST /api/admin/members/password-reset'
  | 'POST /api/admin/members/suspend'
  | 'POST /api/admin/members/restore';

/**
 * A member's page (support): status and lock, personal data masked and revealed field by field (each
 * reveal audited), cards, passkeys, sessions and activity; the actions each ask a reason, and the
 * sensitive ones a fresh passkey proof (decision 0032).
 */
export function Member() {
  usePageTitle('会員情報');
  const { memberId = '' } = useParams();
  const operator = useOperator();
  const { prove, dialog: proofDialog } = useFreshProof();
  const { ask, dialog: reasonDialog } = useReason();
  const [member, setMember] = useState<MemberOverviewView>();
  const [revealed, setRevealed] = useState<Partial<Record<RevealableFieldName, string | null>>>({});
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setMember((await adminCall(adminRoute('POST /api/admin/members/view'), { member_id: memberId })).member);
    } catch (e) {
      setError(failureMessage(e));
    }
  }, [memberId]);
  useEffect(() => {
    void load();
  }, [load]);

  const reveal = async (field: RevealableFieldName) => {
    setError(undefined);
    try {
      const answer = await adminCall(adminRoute('POST /api/admin/members/reveal'), { member_id: memberId, field });
      setRevealed((r) => ({ ...r, [answer.field]: answer.value }));
    } catch (e) {
      setError(failureMessage(e));
    }
  };

  /** Asks why, runs the action (with a fresh proof when the server asks for one), says what happened and reloads the page. */
  const act = async (title: string, done: string, run: (why: Reason) => Promise<unknown>) => {
    const why = await ask(title);
    if (!why) return;
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await withFreshProof(() => run(why), prove);
      setDone(done);
      await load();
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const memberAction = (key: MemberActionKey, title: string, done: string) =>
    void act(title, done, (why) => adminCall(adminRoute(key), { member_id: memberId, ...why }));
  const removePasskey = (id: string, name: string) =>
    void act(`パスキー「${name}」の削除`, 'パスキーを削除しました。', (why) => adminCall(adminRoute('POST /api/admin/members/passkeys/remove'), { member_id: memberId, passkey_id: id, ...why }));

  const security = roleAllows(operator.role, 'security');
  return (
    <>
      <p>
        <Link to="/members">会員検索へ戻る</Link>
      </p>
      <h1>会員情報</h1>
      {error && <Alert>{error}</Alert>}
      {done && <Notice>{done}</Notice>}
      {member && (
        <>
          <section className="panel" aria-labelledby="status-title">
            <h2 id="status-title">状態</h2>
            <dl className="summary">
              <dt>会員ID</dt>
              <dd>{member.member_id}</dd>
              <dt>会員種別</dt>
              <dd>{MEMBER_TYPE[member.member_type]}</dd>
              <dt>状態</dt>
              <dd data-testid="member-status">
                {MEMBER_STATUS[member.status]}
                {member.lock.locked && `（ログイン失敗${member.lock.failures}回、解除まで${minutesLeft(member.lock.remaining_ms)}）`}
                {member.status === 'suspended' && `（${japanTime(member.suspended_at)}から）`}
              </dd>
              <dt>登録日時</dt>
              <dd>{japanTime(member.created_at)}</dd>
            </dl>
            <div className="actions">
              {member.lock.locked && (
                <button type="button" onClick={() => memberAction('POST /api/admin/members/unlock', 'ログインロックの解除', 'ログインロックを解除しました。')} disabled={busy}>
                  ロックを解除
                </button>
              )}
              <button type="button" className="secondary" onClick={() => memberAction('POST /api/admin/members/end-sessions', '全セッションの終了', 'すべてのセッションを終了しました。')} disabled={busy}>
                全セッションを終了
              </button>
              {member.status !== 'withdrawn' && member.status !== 'suspended' && (
                <button type="button" className="secondary" onClick={() => memberAction('POST /api/admin/members/password-reset', 'パスワード再設定メールの送信', 'パスワード再設定メールを送信しました。')} disabled={busy}>
                  パスワード再設定メールを送信
                </button>
              )}
              {security && member.status !== 'suspended' && member.status !== 'withdrawn' && (
                <button type="button" className="danger" onClick={() => memberAction('POST /api/admin/members/suspend', '会員の利用停止', '利用を停止しました。')} disabled={busy}>
                  利用停止
                </button>
              )}
              {security && member.status === 'suspended' && (
                <button type="button" onClick={() => memberAction('POST /api/admin/members/restore', '会員の利用再開', '利用を再開しました。')} disabled={busy}>
                  利用再開
                </button>
              )}
            </div>
          </section>

          <section className="panel" aria-labelledby="personal-title">
            <h2 id="personal-title">個人情報</h2>
            <p className="hint">表示した項目は監査ログに記録されます。</p>
            <dl className="summary">
              {REVEALABLE_FIELDS.map((field) => (
                <div key={field} className="pair">
                  <dt>{FIELD_LABELS[field]}</dt>
                  <dd>
                    {field in revealed ? (revealed[field] ?? '—') : (member.personal[field] ?? '—')}{' '}
                    {!(field in revealed) && member.personal[field] !== null && (
                      <button type="button" className="link" onClick={() => void reveal(field)} aria-label={`${FIELD_LABELS[field]}を表示`}>
                        表示
                      </button>
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </section>

          <Listing title="カード" empty="カードはありません。" head={['カード', 'カード番号', '状態', '登録日時']} rows={member.cards.map((c) => [c.card_name, c.card_number_mask, subuserStatusLabel(c.status), japanTime(c.created_at)])} />

          <section className="panel" aria-labelledby="passkeys-title">
            <h2 id="passkeys-title">パスキー</h2>
            {member.passkeys.length === 0 ? (
              <p>パスキーはありません。</p>
            ) : (
              <Table
                head={['名前', '登録日時', '最終利用', ...(security ? ['操作'] : [])]}
                rows={member.passkeys.map((p) => ({
                  key: p.id,
                  cells: [
                    p.name,
                    japanTime(p.created_at),
                    japanTime(p.last_used_at),
                    ...(security
                      ? [
                          <button type="button" className="danger" onClick={() => removePasskey(p.id, p.name)} disabled={busy} aria-label={`パスキー「${p.name}」を削除`}>
                            削除
                          </button>,
                        ]
                      : []),
                  ],
                }))}
              />
            )}
          </section>

          <Listing
            title="SSOセッション"
            empty="有効なセッションはありません。"
            head={['端末', 'IPアドレス', '開始', '最終利用', '最後のサービス']}
            rows={member.sso_sessions.map((s) => [s.device ?? '—', s.address ?? '—', japanTime(s.created_at), japanTime(s.last_used_at), s.last_client_id ?? '—'])}
          />
          <Listing
            title="連携サービスのセッション"
            empty="有効なセッションはありません。"
            head={['サービス', '端末', 'IPアドレス', '開始', '最終利用']}
            rows={member.partner_sessions.map((s) => [s.client_id, s.device ?? '—', s.address ?? '—', japanTime(s.created_at), japanTime(s.last_used_at)])}
          />
          <Listing
            title="ログイン・操作履歴"
            empty="ログイン・操作履歴はありません。"
            head={['日時', 'できごと', 'サービス', '端末', 'IPアドレス']}
            rows={member.activities.map((a) => [japanTime(a.created_at), activityLabel(a.event), a.client_id ?? '—', a.device ?? '—', a.address ?? '—'])}
          />
        </>
      )}
      {reasonDialog}
      {proofDialog}
    </>
  );
}

/** A titled table of rows of text, or a sentence when there are none. */
function Listing({ title, empty, head, rows }: { title: string; empty: string; head: string[]; rows: string[][] }) {
  const id = `list-${title}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <Table head={head} rows={rows.map((cells, i) => ({ key: String(i), cells }))} />
      )}
    </section>
  );
}
