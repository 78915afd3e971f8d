import { Session } from 'node:inspector';
import { describe, expect, it } from 'vitest';
import { markedClient, splitByRequest, type CpuProfile, type ProfileNode, type RequestMark } from './request-windows.ts';

const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0, columnNumber: 0 });
const NODES = [
  { id: 1, callFrame: frame('(root)') },
  { id: 2, callFrame: frame('(idle)') },
  ...[3, 4, 5, 6, 7, 8].map((id) => ({ id, callFrame: frame(`work${id}`) })),
];

describe('splitByRequest', () => {
  it('gives each sample to the last request sent at or before it, leaves (idle) out and counts the requests within the profile', () => {
    // Samples at 1010 (node 3), 1020 (4), 1030 (idle), 1040 (6), 1050 (7), 1060 (8) µs.
    const profile: CpuProfile = { nodes: NODES, startTime: 1000, samples: [3, 4, 2, 6, 7, 8], timeDeltas: [10, 10, 10, 10, 10, 10] };
    const marks: RequestMark[] = [
      { label: 'POST /a', sentUs: 900 }, // sent before the profile started: not counted, but the first sample is its
      { label: 'POST /a', sentUs: 1015 },
      { label: 'POST /b', sentUs: 1040 }, // sent at the very moment of a sample: the sample is its
      { label: 'POST /a', sentUs: 1055 },
      { label: 'POST /b', sentUs: 2000 }, // after the profile's end: not counted
    ];
    const split = splitByRequest(profile, marks);
    expect(split.sampled).toBe(5);
    expect(split.before).toBe(0);
    expect(split.byRequest.get('POST /a')).toMatchObject({ requests: 2, profile: { samples: [3, 4, 8], timeDeltas: [10, 10, 10] } });
    expect(split.byRequest.get('POST /b')).toMatchObject({ requests: 1, profile: { samples: [6, 7], timeDeltas: [10, 10] } });
  });

  it('counts apart the samples that come before every request, and gives them to none', () => {
    const profile: CpuProfile = { nodes: NODES, startTime: 0, samples: [3, 3, 3], timeDeltas: [5, 5, 5] };
    const split = splitByRequest(profile, [{ label: 'GET /x', sentUs: 12 }]);
    expect(split).toMatchObject({ before: 2, sampled: 3 });
    expect(split.byRequest.get('GET /x')?.profile.samples).toEqual([3]);
  });

  it('agrees with the V8 profiler\'s clock: work done after a mark is found under that mark', async () => {
    const session = new Session();
    session.connect();
    const post = <T>(method: string, params?: object) => new Promise<T>((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
    const marks: RequestMark[] = [];
    const client = markedClient({ origin: 'x', post: async () => ({ status: 200, location: undefined, text: '' }), get: async () => ({ status: 200, location: undefined, text: '' }), close: async () => {} }, marks);
    // Named functions that spin, so that the samples name them.
    function spinFirst(ms: number) {
      const end = performance.now() + ms;
      while (performance.now() < end);
    }
    function spinSecond(ms: number) {
      const end = performance.now() + ms;
      while (performance.now() < end);
    }
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
    await client.post('/first?x=1', {});
    spinFirst(40);
    await client.get('/second');
    spinSecond(40);
    const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
    session.disconnect();
    expect(marks.map((m) => m.label)).toEqual(['POST /first', 'GET /second']);
    const split = splitByRequest(profile, marks);
    // A sample counts for the spin it was taken in: the spin's frame, or one it called (performance.now).
    const parent = new Map<number, number>();
    for (const n of profile.nodes as (ProfileNode & { children?: number[] })[]) for (const c of n.children ?? []) parent.set(c, n.id);
    const name = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
    const spinOf = (id: number): string | undefined => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (name.get(at)?.startsWith('spin')) return name.get(at);
      return undefined;
    };
    const spins = (label: string) => (split.byRequest.get(label)?.profile.samples ?? []).map(spinOf).filter((n) => n !== undefined);
    const [first, second] = [spins('POST /first'), spins('GET /second')];
    // Each spin's samples land under its own request, none under the other's.
    expect(first.length).toBeGreaterThan(10);
    expect(second.length).toBeGreaterThan(10);
    expect(new Set(first)).toEqual(new Set(['spinFirst']));
    expect(new Set(second)).toEqual(new Set(['spinSecond']));
  });
});
