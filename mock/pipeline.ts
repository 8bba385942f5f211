import type { Contract, DocumentName } from '../lib/contract/index.ts';
import { CLEAN, type Defects } from './behaviour.ts';
import { findFault, unknownFaults, withSteps, type Fault, type Seen, type Step } from './faults/index.ts';
import { HANDLERS } from './handlers/index.ts';
import { htmlErrors, prefersHtml } from './handlers/html-errors.ts';
import { removedImageMode } from './handlers/images.ts';
import { fail } from './handlers/respond.ts';
import type { State } from './state/index.ts';
import type { Throttle } from './throttle.ts';
import type { Context, MockRequest, MockResponse } from './types.ts';
import { withoutKey } from './key-in-query.ts';

/**
 * A method the contract does not list for a path (a decision: the interface says nothing): OPTIONS
 * says which methods there are (204), any other is refused with 405; both with `Allow`.
 */
function methodNotListed(method: string, listed: string[]): MockResponse {
  const allow = [...listed, ...(listed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  if (method === 'OPTIONS')
    return { status: 204, headers: { Allow: allow }, body: undefined, code: 'OPTIONS' };
  const refused = fail(
    undefined,
    405,
    `Method ${method} is not allowed here: ${allow}`,
    'METHOD_NOT_ALLOWED',
  );
  return { ...refused, headers: { ...refused.headers, Allow: allow } };
}

type Route = Pick<Context, 'document' | 'operation' | 'pathParams'>;

/** The service a path belongs to: the image service under its base path, else the main one. */
function documentOf(imagesBase: string, request: MockRequest): DocumentName {
  return request.path.startsWith(`${imagesBase}/`) ? 'images' : 'main';
}

/** The operation the contract names for the request's method and path, or the answer instead. */
export function route(contract: Contract, imagesBase: string, request: MockRequest): Route | MockResponse {
  const document = documentOf(imagesBase, request);
  const path = document === 'images' ? request.path.slice(imagesBase.length) : request.path;
  let matched;
  try {
    matched = contract.match(document, request.method, path);
    // HEAD is GET without the body (RFC 9110 §9.3.2): node's server leaves the body out.
    if (request.method === 'HEAD' && !('operation' in matched) && matched.allowed.includes('GET'))
      matched = contract.match(document, 'GET', path);
  } catch {
    return fail(undefined, 400, 'The path holds a malformed percent-escape', 'MALFORMED_PATH');
  }
  if ('operation' in matched)
    return { document, operation: matched.operation, pathParams: matched.pathParams };
  const removed = document === 'images' ? removedImageMode(path) : undefined;
  if (removed) return { ...removed, code: 'REMOVED_MODE' };
  if (!matched.methodNotAllowed) return fail(undefined, 404, 'No such endpoint', 'UNKNOWN_PATH');
  return methodNotListed(request.method, matched.allowed);
}

/** What a handler is given for a request: its route, and its URL as the answer may name it. */
export function contextOf(
  contract: Contract,
  imagesBase: string,
  request: MockRequest,
  state: State,
  defects: Defects,
): Context | MockResponse {
  const routed = route(contract, imagesBase, request);
  if (!('operation' in routed)) return routed;
  // `requestUrl` and redirects never carry a key.
  const query = withoutKey(request.rawQuery ?? request.query.toString());
  return {
    request,
    ...routed,
    key: undefined,
    state,
    defects,
    requestUrl: `${request.origin}${request.path}${query}`,
  };
}

/** TLS-01: plain HTTP is sent on to HTTPS, the key left out of the location. */
function httpsOnly(context: Context, query: string): MockResponse | undefined {
  const { request, defects, operation } = context;
  if (defects.plainHttpServed || request.secure || !operation.rules.includes('TLS-01')) return undefined;
  const location = `${request.httpsOrigin}${request.path}${query}`;
  return {
    status: 301,
    headers: { Location: location },
    body: { message: `HTTPS only: use ${location}` },
    code: 'HTTPS_ONLY',
  };
}

/** The key, from the header or the query, against the whitelist; then the key's throttle. */
export function checkKey(context: Context, throttle: Throttle): MockResponse | undefined {
  const { request, defects, operation, state } = context;
  if (!operation.security.some((requirement) => Object.keys(requirement).length > 0)) return undefined;
  const header = defects.headerKeyIgnored ? undefined : request.headers['x-api-key'];
  const fromQuery = defects.queryKeyIgnored ? null : request.query.get('apiKey');
  const presented = header ?? fromQuery ?? undefined;
  const anyKey = request.headers['x-api-key'] !== undefined || request.query.has('apiKey');
  if (!anyKey)
    return defects.missingKeyServed ? undefined : fail(context, 403, 'An API key is required', 'KEY_MISSING');
  context.key = presented === undefined ? undefined : state.keys.get(presented);
  const open = defects.unknownKeyServedOn || [];
  if (!context.key && !open.includes('*') && !open.includes(operation.id))
    return fail(context, 403, 'The API key is not in the whitelist', 'KEY_INVALID');
  const wait = throttle.take(presented ?? '');
  if (wait <= 0) return undefined;
  const seconds = Math.max(1, Math.ceil(wait));
  const response = fail(
    context,
    429,
    `Too many requests for this API key; retry after ${seconds} s`,
    'THROTTLED',
  );
  return { ...response, headers: { 'Retry-After': String(seconds) } };
}

/** No body where the operation takes none; no answer from a retired version. */
function checkBody(context: Context): MockResponse | undefined {
  const { request, operation, state } = context;
  if (!operation.requestBody && request.body && request.body.length > 0)
    return fail(context, 400, 'Not supported: do not supply a request body', 'BODY_NOT_SUPPORTED');
  if (operation.deprecated && state.v1Retirement)
    return fail(context, state.v1Retirement, 'This endpoint has been removed', 'RETIRED');
  return undefined;
}

export interface PipelineOptions {
  contract: Contract;
  state: State;
  /** The faults in force now: the mock switches them at run time. */
  faults: () => readonly Fault[];
  throttle: Throttle;
  /** Honour the faults a request asks for (`Prefer: faults=a,b`): for a mock reached as a live service. */
  control: boolean;
  /** A profile's behaviours, outside the faults: the service the faults break sits behind them. */
  steps?: readonly Step[];
}

/**
 * The mock's behaviour, knowing nothing of HTTP: route by the contract, then transport, key,
 * throttle and body checks, then the operation's handler; a profile's behaviours, then the faults
 * in force, wrap it. A request with no step in force goes straight to the clean steps.
 */
export function createPipeline(options: PipelineOptions) {
  const { contract, state, throttle } = options;
  const imagesBase = contract.basePath('images');
  const profile = options.steps ?? [];

  function handle(request: MockRequest, defects: Defects, seen?: Seen): MockResponse {
    if (seen) seen.document = documentOf(imagesBase, request);
    const context = contextOf(contract, imagesBase, request, state, defects);
    if (!('operation' in context)) return context;
    if (seen) seen.context = context;
    // The query as the answer may name it: the request URL's, without the key.
    const query = context.requestUrl.slice(`${request.origin}${request.path}`.length);
    const refused = httpsOnly(context, query) ?? checkKey(context, throttle) ?? checkBody(context);
    if (refused) return refused;
    const handler = HANDLERS[context.operation.id];
    if (!handler) return fail(context, 404, `The mock does not serve ${context.operation.id}`, 'NOT_SERVED');
    return handler(context);
  }

  const wrapped = (request: MockRequest, faults: readonly Fault[]): MockResponse =>
    withSteps([...profile, ...faults], handle)(request);

  const answer = (request: MockRequest): MockResponse => {
    const asked = options.control ? (request.asked ?? []) : [];
    const switched = options.faults();
    if (asked.length === 0)
      return switched.length + profile.length === 0 ? handle(request, CLEAN) : wrapped(request, switched);
    const unknown = unknownFaults(asked);
    if (unknown.length > 0)
      return fail(undefined, 400, `Prefer names unknown faults: ${unknown.join(', ')}`, 'UNKNOWN_FAULT');
    return wrapped(request, [...switched, ...asked.map(findFault)]);
  };

  return (request: MockRequest): MockResponse => {
    // A feed that publishes as time passes has, by now, published all it was to.
    state.catchUp();
    const response = answer(request);
    // The image service's errors come as HTML pages to a client that prefers them.
    const images = documentOf(imagesBase, request) === 'images';
    return images && prefersHtml(request.headers.accept) ? htmlErrors(response) : response;
  };
}

export type Pipeline = ReturnType<typeof createPipeline>;
