import { existsSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { MIN_SECRET_LENGTH } from './client/redact.ts';

/** A bad setting, reported before any request is made, naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type TargetKind = 'mock' | 'live';

export interface Config {
  target: TargetKind;
  baseUrl?: string;
  apiKey?: string;
  httpBaseUrl?: string;
  /** A throwaway key, the only one sent over plain HTTP (TLS-01 with a key). */
  plainHttpKey?: string;
  imageBaseUrl?: string;
  imageUri?: string;
  /** The calling system's name, sent as `source` on every request to the image service. */
  imageSource: string;
  userId?: string;
  userToken?: string;
  tokenWithoutProfileMax?: string;
  expiredToken?: string;
  otherUserId?: string;
  licenceId?: string;
  pageId?: string;
  contentId?: string;
  /** Requests per second, for the whole run. */
  rateLimit: number;
  /** The most requests one run may make. */
  requestBudget: number;
  fcRuns: number;
  fcSeed: number;
  fcPath?: string;
  /** Which commands of a model-based run had run: with `fcSeed` and `fcPath`, replays it exactly. */
  fcReplayPath?: string;
  /** Stop a property at its first counterexample, unshrunk: enough to know a test fails. */
  fcNoShrink: boolean;
  /** Faults of the bundled mock switched on for this run. */
  mockFaults: string[];
  reportsDir: string;
  /** The evidence store (bodies, scrubbed, for the gate): live by default in `<reportsDir>/evidence`. */
  evidenceDir?: string;
  /** Accept a self-signed certificate: for test services such as a standalone mock, never production. */
  insecureTls: boolean;
  gonePageId?: string;
  /** Seconds the whole run may take (Infinity: no deadline). */
  runTimeout: number;
  /** Seconds one request may take, its body included. */
  requestTimeout: number;
  /** The most bytes read of one response, after decompression. */
  maxBodyBytes: number;
  /** The longest Retry-After waited out, in seconds; a longer one stops the run as incomplete. */
  maxRetryAfter: number;
  /** Seconds one outage of the service (502, 503, 504 to a request known to be good) is waited out. */
  outageWait: number;
}

/** The name the image service knows the suite by, unless CLM_IMAGE_SOURCE names another. */
export const DEFAULT_IMAGE_SOURCE = 'clm-conformance';
/** The most bytes of a body the client reads, unless CLM_MAX_BODY_BYTES says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The variables the suite reads, with what each is for: `.env.example` and the README list the same. */
export const VARIABLES = {
  CLM_TARGET: 'mock (default) or live',
  CLM_ENV_FILE:
    'a file read in place of .env, such as the .env.mock of npm run mock -- --write-env .env.mock',
  CLM_BASE_URL: 'https:// base URL of the live service',
  CLM_API_KEY: 'API key for the live service',
  CLM_HTTP_BASE_URL: 'http:// base URL of the same service, to check that HTTPS is enforced',
  CLM_PLAIN_HTTP_KEY:
    'a throwaway key (whitelisted, expendable), the only key sent over plain HTTP, to check TLS-01 with a key',
  CLM_IMAGE_BASE_URL: 'base URL of the image service v2',
  CLM_IMAGE_URI: 'an image URI the image service can read, such as ftcms:<uuid>',
  CLM_IMAGE_SOURCE:
    "the calling system's name, sent as source on every image service request (default clm-conformance)",
  CLM_USER_ID: 'a user id whose token is CLM_USER_TOKEN',
  CLM_USER_TOKEN: 'a bearer token with scope profile_max for CLM_USER_ID',
  CLM_TOKEN_WITHOUT_PROFILE_MAX: 'a bearer token for CLM_USER_ID without scope profile_max',
  CLM_EXPIRED_TOKEN: 'an expired bearer token for CLM_USER_ID, to check PROF-02 live',
  CLM_OTHER_USER_ID: 'a user id that CLM_USER_TOKEN was not issued for, to check PROF-04 live',
  CLM_LICENCE_ID: 'an access licence id readable with CLM_API_KEY',
  CLM_PAGE_ID: 'a page id for the deprecated page endpoints',
  CLM_CONTENT_ID: 'a content item id readable with CLM_API_KEY',
  CLM_GONE_PAGE_ID: 'a page id the service answers with 410, to check PAGE-06 live',
  CLM_RATE_LIMIT: 'requests per second (default 2 live, unlimited on the mock; none: no limit)',
  CLM_REQUEST_BUDGET: 'the most requests one run may make (default 1000 live; none: no limit)',
  CLM_RUN_TIMEOUT:
    'seconds the whole run may take (default 1800 live, unlimited on the mock; none: no deadline)',
  CLM_REQUEST_TIMEOUT: 'seconds one request may take, its body included (default 30)',
  CLM_MAX_BODY_BYTES: 'the most bytes read of one response, after decompression (default 16777216)',
  CLM_MAX_RETRY_AFTER:
    'the longest Retry-After waited out, in seconds; a longer one ends the run as incomplete (default 60)',
  CLM_OUTAGE_WAIT:
    'seconds an outage (502, 503, 504 while a request known to be good fails too) is waited out, ' +
    'retrying with a growing pause; past it the test is not run (default 60)',
  CLM_REPORTS_DIR: 'where reports are written (default reports)',
  CLM_EVIDENCE_DIR:
    'where a run keeps its evidence store for spec:diff (default reports/evidence live, none on the mock; off: none)',
  CLM_INSECURE_TLS: 'true to accept a self-signed certificate (a standalone mock; never production)',
  FC_RUNS: 'runs per property (default 100 on the mock, 10 live)',
  FC_SEED: 'seed of the property-based tests (default: new each run, printed)',
  FC_PATH: 'path of a failing property run, with FC_SEED to replay it',
  FC_REPLAY_PATH:
    'replayPath of a failing model-based test, printed with its commands: with FC_SEED and FC_PATH',
  FC_NO_SHRINK: 'true to report the first counterexample unshrunk (faster; the mutation run uses it)',
  MOCK_FAULTS: 'comma-separated faults of the bundled mock to switch on',
} as const;

