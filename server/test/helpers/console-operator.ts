// Moved to src/testing/console-operator.ts, where the benchmarks reach it too.
export * from '../../src/testing/console-operator';
