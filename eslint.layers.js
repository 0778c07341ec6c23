/**
 * The direction of imports, enforced by ESLint's core `no-restricted-imports` (issue #12).
 *
 * services/<svc>/src/
 *   domain/       pure: only domain/, @tap/errors, @tap/contracts, uuid (node: modules as types only)
 *   ports.ts      what operations need (repositories, clock...); store/ implements it; types only
 *   operations/   one use case per file; uses the ports; never store/ or a transport
 *   grpc/ events/ jobs/   thin adapters over operations; never store/ or a database driver
 *   store/        implements the operations' ports; never grpc/, events/, jobs/ or the gRPC kit
 *   app.ts        buildApp(config): the only place that wires them (no rule: it may import all)
 *
 * packages/*: never a service; @tap/errors imports nothing of ours; the domain-ish packages
 * (errors, contracts, tokens, config) import no transport.
 *
 * Flat config does not merge the options of one rule across objects (the last object wins), so
 * every file gets exactly one object for this rule: one per layer and folder depth. The depth is
 * what tells a relative import that leaves the layer (`../../store/x.js` from
 * `operations/sub/file.ts`) from one that stays inside it.
 */

const MAX_DEPTH = 4;
const TESTS = ['**/*.test.ts'];

/** `(\.\./){n}` as a regex source: the relative prefix that climbs from depth `d` to src/. */
const upTo = (depth) => `(\\.\\./){${depth + 1}}`;

/** A relative import that climbs to src/ and enters one of `folders` (or a file of that name). */
const intoFolders = (depth, folders) => `^${upTo(depth)}(${folders.join('|')})(/|\\.js$)`;

/** Bare module specifiers (the package itself or a subpath). */
const packagesPattern = (names) => `^(${names.join('|')})(/.*)?$`;

const DRIVERS = ['mongodb', 'ioredis', 'nats', '@nats-io/[^/]+'];
const TRANSPORTS = ['@tap/grpc-kit', '@tap/events', '@grpc/[^/]+', 'fastify', '@fastify/[^/]+'];
const OUR_SERVICES = [
  '@tap/gateway',
  '@tap/identity',
  '@tap/adoption',
  '@tap/entitlements',
  '@tap/cli',
  '@tap/system-tests',
];

/** What each layer of a service may not import; `depth` is the file's folder depth inside the layer. */
const SERVICE_LAYERS = {
  domain: (depth) => [
    {
      regex: `^${upTo(depth)}`,
      message: 'domain/ is pure: it imports only domain/, @tap/errors and @tap/contracts (issue #12).',
    },
    {
      regex: '^node:',
      allowTypeImports: true,
      message: 'domain/ does no I/O: node: modules only as `import type` (issue #12).',
    },
    {
      // uuid: name-based (v5) ids are a pure computation (adoption's risk-signal ids).
      regex: '^(?!node:|\\.|@tap/errors$|@tap/contracts$|uuid$)',
      message: 'domain/ is pure: it imports only domain/, @tap/errors, @tap/contracts and uuid (issue #12).',
    },
  ],
  operations: (depth) => [
    {
      regex: intoFolders(depth, ['store', 'grpc', 'events', 'jobs', 'http']),
      message:
        'operations/ use the ports declared in src/ports.ts; store/ implements them and app.ts wires them (issue #12).',
    },
    {
      regex: packagesPattern([...DRIVERS, ...TRANSPORTS]),
      message:
        'operations/ know no transport and no driver: declare a port, let an adapter implement it (issue #12).',
    },
  ],
  store: (depth) => [
    {
      regex: intoFolders(depth, ['grpc', 'events', 'jobs', 'http']),
      message: 'store/ implements the operations’ ports; it never imports an adapter (issue #12).',
    },
    {
      regex: packagesPattern(TRANSPORTS),
      message: 'store/ imports no transport; DependencyUnavailableError is in @tap/errors (issue #12).',
    },
  ],
  ...Object.fromEntries(
    ['grpc', 'events', 'jobs'].map((layer) => [
      layer,
      (depth) => [
        {
          regex: intoFolders(depth, ['store']),
          message: `${layer}/ is a thin adapter: decode, call an operation, encode; app.ts hands it what store/ built (issue #12).`,
        },
        {
          regex: packagesPattern(['mongodb']),
          message: `${layer}/ is a thin adapter: the database belongs to store/ (issue #12).`,
        },
      ],
    ]),
  ),
};