type Env = Record<string, string | undefined>;

function text(env: Env, name: keyof typeof VARIABLES): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function url(env: Env, name: keyof typeof VARIABLES, scheme: 'https:' | 'http:'): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(
      name,
      `"${value}" is not a URL; expected something like ${scheme}//api.example.com`,
    );
  }
  if (parsed.protocol !== scheme)
    throw new ConfigError(name, `must be an ${scheme}// URL, not ${parsed.protocol}//`);
  if (parsed.username || parsed.password) throw new ConfigError(name, 'must not carry credentials');
  if (parsed.search || parsed.hash)
    throw new ConfigError(name, 'must be a base URL without query or fragment');
  return value.replace(/\/+$/, '');
}

/** A bound as a person reads it: `1000 requests`, or `no limit` for `none` (JSON writes it null). */
export const shownBound = (value: number | null, unit: string): string =>
  value !== null && Number.isFinite(value) ? `${value}${unit}` : 'no limit';

/** A positive number; with `limit`, also `none`: no limit (a service of one's own, a twin). */
function number(
  env: Env,
  name: keyof typeof VARIABLES,
  fallback: number,
  integer: boolean,
  limit = false,
): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (limit && value === 'none') return Infinity;
  const parsed = Number(value);
  const ok = /^\d+(\.\d+)?$/.test(value) && parsed > 0 && (!integer || Number.isInteger(parsed));
  const what = `a positive ${integer ? 'whole number' : 'number'}${limit ? ' or none' : ''}`;
  if (!ok) throw new ConfigError(name, `"${value}" is not ${what}`);
  return parsed;
}

/**
 * The suite's one configuration loader: the environment, then `.env` or the file CLM_ENV_FILE
 * names (which never overrides the environment), validated. A bad value throws a ConfigError
 * naming the variable.
 */
