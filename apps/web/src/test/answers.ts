import { expect } from 'vitest';

/**
 * Checks a function of one argument against a table: each argument with the answer it must give. A
 * failure names the argument.
 */
export function expectAnswers<A, R>(fn: (argument: A) => R, table: readonly (readonly [A, R])[]): void {
  for (const [argument, answer] of table) expect(fn(argument), `for ${String(argument)}`).toStrictEqual(answer);
}

/** Checks that `test` says `holds` (true unless told) of every argument; a failure lists those it does not. */
export function expectEvery<A>(test: (argument: A) => boolean, args: readonly A[], holds = true): void {
  expect(args.filter((argument) => test(argument) !== holds)).toEqual([]);
}
