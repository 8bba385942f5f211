/**
 * Imports run one way: tests, scripts and bench use rig, lib and mock; rig (where the suite meets the
 * mock) uses lib and mock; mock may use lib/contract; no circles.
 */

/** A forbidden import: from the modules whose path matches `from`, to those matching `to`. */
const never = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to });

module.exports = {
  forbidden: [
    never(
      'no-circular',
      'Modules that import each other, however far round, make a circle.',
      {},
      {
        circular: true,
      },
    ),
    never(
      'lib-not-to-mock',
      "The suite's machinery never depends on the bundled mock.",
      { path: '^lib/' },
      {
        path: '^mock/',
      },
    ),
    never(
      'mock-only-to-lib-contract',
      'The mock may use the contract, and nothing else of the suite.',
      { path: '^mock/' },
      { path: '^lib/', pathNot: '^lib/contract/' },
    ),
    never(
      'lib-and-mock-not-to-rig',
      'rig is where the suite meets the mock: it uses lib and mock, never the other way round.',
      { path: '^(lib|mock)/' },
      { path: '^rig/' },
    ),
    never(
      'nothing-to-tests-or-scripts',
      'lib, mock and rig are used by tests and scripts, never the other way round.',
      { path: '^(lib|mock|rig)/' },
      { path: '^(tests|scripts|bench)/' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
