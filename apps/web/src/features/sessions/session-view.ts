import { SESSION_SCREEN_TEXTS as T } from '@sso/contracts/session-screens';
import type { BrowserSession, ServiceSession } from '@sso/contracts/sessions';
import { formatJapanTime, japanIsoTime } from '../../lib/japan-time.ts';

/** A time as the list shows it, in Japan time as the activity log shows it, with its machine-readable value. */
export interface ShownTime {
  text: string;
  iso: string;
}

const shown = (epochMs: number): ShownTime => ({ text: formatJapanTime(epochMs), iso: japanIsoTime(epochMs) });

/** What the list shows of one browser or service, and how its button is named for a screen reader. */
export interface SessionFacts {
  kind: 'browser' | 'service';
  id: string;
  title: string;
  current: boolean;
  started: ShownTime;
  lastUsed: ShownTime;
  /** A browser's last service; none for a service. */
  lastService?: string;
  /** When a browser's automatic login ends (SPEC.md section 9); none for a service, whose tokens end with their own refresh. */
  autoLoginEnds?: ShownTime;
  /** 「Chrome / Windows（2026年1月1日 10:00にログイン）」をログアウト: two browsers of one kind are told apart. */
  buttonLabel: string;
}

const labelled = (title: string, started: ShownTime, current: boolean) =>
  `「${title}（${current ? T.current : `${started.text}${T.startedSuffix}`}）」を${T.logout}`;

export function browserFacts(b: BrowserSession): SessionFacts {
  const title = b.device ?? T.unknownDevice;
  const started = shown(b.created_at);
  return {
    kind: 'browser',
    id: b.id,
    title,
    current: b.current,
    started,
    lastUsed: shown(b.last_used_at),
    lastService: b.last_service ?? '—',
    autoLoginEnds: shown(b.expires_at),
    buttonLabel: labelled(title, started, b.current),
  };
}

export function serviceFacts(s: ServiceSession): SessionFacts {
  const started = shown(s.created_at);
  return { kind: 'service', id: s.id, title: s.name, current: s.current, started, lastUsed: shown(s.last_used_at), buttonLabel: labelled(s.name, started, s.current) };
}

/** What the confirmation says ending one does; ending this very browser or session logs this browser out too. */
export function endingText(facts: SessionFacts): string[] {
  const what = facts.kind === 'browser' ? T.endBrowserText : T.endServiceText;
  return facts.current ? [what, T.endCurrentText] : [what];
}
