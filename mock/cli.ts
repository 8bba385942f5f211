#!/usr/bin/env node
import { createWriteStream, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS, unknownFaults } from './faults/index.ts';
import { liveEnvFor } from './live-env.ts';
import { chooseBehaviours, findProfile, listBehaviours, PROFILES } from './profiles/index.ts';
import { createMock } from './server.ts';
import { describeThrottle, REAL_THROTTLE } from './throttle.ts';
import { HOUR, toTimestamp } from './state/clock.ts';
import { DEFAULT_CHANGES_A_DAY } from './state/live-feed.ts';
import { outagePlanOf } from './profiles/ft-gateway-outage.ts';

const USAGE = `Usage: npm run mock -- [options]   (installed: clm-mock [options])

  --host H          address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --port N          HTTPS port (default 8443; 0 picks a free one)
  --http-port N     plain-HTTP port (default 8080; 0 picks a free one)
  --seed N          seed of the generated data (default 1)
  --now TIMESTAMP   fix the clock at this RFC 3339 time (default: real time)
  --changes N       changes in a feed that stands still (with --now or --publish 0), 1000 to
                    50000000 (default 20000); the feed is stored as columns, so 5000000 start
                    in seconds in some 220 MB
  --publish N       on the real clock, a feed of N changes a day (default 1000), a function of
                    the seed and the time: its 120 days of history and the changes published as
                    time passes alike, the same across restarts; 0 turns publishing off (a fixed
                    clock with --now never publishes)
  --fault NAME      switch a fault on; repeatable
  --control         honour 'Prefer: faults=NAME,…' on each request (a fault per request)
  --as PROFILE      answer as a real service is documented to: ${PROFILES.map((p) => p.name).join(', ')}
                    (every behaviour on; faults still apply behind it)
  --behaviour A,B   with --as, only these behaviours on; repeatable
  --without A,B     with --as, these behaviours off; repeatable
  --list-behaviours list the behaviours of each profile, with their sources, and exit
  --outage N:S      with --as ft-gateway, the backend restarts after N requests with a key and is
                    out for S seconds (default 300:20); none: it never does
  --rate-limit      throttle each key as the real service does: 2 requests/s and 5,000/day, then
                    429 with Retry-After (default: no throttle)
  --log FILE        append one JSON line per request to FILE ('-': standard output); keys and
                    tokens are never logged
  --docs DIR        also serve DIR (npm run docs writes reports/docs) under /docs/
  --write-env FILE  also write the settings of a live run against this mock to FILE (not .env),
                    for CLM_ENV_FILE=FILE npm run conformance:live
  --list-faults     list the fault catalogue and exit
  -h, --help        this text`;

/** Fewer seeded changes may lack an item of each kind the examples name; more, the memory. */
const [MIN_CHANGES, MAX_CHANGES] = [1_000, 50_000_000];

function fail(message: string): never {
  console.error(`mock: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, not "${value}"`);
  return Number(value);
}

