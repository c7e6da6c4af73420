// Moved to src/testing/hardhat-node.ts, where the benchmarks reach it too.
export * from '../../src/testing/hardhat-node';
