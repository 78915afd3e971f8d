import type { FieldValues, Resolver } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { telChangeRequestSchema } from '@sso/contracts/account';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';

vi.mock('react', async (importOriginal) => (await import('../ui/test-hook-harness.ts')).withHarness(await importOriginal<object>()));

/**
 * react-hook-form's useForm as far as the hook uses it, without a DOM: the values typed so far, the
 * errors and the focused field, and a handleSubmit that checks them with the form's resolver.
 */
vi.mock('react-hook-form', async (importOriginal) => {
  const harness = await import('../ui/test-hook-harness.ts');
  interface Options {
    resolver: Resolver<FieldValues, unknown, FieldValues>;
    defaultValues: FieldValues;
  }
  /** The forms made so far, the latest last: a test reaches one that a layer keeps to itself. */
  const made: unknown[] = [];
  return {
    ...(await importOriginal<object>()),
    made,
    useWatch: () => '',
    useForm: (options: Options) => {
      const slot = harness.useRef<unknown>(undefined);
      slot.current ??= (() => {
        const state = { values: { ...options.defaultValues }, errors: {} as Record<string, { message?: string }>, focused: undefined as string | undefined };
        return {
          state,
          formState: { errors: state.errors },
          register: (name: string) => ({ name }),
          setError: (name: string, error: { message?: string }) => void (state.errors[name] = error),
          clearErrors: (name: string) => void delete state.errors[name],
          setValue: (name: string, value: unknown) => void (state.values[name] = value),
          setFocus: (name: string) => void (state.focused = name),
          reset: (values: FieldValues) => void (state.values = { ...values }),
          handleSubmit: (onValid: (values: FieldValues) => Promise<void>, onInvalid: () => void) => async () => {
            const { errors, values } = await options.resolver(state.values, undefined, { fields: {}, shouldUseNativeValidation: false });
            Object.assign(state.errors, errors);
            if (Object.keys(errors).length) onInvalid();
            else await onValid(values);
          },
        };
      })();
      made.push(slot.current);
      return slot.current;
    },
  };
});

const { stubBrowserGlobals } = await import('./test-browser-globals.ts');
stubBrowserGlobals();
const { render } = await import('../ui/test-hook-harness.ts');
const { useCommitAction, useMemberForm } = await import('./use-member-form.ts');
const { useOtpForm } = await import('./use-otp-form.ts');
const { useCardForm } = await import('./use-card-form.ts');
const { ApiFailure } = await import('./result.ts');
const { registerNavigator } = await import('./navigation.ts');
const { made } = (await import('react-hook-form')) as unknown as { made: unknown[] };

type Tel = { tel: string };
/** The fake form above, as the hook hands it on. */
interface FakeForm {
  state: { values: FieldValues; errors: Record<string, { message?: string }>; focused?: string };
}
const fake = (form: unknown) => (form as FakeForm).state;
const failure = (result_code: number, result_message: string, validation_errors?: { key: string; message: string }[]) =>
  new ApiFailure({ result_code, result_message, validation_errors }, 400);
/** Settles pending promise callbacks. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const submit = async (onSubmit: () => unknown) => {
  void onSubmit();
  await settle();
};

/** A mobile-number form (decision 0014), mounted; `send` is what the test makes of the server. */
type TelOptions = Parameters<typeof useMemberForm<Tel>>[0];
function telForm(send: TelOptions['send'], extra: Partial<TelOptions> = {}) {
  const view = render(() => useMemberForm<Tel>({ schema: telChangeRequestSchema, defaultValues: { tel: '' }, send, ...extra }), undefined);
  const type = (tel: string) => void (fake(view.output.form).values.tel = tel);
  return { view, type, submit: () => submit(view.output.onSubmit) };
}