let args;
try {
  args = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'http-port': { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      changes: { type: 'string' },
      publish: { type: 'string' },
      fault: { type: 'string', multiple: true },
      'list-faults': { type: 'boolean' },
      as: { type: 'string' },
      behaviour: { type: 'string', multiple: true },
      without: { type: 'string', multiple: true },
      'list-behaviours': { type: 'boolean' },
      outage: { type: 'string' },
      control: { type: 'boolean' },
      'rate-limit': { type: 'boolean' },
      log: { type: 'string' },
      docs: { type: 'string' },
      'write-env': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}

if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

if (args['list-faults']) {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  for (const fault of FAULTS)
    console.log(
      `${fault.name.padEnd(width)}  ${fault.rule.padEnd(8)}  ${fault.kind.padEnd(8)}  ${fault.description}`,
    );
  console.log(`\n${FAULTS.length} faults.`);
  process.exit(0);
}

if (args['list-behaviours']) {
  console.log(PROFILES.map(listBehaviours).join('\n\n'));
  process.exit(0);
}

const unknown = unknownFaults(args.fault ?? []);
if (unknown.length > 0) fail(`unknown fault ${unknown.map((n) => `"${n}"`).join(', ')}; see --list-faults`);
if (args.now !== undefined && Number.isNaN(Date.parse(args.now)))
  fail(`--now must be a timestamp, not "${args.now}"`);
const envFile = args['write-env'];
// Every run of the suite reads .env, mock-mode runs included: settings pointing at this mock
// there (a live target, a rate limit) would break the next plain npm run conformance.
if (envFile !== undefined && basename(envFile) === '.env')
  fail(
    `--write-env will not write ${envFile}: every run of the suite reads .env, ` +
      'and these settings would break the next npm run conformance. ' +
      'Use --write-env .env.mock, then CLM_ENV_FILE=.env.mock npm run conformance:live',
  );

if (args.host !== undefined && !/^[\w.:-]+$/.test(args.host))
  fail(`--host must be an address, not "${args.host}"`);
const docs = args.docs;
if (docs !== undefined && !statSync(docs, { throwIfNoEntry: false })?.isDirectory())
  fail(`--docs: ${docs} is not a directory (npm run docs writes reports/docs)`);
const throttle = args['rate-limit'] ? REAL_THROTTLE : undefined;
const logFile = args.log;
const log =
  logFile === undefined || logFile === '-' ? process.stdout : createWriteStream(logFile, { flags: 'a' });
if (log !== process.stdout)
  await new Promise<void>((resolve) => {
    log.once('ready', resolve);
    log.once('error', (error: Error) => fail(`--log: cannot write ${logFile}: ${error.message}`));
  });

// The real service publishes as time passes; a fixed clock stands still, so nothing is published.
const publishPerDay = args.now === undefined ? integer('publish', args.publish, DEFAULT_CHANGES_A_DAY) : 0;
if (args.now !== undefined && integer('publish', args.publish, 0) > 0)
  fail('--publish needs the real clock: leave out --now');
// A day's changes for 150 days (the history and the items it names) must fit as many as --changes may.
if (publishPerDay * 150 > MAX_CHANGES)
  fail(`--publish must be at most ${Math.floor(MAX_CHANGES / 150)} changes a day, not ${publishPerDay}`);
if (publishPerDay > 0 && args.changes !== undefined)
  fail(
    '--changes sizes a feed that stands still: with --now or --publish 0. ' +
      'A feed that publishes has the size its rate gives (--publish N a day, over 120 days)',
  );

const names = (lists: string[] | undefined) => lists?.flatMap((list) => list.split(',')).filter(Boolean);
const [behaviours, without] = [names(args.behaviour), names(args.without)];
if ((behaviours || without) && args.as === undefined) fail('--behaviour and --without need --as PROFILE');
try {
  if (args.as !== undefined) chooseBehaviours(findProfile(args.as), { behaviours, without });
} catch (error) {
  fail(`${(error as Error).message}; see --list-behaviours`);
}

if (args.outage !== undefined && args.as === undefined) fail('--outage needs --as PROFILE');
const outage =
  args.outage === undefined ? undefined : (outagePlanOf(args.outage) ?? fail('--outage is N:S or none'));

const changes = publishPerDay > 0 ? undefined : integer('changes', args.changes, 20_000);
if (changes !== undefined && (changes < MIN_CHANGES || changes > MAX_CHANGES))
  fail(`--changes must be between ${MIN_CHANGES} and ${MAX_CHANGES}, not ${changes}`);

const mock = await createMock({
  host: args.host,
  port: integer('port', args.port, 8443),
  httpPort: integer('http-port', args['http-port'], 8080),
  seed: integer('seed', args.seed, 1),
  now: args.now,
  changes,
  faults: args.fault,
  control: args.control === true,
  throttle,
  docs,
  onRequest: logFile === undefined ? undefined : (entry) => log.write(`${JSON.stringify(entry)}\n`),
  publishPerDay,
  as: args.as,
  behaviours,
  without,
  outage,
}).catch((error: NodeJS.ErrnoException) => {
  fail(
    error.code === 'EADDRINUSE'
      ? `port in use (${error.message}); pick another with --port/--http-port`
      : error.message,
  );
});

const state = mock.state;
const examples = state.examples();
const { key } = examples;
const since = toTimestamp(state.clock.now() - HOUR);
// CLM_TARGET is left to the command (conformance:live sets it); the live default of 2 requests a
// second would only slow a run against a local mock, unless it throttles as the real service does.
const settings = [
  ...Object.entries(liveEnvFor(mock)).filter(([name]) => name !== 'CLM_TARGET'),
  ['CLM_RATE_LIMIT', String(throttle?.perSecond ?? 50)],
].map(([name, value]) => `${name}=${value}`);
if (envFile !== undefined)
  try {
    writeFileSync(
      envFile,
      '# This npm run mock as a live service, while it runs: ' +
        `CLM_ENV_FILE=${envFile} npm run conformance:live\n` +
        `# Never in .env: every run of the suite reads .env.\n${settings.join('\n')}\n`,
    );
  } catch (error) {
    await mock.close();
    fail(`--write-env: cannot write ${envFile}: ${(error as Error).message}`);
  }
const envBlock = `To run the suite against it as a live service, ${
  envFile === undefined
    ? `save these settings in a file of their own
(--write-env .env.mock writes one), never in .env, which every run of the suite reads:`
    : `with these settings, written to ${envFile}:`
}
${settings.map((line) => `  ${line}`).join('\n')}
then: CLM_ENV_FILE=${envFile ?? '.env.mock'} npm run conformance:live`;
const curl = (path: string, extra = '') => `  curl -k ${extra}-H 'X-Api-Key: ${key}' '${mock.url}${path}'`;

const everywhere = mock.host === '0.0.0.0' || mock.host === '::';
const listening = everywhere ? `, listening on ${mock.host} (every interface)` : '';
const docsLine =
  docs === undefined ? '' : `\n  Docs   ${mock.url}/docs/ and ${mock.httpUrl}/docs/ (from ${docs})`;
const clock = args.now ? `fixed at ${args.now}` : 'real time';
const publishing =
  publishPerDay > 0
    ? `${publishPerDay} changes a day, the same feed for the same seed at the same time ` +
      '(--publish N a day; 0 turns it off)'
    : 'off';
const logTo =
  logFile === undefined
    ? 'none (--log FILE)'
    : `one JSON line per request to ${logFile === '-' ? 'standard output' : logFile}`;
const faultNames = mock.faults.length ? mock.faults.map((f) => `${f.name} (${f.rule})`).join(', ') : 'none';
const perRequest = args.control ? "; per request with 'Prefer: faults=NAME'" : '';
const profileLine = mock.profile
  ? `${mock.profile.name}, behaviours on: ${mock.profile.behaviours.map((b) => b.name).join(', ') || 'none'}`
  : 'none, the clean service (--as ft-gateway answers as the real gateway)';
const profileCurl = curl(
  `/users/${examples.userId}/profile/full`,
  `-H 'Authorization: Bearer ${examples.token}' -H 'Content-Type: application/json' `,
);
const searchCurl =
  `  curl -k -X POST -H 'X-Api-Key: ${key}' -H 'Content-Type: application/json' ` +
  `-d '{"queryString":"banks"}' '${mock.url}/content/search/v1'`;
const imageCurl =
  '  curl -k -o image.png ' +
  `'${mock.imagesUrl}/images/raw/${encodeURIComponent(examples.imageUri)}?format=png&width=320&source=me'`;
console.log(`Mock of the Content, Licence and Membership service${mock.profile ? ` as ${mock.profile.name}` : ''}${listening}
  HTTPS  ${mock.url}   (self-signed certificate: curl -k)
  HTTP   ${mock.httpUrl}   (membership endpoints redirect to HTTPS)
  Images ${mock.imagesUrl}${docsLine}
  Seed ${state.options.seed}, clock ${clock}, ${state.log.length} changes in the feed
  Publishing: ${publishing}
  Rate limit: ${describeThrottle(throttle)}${throttle ? ' (429 with Retry-After)' : ''}
  Log: ${logTo}
  Faults: ${faultNames}${perRequest}
  Profile: ${profileLine}

Keys (X-Api-Key header or ?apiKey=): ${[...state.keys.keys()].join(', ')}
  (${[...state.keys.values()]
    .filter((k) => !k.restrictedContent)
    .map((k) => k.value)
    .join(', ')} may not read restricted content)

Bearer tokens for GET /users/{userId}/profile/full:
${[...state.tokens.values()].map((t) => `  ${t.value}  user ${t.userId}  ${t.label}`).join('\n')}

Try:
${curl(`/content/notifications?since=${since}`)}
${curl('/trial-exclusions/ip-addresses')}
${curl(`/licence/${examples.licenceId}`)}
${profileCurl}
${curl(`/site/v1/pages/${examples.pageId}/main-content?feature.blogposts=off`)}
${curl(`/content/${examples.contentId}`)}
${curl(`/enrichedcontent/${examples.contentId}`)}
${searchCurl}
${curl(`/content/items/v1/${examples.contentId}`)}
${curl('/content/notifications/v1/items')}
${curl('/site/v1/pages')}
${curl(`/site/v1/pages/${examples.pageId}`)}
${curl(`/site/v1/pages/${examples.pageId}/skyline-content`)}
${imageCurl}

${envBlock}

Ctrl-C stops it.`);

const stop = () => {
  void mock.close().then(() => (log === process.stdout ? process.exit(0) : log.end(() => process.exit(0))));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
