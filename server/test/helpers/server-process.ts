// Moved to src/testing/server-process.ts, where the benchmarks reach it too.
export * from '../../src/testing/server-process';