export function loadConfig(env: Env = process.env, dotenvPath?: string): Config {
  if (env === process.env) {
    const envFile = text(env, 'CLM_ENV_FILE');
    // Named on purpose, so a missing file is a mistake; a missing .env is the normal case.
    if (envFile !== undefined && !existsSync(envFile))
      throw new ConfigError('CLM_ENV_FILE', `no file ${envFile} (the file read in place of .env)`);
    loadDotenv({ path: dotenvPath ?? envFile, quiet: true });
  }
  const target = text(env, 'CLM_TARGET') ?? 'mock';
  if (target !== 'mock' && target !== 'live')
    throw new ConfigError('CLM_TARGET', `"${target}" is neither mock nor live`);
  const live = target === 'live';
  const config: Config = {
    target,
    baseUrl: url(env, 'CLM_BASE_URL', 'https:'),
    apiKey: secret(env, 'CLM_API_KEY'),
    httpBaseUrl: url(env, 'CLM_HTTP_BASE_URL', 'http:'),
    plainHttpKey: secret(env, 'CLM_PLAIN_HTTP_KEY'),
    imageBaseUrl: url(env, 'CLM_IMAGE_BASE_URL', 'https:'),
    imageUri: text(env, 'CLM_IMAGE_URI'),
    imageSource: imageSource(env),
    userId: text(env, 'CLM_USER_ID'),
    userToken: secret(env, 'CLM_USER_TOKEN'),
    tokenWithoutProfileMax: secret(env, 'CLM_TOKEN_WITHOUT_PROFILE_MAX'),
    expiredToken: secret(env, 'CLM_EXPIRED_TOKEN'),
    otherUserId: text(env, 'CLM_OTHER_USER_ID'),
    licenceId: text(env, 'CLM_LICENCE_ID'),
    pageId: text(env, 'CLM_PAGE_ID'),
    contentId: text(env, 'CLM_CONTENT_ID'),
    rateLimit: number(env, 'CLM_RATE_LIMIT', live ? 2 : Infinity, false, true),
    requestBudget: number(env, 'CLM_REQUEST_BUDGET', live ? 1000 : Infinity, true, true),
    fcRuns: number(env, 'FC_RUNS', live ? 10 : 100, true),
    fcSeed: text(env, 'FC_SEED') === undefined ? Date.now() % 2_147_483_647 : seed(env),
    fcPath: text(env, 'FC_PATH'),
    fcReplayPath: text(env, 'FC_REPLAY_PATH'),
    fcNoShrink: flag(env, 'FC_NO_SHRINK'),
    mockFaults: (text(env, 'MOCK_FAULTS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    reportsDir: text(env, 'CLM_REPORTS_DIR') ?? 'reports',
    evidenceDir: evidenceDir(env, live),
    insecureTls: flag(env, 'CLM_INSECURE_TLS'),
    gonePageId: text(env, 'CLM_GONE_PAGE_ID'),
    runTimeout: number(env, 'CLM_RUN_TIMEOUT', live ? 1800 : Infinity, false, true),
    requestTimeout: number(env, 'CLM_REQUEST_TIMEOUT', 30, false),
    maxBodyBytes: number(env, 'CLM_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, true),
    maxRetryAfter: number(env, 'CLM_MAX_RETRY_AFTER', 60, false),
    outageWait: number(env, 'CLM_OUTAGE_WAIT', 60, false),
  };
  if (config.fcPath !== undefined && !/^\d+(:\d+)*$/.test(config.fcPath))
    throw new ConfigError('FC_PATH', `"${config.fcPath}" is not a fast-check path such as 3:0:1`);
  if (config.fcReplayPath !== undefined && !/^[A-Za-z0-9+/]*:[A-Za-z0-9+/]*$/.test(config.fcReplayPath))
    throw new ConfigError('FC_REPLAY_PATH', `"${config.fcReplayPath}" is not a replayPath such as BAB:A`);
  if (config.plainHttpKey !== undefined && config.plainHttpKey === config.apiKey)
    throw new ConfigError(
      'CLM_PLAIN_HTTP_KEY',
      'must not be CLM_API_KEY: the real key never goes over plain HTTP',
    );
  if (config.userToken && !config.userId)
    throw new ConfigError('CLM_USER_ID', 'is needed with CLM_USER_TOKEN');
  if (live) {
    if (!config.baseUrl)
      throw new ConfigError('CLM_BASE_URL', 'is required for a live run (an https:// URL)');
    if (!config.apiKey) throw new ConfigError('CLM_API_KEY', 'is required for a live run');
  }
  return config;
}

/** A key or token: one too short to be told from other text could not be redacted, so it stops the run. */
function secret(env: Env, name: keyof typeof VARIABLES): string | undefined {
  const value = text(env, name);
  if (value !== undefined && value.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      name,
      `is shorter than ${MIN_SECRET_LENGTH} characters: too short to redact safely`,
    );
  return value;
}

/**
 * The name the image service knows the suite by: the real service refuses a request without one
 * (400). A plain name, so it reads the same in a URL, a log and the service's own reports.
 */
function imageSource(env: Env): string {
  const value = text(env, 'CLM_IMAGE_SOURCE') ?? DEFAULT_IMAGE_SOURCE;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(value))
    throw new ConfigError(
      'CLM_IMAGE_SOURCE',
      `"${value}" is not a plain name such as my-news-app (letters, digits, . _ -, at most 100)`,
    );
  return value;
}

function evidenceDir(env: Env, live: boolean): string | undefined {
  const value = text(env, 'CLM_EVIDENCE_DIR');
  if (value === 'off') return undefined;
  return value ?? (live ? `${text(env, 'CLM_REPORTS_DIR') ?? 'reports'}/evidence` : undefined);
}

function flag(env: Env, name: keyof typeof VARIABLES): boolean {
  const value = text(env, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(name, `"${value}" is neither true nor false`);
}

function seed(env: Env): number {
  const value = text(env, 'FC_SEED')!;
  if (!/^-?\d+$/.test(value)) throw new ConfigError('FC_SEED', `"${value}" is not a whole number`);
  return Number(value);
}

/**
 * The configuration `load` reads, or the end of the command: a bad setting stops it before any
 * request, with the variable named on stderr and exit code 2.
 */
export async function configOrExit(load: () => Config | Promise<Config> = loadConfig): Promise<Config> {
  try {
    return await load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}\nSee .env.example for every variable.`);
    process.exit(2);
  }
}
