import { afterEach, expect, it } from 'vitest';
import { holderCards, nextHolder } from './cards-kit.ts';

// The server's test files share their worker's modules (vitest.config.ts, `unit-shared`): the
// holders a file takes must not count against the next file the worker runs.
const thisFile = expect.getState().testPath;
afterEach(() => expect.setState({ testPath: thisFile }));

it('gives each test file its own holders, all of them, whatever other files of the worker took', () => {
  expect.setState({ testPath: '/a/first.test.ts' });
  const first = Array.from({ length: 120 }, () => nextHolder().holderId);
  expect(new Set(first).size).toBe(120);
  expect(() => nextHolder()).toThrow('out of holders in /a/first.test.ts');
  expect.setState({ testPath: '/a/second.test.ts' });
  expect(nextHolder()).toEqual(holderCards(1));
});
