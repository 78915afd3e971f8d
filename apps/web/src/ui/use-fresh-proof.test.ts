import type { FormEvent, ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES, PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { RESULT } from '@sso/contracts/result-codes';

vi.mock('react', async (importOriginal) => (await import('./test-hook-harness.ts')).withHarness(await importOriginal<object>()));
const reauthenticate = vi.fn<(password: string) => Promise<unknown>>();
const reauthenticateWithPasskey = vi.fn<() => Promise<unknown>>();
vi.mock('../lib/fresh-proof.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  reauthenticate: (password: string) => reauthenticate(password),
  reauthenticateWithPasskey: () => reauthenticateWithPasskey(),
}));

const { render, shownTexts } = await import('./test-hook-harness.ts');
const { ApiFailure, FreshProofNeeded } = await import('../lib/result.ts');
const { CeremonyFailed } = await import('../lib/webauthn.ts');
const { useFreshProof } = await import('./use-fresh-proof.tsx');
const { FreshProofDialog } = await import('./fresh-proof-dialog.tsx');

type DialogProps = Parameters<typeof FreshProofDialog>[0];
const CHALLENGE = { result_code: RESULT.ACCESS_DENIED, result_message: '' };
const WRONG = { result_code: RESULT.RETRYABLE, result_message: 'パスワードが正しくありません。' };

/** An action the server first refuses with the step-up challenge (RFC 9470), then carries out. */
function sensitiveAction(challenge: object = CHALLENGE) {
  let calls = 0;
  return vi.fn(async () => {
    if (calls++ === 0) throw new FreshProofNeeded({ ...CHALLENGE, ...challenge }, 401);
    return 'changed';
  });
}

/** Settles pending promise callbacks. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Mounts the hook and asks for a proof; `dialog()` is the prompt's latest props. */
async function prompted(challenge?: object) {
  const view = render(useFreshProof, undefined);
  const outcome = view.output.withProof(sensitiveAction(challenge));
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
    reauthenticateWithPasskey.mockReset();
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

describe('the fresh-proof prompt with a passkey (decision 0024)', () => {
  beforeEach(() => {
    reauthenticate.mockReset();
    reauthenticateWithPasskey.mockReset();
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('asks for the password alone when the challenge names no passkey', async () => {
    const { dialog } = await prompted();
    expect(dialog()).toMatchObject({ passkey: false, passkeyRequired: false });
  });

  it('offers the passkey the challenge names, and runs the action again once the passkey proved presence', async () => {
    const { dialog, answer } = await prompted({ passkey: true, passkey_required: false });
    expect(dialog()).toMatchObject({ passkey: true, passkeyRequired: false });
    reauthenticateWithPasskey.mockResolvedValue({ result_code: RESULT.OK });
    await dialog().onPasskey?.();
    await settle();
    expect(reauthenticateWithPasskey).toHaveBeenCalledTimes(1);
    expect(reauthenticate).not.toHaveBeenCalled();
    expect(dialog().open).toBe(false);
    expect(answer()).toBe('changed');
  });

  it('keeps the prompt with the server\'s message when the passkey is refused, and with the cancelled message when the browser ended the ceremony', async () => {
    const { dialog, answer } = await prompted({ passkey: true, passkey_required: true });
    expect(dialog().passkeyRequired).toBe(true);
    reauthenticateWithPasskey.mockRejectedValueOnce(new ApiFailure({ result_code: RESULT.CREDENTIALS, result_message: PASSKEY_MESSAGES.notAccepted }, 400));
    await dialog().onPasskey?.();
    await settle();
    expect(dialog().open).toBe(true);
    expect(dialog().message).toBe(PASSKEY_MESSAGES.notAccepted);
    reauthenticateWithPasskey.mockRejectedValueOnce(new CeremonyFailed(Object.assign(new Error('cancelled'), { name: 'NotAllowedError' })));
    await dialog().onPasskey?.();
    await settle();
    expect(dialog().open).toBe(true);
    expect(dialog().message).toBe(PASSKEY_MESSAGES.cancelled);
    expect(answer()).toBeUndefined();
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

  const childrenOf = (view: { output: ReactElement }) => form(view).props.children.filter(Boolean);
  const hasPassword = (children: ReactElement[]) => children.some((c) => (c.props as { type?: string }).type === 'password');

  it('offers 「パスキーで確認する」 before the password field to a member with a passkey', () => {
    const view = render(FreshProofDialog, { open: true, message: undefined, pending: false, passkey: true, onSubmit: vi.fn(async () => undefined), onPasskey: vi.fn(async () => undefined), onCancel: vi.fn() });
    const children = childrenOf(view);
    const passkeyAt = children.findIndex((c) => shownTexts(c).includes(PASSKEY_MESSAGES.reauthButton));
    const passwordAt = children.findIndex((c) => (c.props as { type?: string }).type === 'password');
    expect(passkeyAt).toBeGreaterThan(0);
    expect(passwordAt).toBeGreaterThan(passkeyAt);
    expect(shownTexts(view.output)).toContain(PASSKEY_MESSAGES.freshProofEither);
  });

  it('asks for no password from a member who requires a passkey', () => {
    const onSubmit = vi.fn(async () => undefined);
    const view = render(FreshProofDialog, { open: true, message: undefined, pending: false, passkey: true, passkeyRequired: true, onSubmit, onPasskey: vi.fn(async () => undefined), onCancel: vi.fn() });
    expect(hasPassword(childrenOf(view))).toBe(false);
    expect(shownTexts(view.output)).toContain(PASSKEY_MESSAGES.freshProofPasskeyNeeded);
    expect(shownTexts(view.output)).toContain(PASSKEY_MESSAGES.reauthButton);
    expect(shownTexts(view.output)).not.toContain('確認する');
    form(view).props.onSubmit(submitEvent);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows no passkey button to a member without one', () => {
    const view = render(FreshProofDialog, { open: true, message: undefined, pending: false, onSubmit: vi.fn(async () => undefined), onPasskey: vi.fn(async () => undefined), onCancel: vi.fn() });
    expect(shownTexts(view.output)).not.toContain(PASSKEY_MESSAGES.reauthButton);
    expect(hasPassword(childrenOf(view))).toBe(true);
  });
});
