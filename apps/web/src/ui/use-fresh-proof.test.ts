import type { FormEvent, ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, CLIENT_MESSAGES, VALIDATION_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';

vi.mock('react', async (importOriginal) => (await import('./test-hook-harness.ts')).withHarness(await importOriginal<object>()));
const reauthenticate = vi.fn<(password: string) => Promise<unknown>>();
vi.mock('../lib/fresh-proof.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  reauthenticate: (password: string) => reauthenticate(password),
}));

const { render, shownTexts } = await import('./test-hook-harness.ts');
const { ApiFailure, FreshProofNeeded } = await import('../lib/result.ts');
const { useFreshProof } = await import('./use-fresh-proof.tsx');
const { FreshProofDialog } = await import('./fresh-proof-dialog.tsx');

type DialogProps = Parameters<typeof FreshProofDialog>[0];
const CHALLENGE = { result_code: RESULT.ACCESS_DENIED, result_message: '' };
const WRONG = { result_code: RESULT.RETRYABLE, result_message: 'パスワードが正しくありません。' };

/** An action the server first refuses with the step-up challenge (RFC 9470), then carries out. */
function sensitiveAction() {
  let calls = 0;
  return vi.fn(async () => {
    if (calls++ === 0) throw new FreshProofNeeded(CHALLENGE, 401);
    return 'changed';
  });
}

/** Settles pending promise callbacks. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Mounts the hook and asks for a proof; `dialog()` is the prompt's latest props. */
async function prompted() {
  const view = render(useFreshProof, undefined);
  const outcome = view.output.withProof(sensitiveAction());
  await settle();
  const dialog = () => (view.output.prompt as ReactElement<DialogProps>).props;
  expect(dialog().open).toBe(true);
  let answer: string | undefined;
  void outcome.then((o) => (answer = o.done ? String(o.value) : 'cancelled'));
  return { dialog, answer: () => answer };
}

/** A password check the test answers when it likes. */
function heldCheck() {
  let release!: (ok: boolean) => void;
  reauthenticate.mockImplementation(
    () => new Promise((resolve, reject) => (release = (ok) => (ok ? resolve({ result_code: RESULT.OK }) : reject(new ApiFailure(WRONG, 401))))),
  );
  return (ok: boolean) => release(ok);
}

describe('the fresh-proof prompt (decision 0012)', () => {
  beforeEach(() => {
    reauthenticate.mockReset();
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('sends one password check for two submits in the same frame, then runs the action again', async () => {
    const { dialog, answer } = await prompted();
    const release = heldCheck();
    const submit = dialog().onSubmit;
    void submit('pass-1');
    void submit('pass-1');
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(dialog().pending).toBe(true);
    release(true);
    await settle();
    expect(dialog().open).toBe(false);
    expect(answer()).toBe('changed');
  });

  it('does not answer "cancelled" while the password is checked; a wrong one keeps the prompt, and cancelling then ends it', async () => {
    const { dialog, answer } = await prompted();
    const release = heldCheck();
    void dialog().onSubmit('wrong');
    dialog().onCancel();
    await settle();
    expect(answer()).toBeUndefined();
    expect(dialog().open).toBe(true);
    release(false);
    await settle();
    expect(dialog().open).toBe(true);
    expect(dialog().message).toBe(WRONG.result_message);
    expect(answer()).toBeUndefined();
    dialog().onCancel();
    await settle();
    expect(dialog().open).toBe(false);
    expect(answer()).toBe('cancelled');
  });
});

describe('the fresh-proof dialog (SPEC.md section 8)', () => {
  const form = (view: { output: ReactElement }) =>
    (view.output as ReactElement<{ children: ReactElement<{ onSubmit: (e: FormEvent) => void; children: ReactElement[] }> }>).props
      .children;
  const submitEvent = { preventDefault: vi.fn() } as unknown as FormEvent;

  it('leads with the contract wording and, for an empty password, marks the field and shows C99-000400 without checking', () => {
    const onSubmit = vi.fn(async () => undefined);
    const view = render(FreshProofDialog, { open: true, message: undefined, pending: false, onSubmit, onCancel: vi.fn() });
    expect(shownTexts(view.output)).toContain(ACCOUNT_MESSAGES.freshProofNeeded);
    form(view).props.onSubmit(submitEvent);
    const children = form(view).props.children;
    const field = children.find((c) => c && (c.props as { type?: string }).type === 'password') as ReactElement<{ error?: string }>;
    expect(field.props.error).toBe(VALIDATION_MESSAGES.required);
    expect(shownTexts(view.output)).toContain(CLIENT_MESSAGES['C99-000400']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the server's message when the field is filled", () => {
    const view = render(FreshProofDialog, { open: true, message: WRONG.result_message, pending: false, onSubmit: vi.fn(async () => undefined), onCancel: vi.fn() });
    expect(shownTexts(view.output)).toContain(WRONG.result_message);
    expect(shownTexts(view.output)).not.toContain(CLIENT_MESSAGES['C99-000400']);
  });
});
