import { useState } from 'react';
import { AUDIT_ACTIONS, auditExportRequestSchema, auditReadRequestSchema, type AuditRecordView } from '@sso/contracts/admin-members';
import { usePageTitle } from '../app/page-title.ts';
import { adminCall, adminLines, adminRoute, failureMessage } from '../lib/api.ts';
import { auditFilter, type AuditFilterInput } from '../lib/audit-filter.ts';
import { auditActionLabel, japanTime } from '../lib/format.ts';
import { roleLabel } from '../lib/roles.ts';
import { Alert, Field, Notice } from '../ui/field.tsx';

const EMPTY: AuditFilterInput = { operator_id: '', member_id: '', client_id: '', action: '', from: '', to: '' };
const PAGE = 50;

/** The operators' audit log (security): filters, a page at a time, and the export as JSON Lines for the SIEM. */
export function Audit() {
  usePageTitle('監査ログ');
  const [input, setInput] = useState<AuditFilterInput>(EMPTY);
  const [records, setRecords] = useState<AuditRecordView[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [exported, setExported] = useState<string>();
  const [busy, setBusy] = useState(false);

  const set = (key: keyof AuditFilterInput) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setInput((i) => ({ ...i, [key]: e.target.value }));

  const read = async (cursor?: string) => {
    const request = auditReadRequestSchema.safeParse({ ...auditFilter(input), limit: PAGE, ...(cursor ? { cursor } : {}) });
    if (!request.success) {
      setError(request.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const page = await adminCall(adminRoute('POST /api/admin/audit'), request.data);
      setRecords((r) => (cursor && r ? [...r, ...page.records] : page.records));
      setNext(page.next);
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const exportLines = async () => {
    const request = auditExportRequestSchema.safeParse(auditFilter(input));
    if (!request.success) {
      setError(request.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    setExported(undefined);
    try {
      const { text, rows } = await adminLines(adminRoute('POST /api/admin/audit/export'), request.data);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
      link.download = `audit-${new Date().toISOString().slice(0, 10)}.jsonl`;
      link.click();
      URL.revokeObjectURL(link.href);
      setExported(`${rows.length}件をJSON Lines形式で書き出しました。`);
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>監査ログ</h1>
      <section className="panel">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void read();
          }}
          noValidate
        >
          {error && <Alert>{error}</Alert>}
          {exported && <Notice>{exported}</Notice>}
          <Field id="audit-operator" label="オペレーターID" value={input.operator_id} onChange={set('operator_id')} autoComplete="off" />
          <Field id="audit-member" label="会員ID" value={input.member_id} onChange={set('member_id')} autoComplete="off" />
          <Field id="audit-client" label="クライアントID" value={input.client_id} onChange={set('client_id')} autoComplete="off" />
          <div className="field">
            <label htmlFor="audit-action">操作</label>
            <select id="audit-action" name="audit-action" value={input.action} onChange={set('action')}>
              <option value="">すべて</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {auditActionLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <Field id="audit-from" label="開始日（この日を含む）" type="date" value={input.from} onChange={set('from')} />
          <Field id="audit-to" label="終了日（この日を含む）" type="date" value={input.to} onChange={set('to')} />
          <div className="actions">
            <button type="submit" disabled={busy}>
              検索
            </button>
            <button type="button" className="secondary" onClick={() => void exportLines()} disabled={busy}>
              JSON Linesで書き出す
            </button>
          </div>
        </form>
      </section>
      {records && (
        <section className="panel" aria-labelledby="audit-results">
          <h2 id="audit-results">記録（{records.length}件）</h2>
          {records.length === 0 ? (
            <p>該当する記録はありません。</p>
          ) : (
            <div className="table-wrap">
              <table className="stack">
                <thead>
                  <tr>
                    <th scope="col">日時</th>
                    <th scope="col">オペレーター</th>
                    <th scope="col">操作</th>
                    <th scope="col">対象</th>
                    <th scope="col">理由</th>
                    <th scope="col">IPアドレス</th>
                  </tr>
                </thead>
                <tbody>
                  {records.map((r) => (
                    <tr key={r.id}>
                      <td data-label="日時">{japanTime(r.at)}</td>
                      <td data-label="オペレーター">
                        {r.operator_name ?? r.operator_id}（{roleLabel(r.operator_role)}）
                      </td>
                      <td data-label="操作">{auditActionLabel(r.action)}</td>
                      <td data-label="対象">{r.member_id ?? r.client_id ?? '—'}</td>
                      <td data-label="理由">
                        {r.reason ?? '—'}
                        {r.ticket && `（${r.ticket}）`}
                      </td>
                      <td data-label="IPアドレス">{r.address ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {next && (
            <div className="actions">
              <button type="button" className="secondary" onClick={() => void read(next)} disabled={busy}>
                さらに読み込む
              </button>
            </div>
          )}
        </section>
      )}
    </>
  );
}
