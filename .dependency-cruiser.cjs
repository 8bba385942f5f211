/**
 * Imports run one way: tests, scripts and bench use rig, lib and mock; rig uses lib and mock; mock may
 * use lib/contract; no circles.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, however far round, make a circle.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-to-mock',
      severity: 'error',
      comment: "The suite's machinery never depends on the bundled mock.",
      from: { path: '^lib/' },
      to: { path: '^mock/' },
    },
    {
      name: 'mock-only-to-lib-contract',
      severity: 'error',
      comment: 'The mock may use the contract, and nothing else of the suite.',
      from: { path: '^mock/' },
      to: { path: '^lib/', pathNot: '^lib/contract/' },
    },
    {
      name: 'lib-and-mock-not-to-rig',
      severity: 'error',
      comment: 'rig is the seam where the suite meets the mock: lib and mock never depend on it.',
      from: { path: '^(lib|mock)/' },
      to: { path: '^rig/' },
    },
    {
      name: 'nothing-to-tests-or-scripts',
      severity: 'error',
      comment: 'lib, mock and rig are used by tests and scripts, never the other way round.',
      from: { path: '^(lib|mock|rig)/' },
      to: { path: '^(tests|scripts|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
