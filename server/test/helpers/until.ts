// Moved to src/testing/until.ts, where the benchmarks reach it too.
export * from '../../src/testing/until';
