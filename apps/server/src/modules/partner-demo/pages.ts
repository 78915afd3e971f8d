import { escapeHtml } from '../../lib/html.ts';

/** One row of a page's list: a label and a value, both escaped when rendered. */
export type Row = [label: string, value: string];

export const STYLESHEET_PATH = '/dev/partner/demo.css';

/**
 * The demo pages' stylesheet, served from this origin: the strict CSP (http/security-headers.ts)
 * allows no inline style or script, and the pages need neither.
 */
export const STYLESHEET = `body{margin:0;font-family:system-ui,"Hiragino Sans","Noto Sans JP",sans-serif;font-size:16px;line-height:1.6;color:#1a1a1a;background:#f4f5f7}
main{max-width:700px;margin:0 auto;padding:24px 16px;background:#fff;min-height:100vh;box-sizing:border-box}
.badge{display:inline-block;margin:0 0 8px;padding:2px 8px;border:1px solid #8a5a00;border-radius:4px;color:#6b4500;background:#fff7e0;font-size:14px}
h1{font-size:22px;margin:0 0 16px}
h2{font-size:18px;margin:24px 0 12px;padding-bottom:6px;border-bottom:1px solid #d0d4da}
dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 16px;margin:0}
dt{font-weight:700}
dd{margin:0;overflow-wrap:anywhere}
.ok{color:#0b6b2e;font-weight:700}
.ng{color:#b00020;font-weight:700}
@media (max-width:767px){dl{grid-template-columns:1fr}dd{margin-bottom:8px}}`;

export interface DemoPage {
  /** Whose page it is: the partner service's or Net Answer's name. */
  service: string;
  heading: string;
  ok: boolean;
  lead: string;
  rows: Row[];
}

const list = (rows: Row[]) =>
  rows.length === 0 ? '<p>ありません。</p>' : `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;

/** A development page of a partner service or of Net Answer (decision 0006): it says what it received, escaped. */
export function renderDemoPage(p: DemoPage): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${p.heading}｜${p.service}（開発用）`)}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="${STYLESHEET_PATH}"></head>
<body><main>
<p class="badge">開発用デモページ：${escapeHtml(p.service)}</p>
<h1>${escapeHtml(p.heading)}</h1>
<p class="${p.ok ? 'ok' : 'ng'}">${escapeHtml(p.lead)}</p>
<h2>受け取った内容</h2>
${list(p.rows)}
</main></body></html>`;
}
