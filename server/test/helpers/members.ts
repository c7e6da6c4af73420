// Moved to src/testing/members.ts, where the benchmarks reach it too.
export * from '../../src/testing/members';
