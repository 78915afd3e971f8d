import { describe, expect, it } from 'vitest';
import { BUDGETS, cpuBeyondBudget, cpuRatioBudget, growthBudget, median, p99Budget, pairedMedian, type CpuSide } from './budgets.ts';
import type { OpSummary } from './stats.ts';

const side = (label: string, roundsUs: number[], errors = 0): CpuSide => ({ label, roundsUs, errors });
const summary = (p99: number): OpSummary => ({ op: 'x', count: 100, ok: 100, errors: 0, p50: 1, p99, max: p99 });

describe('the CPU budgets (docs/performance.md): ratios of CPU per operation measured in turns', () => {
  it('pairs the rounds: a step in the machine between rounds moves both sides of a round, not their ratio', () => {
    // Rounds 3 to 5 on a machine twice as busy: every figure doubles, every round's ratio stays 0.4.
    const product = [40, 40, 80, 80, 80];
    const peer = [100, 100, 200, 200, 200];
    expect(pairedMedian(product, peer, (a, b) => a / b)).toBeCloseTo(0.4);
    // A round whose two turns straddled a step is one outlier of five, not the figure.
    expect(pairedMedian([40, 40, 80, 80, 80], [100, 100, 100, 200, 200], (a, b) => a / b)).toBeCloseTo(0.4);
  });

  it('has no figure without rounds, nor from sides of different lengths', () => {
    expect(pairedMedian([], [], (a, b) => a / b)).toBeNaN();
    expect(pairedMedian([1, 2], [1], (a, b) => a / b)).toBeNaN();
    expect(median([])).toBeNaN();
    expect(median([3, 1, 2])).toBe(2);
  });

  it('has no figure when a round of either side completed nothing (CPU/0) or measured no CPU', () => {
    // A stalled round divides its CPU by 0 operations: Infinity, or NaN with no CPU either.
    expect(pairedMedian([300, 300, 300, 300, 300], [600, 600, Infinity, Infinity, Infinity], (a, b) => a / b)).toBeNaN();
    expect(pairedMedian([300, Infinity, 300], [600, 600, 600], (a, b) => a / b)).toBeNaN();
    expect(pairedMedian([300, 300, 300], [600, Number.NaN, 600], (a, b) => a / b)).toBeNaN();
    expect(pairedMedian([300, 0, 300], [600, 600, 600], (a, b) => a / b)).toBeNaN();
    expect(pairedMedian([300, 300, 300], [600, -1, 600], (a, b) => a / b)).toBeNaN();
  });

  it('a stalled peer or argon2id loop in most rounds makes the budget fall short, not pass', () => {
    // Rounds 3 to 5 of the reference completed nothing: their ratios would be 0 (x / Infinity) or −1 (beyond), the median "within".
    const stalled = [600, 600, Infinity, Infinity, Infinity];
    const product = side('product', [400, 400, 400, 400, 400]);
    expect(cpuRatioBudget({ budget: 'b', a: product, b: side('peer', stalled), bound: BUDGETS.peer.share }).verdict).toBe('falls short');
    const hash = side('one argon2id verification', [12_900, 12_900, Infinity, Infinity, Infinity]);
    const login = side('password login', [14_000, 14_000, 14_000, 14_000, 14_000]);
    expect(cpuBeyondBudget({ budget: 'b', a: login, b: hash, share: BUDGETS.login.share, strict: true }).verdict).toBe('falls short');
    // So do stalled rounds on the measured side.
    expect(cpuRatioBudget({ budget: 'b', a: side('stalled', [Infinity, Infinity, Infinity, 300, 300]), b: side('peer', [600, 600, 600, 600, 600]), bound: 0.5 }).verdict).toBe('falls short');
  });

  it("the product's refresh at most half node-oidc-provider's CPU per operation", () => {
    const bound = BUDGETS.peer.share;
    expect(cpuRatioBudget({ budget: 'b', a: side('product', [300, 310, 290]), b: side('peer', [600, 640, 580]), bound }).verdict).toBe('pass');
    const short = cpuRatioBudget({ budget: 'b', a: side('product', [400, 410, 390]), b: side('peer', [600, 640, 580]), bound });
    expect(short.verdict).toBe('falls short');
    expect(short.measured).toContain('0.67×');
    expect(short.measured).toContain('product 400 µs');
  });

  it('a comparison with errors, or without CPU readings, falls short whatever its ratio', () => {
    expect(cpuRatioBudget({ budget: 'b', a: side('a', [100, 100, 100], 3), b: side('b', [600, 600, 600]), bound: 0.5 })).toMatchObject({ verdict: 'falls short' });
    expect(cpuRatioBudget({ budget: 'b', a: side('a', []), b: side('b', []), bound: 0.5 }).verdict).toBe('falls short');
    expect(cpuRatioBudget({ budget: 'b', a: side('a', [1, 1, 1]), b: side('b', [0, 0, 0]), bound: 0.5 }).verdict).toBe('falls short');
    expect(cpuRatioBudget({ budget: 'b', a: side('a', [0, 0, 0]), b: side('b', [0, 0, 0]), bound: 0.5 }).verdict).toBe('falls short');
  });

  it("the password login's CPU beyond its one argon2id hash under 15% of the hash", () => {
    const hash = side('one argon2id verification', [20_000, 20_000, 20_000]);
    const login = (us: number) => cpuBeyondBudget({ budget: BUDGETS.login.label(), a: side('password login', [us, us, us]), b: hash, share: BUDGETS.login.share, strict: true });
    expect(login(22_900).verdict).toBe('pass');
    expect(login(22_900).measured).toContain('+14.5%');
    expect(login(23_100).verdict).toBe('falls short');
    expect(login(26_000).verdict).toBe('falls short');
  });

  it('the refresh with openid within the plain refresh and one ES256 signature, plus 10%', () => {
    const plain = side('plain refresh', [250, 260, 240]);
    const openid = (us: number[]) => cpuBeyondBudget({ budget: 'b', a: side('with openid', us), b: plain, plusUs: 50, plusLabel: 'one ES256 signature', share: BUDGETS.openidRefresh.share });
    // (250 + 50) × 1.1 = 330: the median round (+9.7%) within it passes, above it falls short.
    expect(openid([329, 343, 318]).verdict).toBe('pass');
    expect(openid([340, 350, 330]).verdict).toBe('falls short');
    expect(openid([340, 350, 330]).measured).toContain('plain refresh 250 µs + one ES256 signature 50 µs');
    // Without the signature's allowance the same figures would be 36% over.
    expect(cpuBeyondBudget({ budget: 'b', a: side('with openid', [340, 350, 330]), b: plain, share: 0.1 }).measured).toMatch(/^\+3[56]\.\d%/);
  });

  it('the token endpoint p99 under 25 ms on every refresh grant, the worst named', () => {
    const rows = [
      { label: 'refresh', summary: summary(9) },
      { label: 'with openid', summary: summary(31) },
    ];
    const r = p99Budget({ budget: 'b', rows, p99Ms: BUDGETS.tokenP99.p99Ms });
    expect(r.verdict).toBe('falls short');
    expect(r.measured).toMatch(/^worst p99 31\.0 ms \(with openid\)/);
    expect(p99Budget({ budget: 'b', rows: [rows[0] as (typeof rows)[0]], p99Ms: 25 }).verdict).toBe('pass');
    expect(p99Budget({ budget: 'b', rows: [{ label: 'x', summary: summary(Number.NaN) }], p99Ms: 25 }).verdict).toBe('falls short');
    expect(p99Budget({ budget: 'b', rows: [], p99Ms: 25 }).verdict).toBe('not measured yet');
  });

  it('growth within 20% either way, the largest change named', () => {
    const g = (changes: number[]) => growthBudget({ budget: 'b', changes: changes.map((change, i) => ({ label: `op${i}`, change })), share: BUDGETS.growth.share });
    expect(g([0.05, -0.19]).verdict).toBe('pass');
    expect(g([0.05, -0.21])).toMatchObject({ verdict: 'falls short', measured: 'largest change of CPU/op -21.0% (op1)' });
    expect(g([0.05, Number.NaN]).verdict).toBe('falls short');
  });

  it('says each bound in its words', () => {
    expect(BUDGETS.login.label()).toBe('password login: CPU beyond its one argon2id hash < 15% of the hash');
    expect(BUDGETS.peer.label()).toBe("partner refresh and introspection (client_secret_basic) CPU/op ≤ 0.5× node-oidc-provider's, its client authenticated alike");
    expect(BUDGETS.peer.of('partner refresh grant (SIAP004, client_secret_basic)')).toBe(
      "partner refresh grant (SIAP004, client_secret_basic): CPU/op ≤ 0.5× node-oidc-provider's, its client authenticated alike",
    );
    expect(BUDGETS.postgres.label()).toBe("PostgreSQL: node + database CPU per refresh ≤ 1.5× SQLite's");
    expect(BUDGETS.passkey.label()).toBe("passkey sign-in CPU/op ≤ 0.25× the password login's");
    expect(BUDGETS.openidRefresh.label()).toBe('refresh with openid ≤ (plain refresh + one ES256 signature) + 10%, CPU/op');
    expect(BUDGETS.tokenP99.label()).toBe('token endpoint p99 < 25 ms (refresh grants)');
  });
});