describe('the member form (SPEC.md sections 4, 5 and 8)', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    stubBrowserGlobals();
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('an invalid submit shows C99-000400 and the field errors, and sends nothing', async () => {
    const send = vi.fn(async () => undefined);
    const { view, submit } = telForm(send);
    await submit();
    expect(send).not.toHaveBeenCalled();
    expect(view.output.message).toBe(CLIENT_MESSAGES['C99-000400']);
    expect(fake(view.output.form).errors.tel?.message).toBeTruthy();
  });

  it('sends the values as section 5 brings them (decision 0018), and clears the message first', async () => {
    const send = vi.fn(async (_values: Tel, _form: unknown) => undefined);
    const { view, type, submit } = telForm(send);
    await submit();
    type('０９０-１２３４-５６７８');
    await submit();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toEqual({ tel: '09012345678' });
    expect(send.mock.calls[0]?.[1]).toBe(view.output.form);
    expect(view.output.message).toBeUndefined();
    expect(view.output.pending).toBe(false);
  });

  it('sends once for two submits in one frame, and stays blocked while the page leaves', async () => {
    let answer!: (outcome: 'leaving') => void;
    const send = vi.fn(() => new Promise<'leaving'>((resolve) => (answer = resolve)));
    const { view, type } = telForm(send);
    type('09012345678');
    void view.output.onSubmit();
    void view.output.onSubmit();
    await settle();
    expect(send).toHaveBeenCalledTimes(1);
    expect(view.output.pending).toBe(true);
    answer('leaving');
    await settle();
    await submit(view.output.onSubmit);
    expect(send).toHaveBeenCalledTimes(1);
    expect(view.output.pending).toBe(true);
  });

  it('901: the errors go on the fields they name, another key is not shown, and the message is C99-000400', async () => {
    const send = vi.fn(async () => Promise.reject(failure(901, 'x', [{ key: 'tel', message: 'この番号は使えません' }, { key: 'client_id', message: 'y' }])));
    const { view, type, submit } = telForm(send);
    type('09012345678');
    await submit();
    expect(fake(view.output.form).errors).toEqual({ tel: { message: 'この番号は使えません' } });
    expect(view.output.message).toBe(CLIENT_MESSAGES['C99-000400']);
    expect(view.output.pending).toBe(false);
  });

  it('901: a form may say where a key goes (a name key on its family name input, SPEC.md section 3)', async () => {
    const send = vi.fn(async () => Promise.reject(failure(901, 'x', [{ key: 'full_name', message: '長すぎます' }, { key: 'tel', message: 'z' }])));
    const { view, type, submit } = telForm(send, { fields: (key) => (key === 'full_name' ? 'tel' : undefined) });
    type('09012345678');
    await submit();
    expect(fake(view.output.form).errors).toEqual({ tel: { message: '長すぎます' } });
  });

  it('902, 203: the server message; only a 902 clears the secrets', async () => {
    const clearSecrets = vi.fn();
    const send = vi.fn(async () => Promise.reject(failure(902, 'ワンタイムパスワードが正しくありません。')));
    const { view, type, submit } = telForm(send, { clearSecrets });
    type('09012345678');
    await submit();
    expect(view.output.message).toBe('ワンタイムパスワードが正しくありません。');
    expect(clearSecrets).toHaveBeenCalledWith(view.output.form);
    send.mockImplementation(async () => Promise.reject(failure(203, 'ロックされています。')));
    await submit();
    expect(view.output.message).toBe('ロックされています。');
    expect(clearSecrets).toHaveBeenCalledTimes(1);
  });

  it('300: the screen drops its flow, and the error page follows', async () => {
    const onFlowEnded = vi.fn();
    const { type, submit } = telForm(vi.fn(async () => Promise.reject(failure(300, 'flow expired'))), { onFlowEnded });
    type('09012345678');
    await submit();
    expect(onFlowEnded).toHaveBeenCalledTimes(1);
    expect(navigations).toEqual(['/500']);
  });

  it('a screen that does more with a failure gets it and the view in place of showFailure', async () => {
    const onFailure = vi.fn((_e: unknown, view: { setMessage: (m: string) => void }) => view.setMessage('ここで表示'));
    const { view, type, submit } = telForm(vi.fn(async () => Promise.reject(failure(300, 'open members only'))), { onFailure });
    type('09012345678');
    await submit();
    expect(onFailure.mock.calls[0]?.[0]).toBeInstanceOf(ApiFailure);
    expect(view.output.message).toBe('ここで表示');
    expect(navigations).toEqual([]);
  });
});

describe('the layers on the member form', () => {
  beforeEach(() => void vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() }));
  afterEach(() => void vi.unstubAllGlobals());

  it('a code form starts empty, and a 902 empties the code and puts the cursor back in it', async () => {
    const send = vi.fn(async () => Promise.reject(failure(902, 'ワンタイムパスワードが正しくありません。')));
    const view = render(() => useOtpForm({ send }), undefined);
    const form = fake(view.output.form);
    expect(form.values).toEqual({ onetime_password: '' });
    form.values.onetime_password = '１２３４５６';
    await submit(view.output.onSubmit);
    expect(send).toHaveBeenCalledWith({ onetime_password: '123456' }, view.output.form);
    expect(form.values.onetime_password).toBe('');
    expect(form.focused).toBe('onetime_password');
  });

  it('a card form empties the security code and its error on a 902, with no cursor moved, and hands `send` a reset', async () => {
    let reset!: () => void;
    const send = vi.fn(async (_card: unknown, r: () => void) => {
      reset = r;
      throw failure(902, 'カードを登録できませんでした。');
    });
    const view = render(() => useCardForm(send), undefined);
    // The card layer keeps its form to itself.
    const form = fake(made.at(-1));
    Object.assign(form.values, { cardnumber: '4541000000000001', cc_month: '12', cc_year: '2030', cvc: '123' });
    await submit(view.output.onSubmit);
    expect(send).toHaveBeenCalledTimes(1);
    expect(view.output.message).toBe('カードを登録できませんでした。');
    expect(form.values.cvc).toBe('');
    expect(form.focused).toBeUndefined();
    form.errors.cvc = { message: '3桁または4桁' };
    view.output.cardFields.clearCvc();
    expect(form.errors.cvc).toBeUndefined();
    reset();
    expect(form.values).toEqual({ cardnumber: '', cc_month: '', cc_year: '', cvc: '' });
  });

  it('a confirm mode\'s commit goes back to the input on a 901 only', async () => {
    const backToInput = vi.fn();
    const setMessage = vi.fn();
    const commit = vi.fn(async (_values: Tel) => Promise.reject(failure(901, 'x', [])));
    const view = render(() => useCommitAction({ setMessage }, commit, backToInput), undefined);
    await view.output.run({ tel: '09012345678' });
    expect(backToInput).toHaveBeenCalledTimes(1);
    expect(setMessage.mock.calls).toEqual([[undefined], [CLIENT_MESSAGES['C99-000400']]]);
    commit.mockImplementation(async () => Promise.reject(failure(902, 'もう一度')));
    await view.output.run({ tel: '09012345678' });
    expect(backToInput).toHaveBeenCalledTimes(1);
  });
});
