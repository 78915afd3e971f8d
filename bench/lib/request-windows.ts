import type { HttpClient } from './http.ts';

/**
 * A V8 CPU profile split by the request it was sampled in (bench/profile.ts `--per-request`). With
 * one connection the server has one request at a time, so what its event loop does while the load
 * driver waits for an answer, and until the driver sends the next request, belongs to that request.
 * The driver records when it sent each request on the monotonic clock (process.hrtime), which is the
 * clock of the profile's timestamps (V8's TimeTicks) on Linux, whichever process reads it;
 * request-windows.test.ts checks within one process that the two agree to a sample or so.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
/** The Profile of Chrome DevTools' Profiler domain, as node:inspector writes it. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One request as the driver sent it: what it was, and when it was sent (µs of the monotonic clock). */
export interface RequestMark {
  label: string;
  sentUs: number;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The client `http`, noting each request it sends in `marks` as `POST /path` (the query left out). */
export function markedClient(http: HttpClient, marks: RequestMark[]): HttpClient {
  const mark = (method: string, path: string) => marks.push({ label: `${method} ${path.split('?')[0] as string}`, sentUs: nowUs() });
  return {
    origin: http.origin,
    post: (path, body, headers) => {
      mark('POST', path);
      return http.post(path, body, headers);
    },
    get: (path, headers) => {
      mark('GET', path);
      return http.get(path, headers);
    },
    close: () => http.close(),
  };
}

export interface RequestProfile {
  /** Requests of this kind that were sent within the profile. */
  requests: number;
  /** The profile's samples taken from one of them being sent until the next request was. */
  profile: CpuProfile;
}

export interface SplitProfile {
  byRequest: Map<string, RequestProfile>;
  /** Samples before the first request, other than (idle): none of the requests'. */
  before: number;
  sampled: number;
}

/** `profile`'s samples, each given to the last request sent at or before it (`marks` in the order sent). */
export function splitByRequest(profile: CpuProfile, marks: readonly RequestMark[]): SplitProfile {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const byRequest = new Map<string, RequestProfile>();
  const slot = (label: string): RequestProfile => {
    let r = byRequest.get(label);
    if (!r) byRequest.set(label, (r = { requests: 0, profile: { nodes: profile.nodes, startTime: profile.startTime, samples: [], timeDeltas: [] } }));
    return r;
  };
  const end = profile.startTime + profile.timeDeltas.reduce((a, b) => a + b, 0);
  for (const m of marks) if (m.sentUs >= profile.startTime && m.sentUs <= end) slot(m.label).requests++;
  let at = profile.startTime;
  let next = 0;
  let before = 0;
  let sampled = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    while (next < marks.length && (marks[next] as RequestMark).sentUs <= at) next++;
    if (idle.has(id)) return;
    sampled++;
    const current = marks[next - 1];
    if (!current) {
      before++;
      return;
    }
    const r = slot(current.label);
    r.profile.samples.push(id);
    r.profile.timeDeltas.push(delta);
  });
  return { byRequest, before, sampled };
}
