// Compiles contracts/src with the pinned solc (npm) into build/artifacts.json (ABI + bytecode).
// Skips the work when the sources and settings have not changed since the last build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const outFile = path.join(root, 'build', 'artifacts.json');

const settings = {
  evmVersion: 'prague',
  viaIR: true,
  optimizer: { enabled: true, runs: 1_000_000 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

const sourceNames = readdirSync(path.join(root, 'src')).filter((name) => name.endsWith('.sol'));
const sources = Object.fromEntries(
  sourceNames.map((name) => [
    `src/${name}`,
    { content: readFileSync(path.join(root, 'src', name), 'utf8') },
  ]),
);
const fingerprint = createHash('sha256')
  .update(JSON.stringify({ version: solc.version(), settings, sources }))
  .digest('hex');

if (existsSync(outFile) && JSON.parse(readFileSync(outFile, 'utf8')).fingerprint === fingerprint) {
  console.log('contracts: up to date');
  process.exit(0);
}

function findImports(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    return { error: `not found: ${importPath}` };
  }
}

const started = Date.now();
const output = JSON.parse(
  solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), {
    import: findImports,
  }),
) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>
  >;
};
const problems = output.errors ?? [];
for (const problem of problems) console.error(problem.formattedMessage);
if (problems.some((problem) => problem.severity === 'error')) process.exit(1);

const contracts: Record<string, { abi: unknown[]; bytecode: string }> = {};
for (const name of sourceNames) {
  for (const [contractName, contract] of Object.entries(output.contracts[`src/${name}`] ?? {})) {
    contracts[contractName] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
}
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(
  outFile,
  JSON.stringify({ fingerprint, compiler: solc.version(), settings, contracts }, null, 1),
);
console.log(
  `contracts: compiled ${Object.keys(contracts).join(', ')} with solc ${solc.version()} in ${Date.now() - started} ms`,
);
