import { describe, expect, it, vi } from 'vitest';
import { ApiFailure, FreshProofNeeded } from './result.ts';
import { stubBrowserGlobals } from './test-browser-globals.ts';

stubBrowserGlobals();
const { withFreshProof } = await import('./fresh-proof.ts');

const needed = () => new FreshProofNeeded({ result_code: 300, result_message: 'ご本人確認のため、現在のパスワードを入力してください。' }, 401);

describe('withFreshProof', () => {
  it('runs the action without asking when the server does not ask for a proof', async () => {
    const ask = vi.fn(async () => true);
    expect(await withFreshProof(async () => 'done', ask)).toEqual({ done: true, value: 'done' });
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks once when the server asks for a proof, then runs the action again', async () => {
    const action = vi.fn<() => Promise<string>>().mockRejectedValueOnce(needed()).mockResolvedValueOnce('after proof');
    const ask = vi.fn(async () => true);
    expect(await withFreshProof(action, ask)).toEqual({ done: true, value: 'after proof' });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('gives the prompt the server\'s challenge, with the ways of proof it names (decision 0024)', async () => {
    const challenge = new FreshProofNeeded({ result_code: 300, result_message: 'x', passkey: true, passkey_required: true }, 401);
    const action = vi.fn<() => Promise<string>>().mockRejectedValueOnce(challenge).mockResolvedValueOnce('after proof');
    const ask = vi.fn(async (_challenge: FreshProofNeeded) => true);
    await withFreshProof(action, ask);
    expect(ask).toHaveBeenCalledWith(challenge);
    expect(ask.mock.calls[0]?.[0]).toMatchObject({ passkey: true, passkeyRequired: true });
  });

  it('gives up without running the action again when the member cancels', async () => {
    const action = vi.fn<() => Promise<string>>().mockRejectedValue(needed());
    expect(await withFreshProof(action, async () => false)).toEqual({ done: false });
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('leaves any other failure, and a second request for a proof, to the caller', async () => {
    const other = new ApiFailure({ result_code: 902, result_message: 'x' }, 400);
    await expect(withFreshProof(() => Promise.reject(other), async () => true)).rejects.toBe(other);
    const again = needed();
    await expect(withFreshProof(() => Promise.reject(again), async () => true)).rejects.toBe(again);
  });
});
