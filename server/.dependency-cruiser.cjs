// The server's layers (docs/architecture.md, "Server folders"): each layer imports only the ones
// below it, domain modules only those before them in DOMAIN_ORDER, and no module takes part in a
// cycle. `npm run lint` runs this; test/layers.test.ts plants a violation of each kind and sees it fail.
const KERNEL = '^src/(config|app-error|logging|version|data-dir|key-file)\\.ts$';
const DOMAIN_ORDER = [
  'members',
  'referrals',
  'rewards',
  'indexer',
  'distribution',
  'sponsorship',
  'operators',
  'reports',
];

const domainOrder = DOMAIN_ORDER.map((module, i) => ({
  name: `domain-order-${module}`,
  comment: `domain/${module} may import only the domain modules before it: ${DOMAIN_ORDER.slice(0, i).join(', ') || 'none'}.`,
  severity: 'error',
  from: { path: `^src/domain/${module}/` },
  to: { path: `^src/domain/(${DOMAIN_ORDER.slice(i + 1).join('|') || '$^'})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No module may import itself back through others.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-imports-nothing-above',
      comment: 'The kernel files and lib/ know nothing else of the server.',
      severity: 'error',
      from: { path: [KERNEL, '^src/lib/'] },
      to: { path: '^src/', pathNot: [KERNEL, '^src/lib/'] },
    },
    {
      name: 'infra-knows-no-domain',
      comment: 'infra/ (database, chain, mail, identity) imports only the kernel, lib/ and infra/.',
      severity: 'error',
      from: { path: '^src/infra/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/lib/', '^src/infra/'] },
    },
    {
      name: 'infra-order',
      comment:
        'Within infra/: db is the lowest; chain and mail may use db; identity may use db and mail.',
      severity: 'error',
      from: { path: '^src/infra/db/' },
      to: { path: '^src/infra/(chain|mail|identity)/' },
    },
    {
      name: 'infra-chain-mail-order',
      severity: 'error',
      from: { path: '^src/infra/(chain|mail)/' },
      to: { path: '^src/infra/(identity|chain|mail)/', pathNot: '^src/infra/$1/' },
    },
    {
      name: 'domain-below-http',
      comment: 'domain/ imports only the kernel, lib/, infra/ and earlier domain modules.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/lib/', '^src/infra/', '^src/domain/'] },
    },
    ...domainOrder,
    {
      name: 'no-fastify-below-http',
      comment: 'Only the HTTP layer and the root know Fastify.',
      severity: 'error',
      from: { path: ['^src/domain/', '^src/infra/', '^src/lib/', KERNEL] },
      to: {
        path: 'node_modules/(fastify|@fastify|fastify-type-provider-zod)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'routes-do-not-import-routes',
      comment: 'A route folder under http/routes/ never imports another one.',
      severity: 'error',
      from: { path: '^src/http/routes/([^/]+)' },
      to: { path: '^src/http/routes/', pathNot: '^src/http/routes/$1' },
    },
    {
      name: 'http-below-root',
      comment: 'http/ and cli/ never import the root (main, app, setup-schema) or the test kit.',
      severity: 'error',
      from: { path: ['^src/http/', '^src/cli/'] },
      to: { path: ['^src/(main|app|setup-schema)\\.ts$', '^src/testing/'] },
    },
    {
      name: 'product-does-not-import-test-kit',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/testing/', '\\.test\\.ts$'] },
      to: { path: '^src/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
