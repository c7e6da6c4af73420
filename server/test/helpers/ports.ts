// Moved to src/testing/ports.ts, where the benchmarks reach it too.
export * from '../../src/testing/ports';