const NEVER_A_SERVICE = {
  regex: packagesPattern(OUR_SERVICES),
  message: 'Packages never import a service: the dependency points from services to packages (issue #12).',
};
const NEVER_TESTKIT = {
  regex: packagesPattern(['@tap/testkit']),
  message: '@tap/testkit is for tests and the local stack, never for shipped code.',
};

/** Package-specific patterns on top of NEVER_A_SERVICE and NEVER_TESTKIT. */
const PACKAGE_RULES = {
  errors: [
    {
      regex: '^@tap/',
      message: '@tap/errors is the root of our graph: it imports nothing of ours (issue #12).',
    },
  ],
  contracts: [
    {
      regex: packagesPattern(['@tap/(?!errors$)[^/]+', ...DRIVERS, 'fastify', '@fastify/[^/]+']),
      message: '@tap/contracts is the contract: no transport of ours, no driver (issue #12).',
    },
  ],
  ...Object.fromEntries(
    ['tokens', 'config'].map((name) => [
      name,
      [
        {
          regex: packagesPattern([
            '@tap/(?!errors$|contracts$)[^/]+',
            ...TRANSPORTS,
            'ioredis',
            'nats',
            '@nats-io/[^/]+',
          ]),
          message: `@tap/${name} is domain-ish: it imports no transport (issue #12).`,
        },
      ],
    ]),
  ),
};

const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/**
 * A service's `src/ports.ts` (issue #23): the ports its operations use, declared once. Like
 * operations/ it knows the domain only: no store/, no adapter, no driver, no transport.
 */
const PORTS_FILE = [
  {
    regex: '^\\./(?!domain/)',
    message: 'src/ports.ts declares what operations need over domain types only (issue #23).',
  },
  {
    regex: packagesPattern([...DRIVERS, ...TRANSPORTS]),
    message: 'src/ports.ts knows no transport and no driver: adapters implement the ports (issue #23).',
  },
];

function serviceLayerConfigs() {
  return [
    ...Object.entries(SERVICE_LAYERS).flatMap(([layer, patternsAt]) =>
      Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
        name: `tap/layers/services/${layer}/depth-${depth}`,
        files: [`services/*/src/${layer}/${'*/'.repeat(depth)}*.ts`],
        ignores: TESTS,
        rules: rule(patternsAt(depth)),
      })),
    ),
    { name: 'tap/layers/services/ports', files: ['services/*/src/ports.ts'], rules: rule(PORTS_FILE) },
  ];
}

function packageConfigs() {
  const specific = Object.keys(PACKAGE_RULES);
  return [
    {
      name: 'tap/layers/packages',
      files: ['packages/*/src/**/*.ts'],
      ignores: [
        ...TESTS,
        'packages/testkit/**',
        'packages/service-testkit/**',
        ...specific.map((name) => `packages/${name}/**`),
      ],
      rules: rule([NEVER_A_SERVICE, NEVER_TESTKIT]),
    },
    {
      name: 'tap/layers/packages/testkits',
      files: ['packages/testkit/src/**/*.ts', 'packages/service-testkit/src/**/*.ts'],
      ignores: TESTS,
      rules: rule([NEVER_A_SERVICE]),
    },
    ...specific.map((name) => ({
      name: `tap/layers/packages/${name}`,
      files: [`packages/${name}/src/**/*.ts`],
      ignores: TESTS,
      rules: rule([NEVER_A_SERVICE, NEVER_TESTKIT, ...PACKAGE_RULES[name]]),
    })),
  ];
}

/** Every layer config object, to spread into the root eslint.config.js after the base rules. */
export const layerConfigs = [...serviceLayerConfigs(), ...packageConfigs()];
