import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEXTS } from '@sso/contracts/messages';

vi.mock('react', async (importOriginal) => {
  const harness = await import('./test-hook-harness.ts');
  return { ...(await importOriginal<object>()), useState: harness.useState, useEffect: harness.useEffect };
});

const { render, shownTexts } = await import('./test-hook-harness.ts');
const { FieldFrame } = await import('./field-frame.tsx');
const { LoadStatus } = await import('./load-status.tsx');
const { RadioGroup } = await import('./radio-group.tsx');

/** A field as the forms frame it; `error` is what validation reports. */
const field = (error: string | undefined) => ({ id: 'email', label: 'メールアドレス', error, children: () => null });

describe('delayed display (SPEC.md sections 5 and 9)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows a field error 300 ms after validation reports it, not before', () => {
    const view = render(FieldFrame, field('必須項目です'));
    expect(shownTexts(view.output)).toEqual(['メールアドレス']);
    vi.advanceTimersByTime(299);
    expect(shownTexts(view.output)).not.toContain('必須項目です');
    vi.advanceTimersByTime(1);
    expect(shownTexts(view.output)).toContain('必須項目です');
  });

  it('shows a radio group error 300 ms after validation reports it, not before', () => {
    const options = [{ value: '1', label: '男性' }, { value: '2', label: '女性' }];
    const view = render(RadioGroup, { id: 'gender', legend: '性別', options, error: '必須項目です' });
    vi.advanceTimersByTime(299);
    expect(shownTexts(view.output)).not.toContain('必須項目です');
    vi.advanceTimersByTime(1);
    expect(shownTexts(view.output)).toContain('必須項目です');
  });

  it('never shows an error fixed within 300 ms, hides a fixed error at once, and delays a new error again', () => {
    const view = render(FieldFrame, field('必須項目です'));
    vi.advanceTimersByTime(200);
    view.rerender(field(undefined));
    vi.advanceTimersByTime(1000);
    expect(shownTexts(view.output)).toEqual(['メールアドレス']);

    view.rerender(field('必須項目です'));
    vi.advanceTimersByTime(300);
    view.rerender(field('メールアドレスの形式が正しくありません'));
    expect(shownTexts(view.output)).toEqual(['メールアドレス']);
    vi.advanceTimersByTime(300);
    expect(shownTexts(view.output)).toContain('メールアドレスの形式が正しくありません');
  });

  it('shows the loading text only once loading has lasted 100 ms', () => {
    const view = render(LoadStatus, { loading: true, error: null });
    vi.advanceTimersByTime(99);
    expect(shownTexts(view.output)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shownTexts(view.output)).toEqual([TEXTS.loading]);
    view.rerender({ loading: false, error: null });
    expect(shownTexts(view.output)).toEqual([]);
  });

  it('never shows the loading text for a load that ends within 100 ms, and shows the load failure at once', () => {
    const view = render(LoadStatus, { loading: true, error: null });
    vi.advanceTimersByTime(90);
    view.rerender({ loading: false, error: new Error('x') });
    vi.advanceTimersByTime(1000);
    expect(shownTexts(view.output)).toEqual([TEXTS.loadFailed]);
  });
});
