import type { ReactElement, ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('react', async (importOriginal) => {
  const harness = await import('../../ui/test-hook-harness.ts');
  return { ...(await importOriginal<object>()), useState: harness.useState, useEffect: harness.useEffect, useRef: harness.useRef, useCallback: <F>(f: F) => f };
});

const { render } = await import('../../ui/test-hook-harness.ts');
const { AccountChoice } = await import('./account-choice.tsx');

type ButtonProps = { onClick: () => void; pending: boolean; children: ReactNode };

/** The buttons of the rendered choice, by their accessible name. */
function buttons(node: unknown, found: Record<string, ButtonProps> = {}): Record<string, ButtonProps> {
  if (Array.isArray(node)) node.forEach((n) => buttons(n, found));
  else if (node && typeof node === 'object' && 'props' in node) {
    const props = (node as ReactElement<Record<string, unknown>>).props;
    if (typeof props.onClick === 'function' && typeof props.children === 'string') found[props.children] = props as unknown as ButtonProps;
    else buttons(props.children, found);
  }
  return found;
}

const SWITCH = 'ログイン連携のアカウントに切り替える';
const STAY = '現在のアカウントのまま続ける';

describe('the choice between two logins (decision 0013)', () => {
  beforeEach(() => void vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() }));
  afterEach(() => void vi.unstubAllGlobals());

  it('runs only the first of two choices clicked in one frame, and blocks both buttons meanwhile', () => {
    const onSwitch = vi.fn(() => new Promise<'leaving'>(() => undefined));
    const onStay = vi.fn(async () => undefined);
    const accounts = { current: { email: 'a@example.com' }, handOff: { email: 'b@example.com' } } as Parameters<typeof AccountChoice>[0];
    const view = render(AccountChoice, { ...accounts, onSwitch, onStay });
    const shown = buttons(view.output);
    expect(Object.keys(shown)).toEqual([SWITCH, STAY]);
    shown[SWITCH]?.onClick();
    shown[STAY]?.onClick();
    expect(onSwitch).toHaveBeenCalledTimes(1);
    expect(onStay).not.toHaveBeenCalled();
    expect(Object.values(buttons(view.output)).map((b) => b.pending)).toEqual([true, true]);
  });
});
