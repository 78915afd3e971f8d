/**
 * For unit tests in Node without a DOM: a stand-in for React's useState, useEffect and useRef that
 * runs a component function like a mounted component. A test mocks 'react' with these, then renders:
 * state updates render again, and effects run after a render when their dependencies changed.
 */
interface Effect {
  deps: readonly unknown[] | undefined;
  cleanup: (() => void) | undefined;
}

let slots: unknown[] = [];
let effects: Effect[] = [];
let queued: (() => void)[] = [];
let nextSlot = 0;
let nextEffect = 0;
let renderAgain = () => {};

export function useState<S>(initial: S | (() => S)): [S, (next: S | ((prev: S) => S)) => void] {
  const i = nextSlot++;
  if (!(i in slots)) slots[i] = typeof initial === 'function' ? (initial as () => S)() : initial;
  const set = (next: S | ((prev: S) => S)) => {
    const value = typeof next === 'function' ? (next as (prev: S) => S)(slots[i] as S) : next;
    if (Object.is(value, slots[i])) return;
    slots[i] = value;
    renderAgain();
  };
  return [slots[i] as S, set];
}

/** A ref is a state slot holding one object that no render replaces. */
export function useRef<T>(initial: T): { current: T } {
  return useState(() => ({ current: initial }))[0];
}

export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void {
  const i = nextEffect++;
  const prev = effects[i];
  if (prev?.deps && deps && deps.every((d, k) => Object.is(d, prev.deps?.[k]))) return;
  queued.push(() => {
    prev?.cleanup?.();
    effects[i] = { deps, cleanup: effect() ?? undefined };
  });
}

/**
 * React with these stand-ins, for a test's vi.mock('react') factory: callbacks and memos are made
 * again at each render (a component must not count on their identity to be right), ids are fixed.
 */
export const withHarness = (react: object) => ({
  ...react,
  useState,
  useEffect,
  useRef,
  useCallback: <F>(f: F) => f,
  useMemo: <T>(f: () => T) => f(),
  useId: () => 'id',
});

/** Mounts `component` with `props`; `output` is what its latest render returned. */
export function render<P, R>(component: (props: P) => R, props: NoInfer<P>) {
  slots = [];
  effects = [];
  let current = props;
  let output!: R;
  const run = () => {
    nextSlot = 0;
    nextEffect = 0;
    queued = [];
    output = component(current);
    const due = queued;
    queued = [];
    due.forEach((f) => f());
  };
  renderAgain = run;
  run();
  return {
    get output() {
      return output;
    },
    rerender(next: NoInfer<P>) {
      current = next;
      run();
    },
  };
}

/** Every string a rendered element tree shows, depth first (children and string props such as an Alert's message). */
export function shownTexts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(shownTexts);
  if (node && typeof node === 'object' && 'props' in node) {
    const props = (node as { props: Record<string, unknown> }).props;
    return Object.entries(props).flatMap(([k, v]) => (k === 'children' || k === 'message' ? shownTexts(v) : []));
  }
  return [];
}
