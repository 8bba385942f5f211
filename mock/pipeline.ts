import type { Contract, DocumentName } from '../lib/contract/index.ts';
import type { Behaviour } from './behaviour.ts';
import { findFault, unknownFaults, withFaults, type Fault } from './faults/index.ts';
import { HANDLERS } from './handlers/index.ts';
import { removedImageMode } from './handlers/images.ts';
import { withoutKey } from './key-in-query.ts';
import { fail } from './handlers/respond.ts';
import type { State } from './state/index.ts';
import type { Throttle } from './throttle.ts';
import type { Context, MockRequest, MockResponse } from './types.ts';

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

/**
 * The mock's behaviour, knowing nothing of HTTP: route by the contract, then transport, key,
 * throttle and body checks, then the operation's handler; the faults in force rewrite the result.
 */
export function createPipeline(options: {
  contract: Contract;
  state: State;
  /** The faults in force now: the mock switches them at run time. */
  faults: () => readonly Fault[];
  throttle: Throttle;
  /** Honour `Prefer: faults=a,b` on a request (Prism's way): for a mock reached as a live service. */
  control: boolean;
}) {
  const { contract, state, throttle } = options;
  const imagesBase = contract.basePath('images');

  function handle(request: MockRequest, behaviour: Behaviour, set: (context: Context) => void): MockResponse {
    const document: DocumentName = request.path.startsWith(`${imagesBase}/`) ? 'images' : 'main';
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
    if (!('operation' in matched)) {
      const removed = document === 'images' ? removedImageMode(path) : undefined;
      if (removed) return { ...removed, code: 'REMOVED_MODE' };
      if (!matched.methodNotAllowed) return fail(undefined, 404, 'No such endpoint', 'UNKNOWN_PATH');
      return methodNotListed(request.method, matched.allowed);
    }
    const { operation, pathParams } = matched;
    // `requestUrl` and redirects never carry a key.
    const query = withoutKey(request.rawQuery ?? request.query.toString());
    const context: Context = {
      request,
      operation,
      pathParams,
      key: undefined,
      state,
      behaviour,
      requestUrl: `${request.origin}${request.path}${query}`,
      document,
    };
    set(context);

    if (behaviour.httpsOnly && !request.secure && operation.rules.includes('TLS-01')) {
      const location = `${request.httpsOrigin}${request.path}${query}`;
      return {
        status: 301,
        headers: { Location: location },
        body: { message: `HTTPS only: use ${location}` },
        code: 'HTTPS_ONLY',
      };
    }

    if (operation.security.some((requirement) => Object.keys(requirement).length > 0)) {
      const header = behaviour.acceptHeaderKey ? request.headers['x-api-key'] : undefined;
      const fromQuery = behaviour.acceptQueryKey ? request.query.get('apiKey') : null;
      const presented = header ?? fromQuery ?? undefined;
      const anyKey = request.headers['x-api-key'] !== undefined || request.query.has('apiKey');
      if (!anyKey && !behaviour.acceptMissingKey)
        return fail(context, 403, 'An API key is required', 'KEY_MISSING');
      if (anyKey) {
        context.key = presented === undefined ? undefined : state.keys.get(presented);
        const openToAny =
          behaviour.unknownKeyAcceptedOn.includes('*') ||
          behaviour.unknownKeyAcceptedOn.includes(operation.id);
        if (!context.key && !openToAny)
          return fail(context, 403, 'The API key is not in the whitelist', 'KEY_INVALID');
        const wait = throttle.take(presented ?? '');
        if (wait > 0) {
          const seconds = Math.max(1, Math.ceil(wait));
          const response = fail(
            context,
            429,
            `Too many requests for this API key; retry after ${seconds} s`,
            'THROTTLED',
          );
          return { ...response, headers: { 'Retry-After': String(seconds) } };
        }
      }
    }

    if (!operation.requestBody && request.body && request.body.length > 0)
      return fail(context, 400, 'Not supported: do not supply a request body', 'BODY_NOT_SUPPORTED');

    if (operation.deprecated && state.v1Retirement)
      return fail(context, state.v1Retirement, 'This endpoint has been removed', 'RETIRED');

    const handler = HANDLERS[operation.id];
    if (!handler) return fail(context, 404, `The mock does not serve ${operation.id}`, 'NOT_SERVED');
    return handler(context);
  }

  return (request: MockRequest): MockResponse => {
    const preferred = options.control ? preferredFaults(request) : [];
    const unknown = unknownFaults(preferred);
    if (unknown.length > 0)
      return fail(undefined, 400, `Prefer names unknown faults: ${unknown.join(', ')}`, 'UNKNOWN_FAULT');
    const faults = [...options.faults(), ...preferred.map(findFault)];
    return withFaults(faults, (req, behaviour, seen) => handle(req, behaviour, (c) => (seen.context = c)))(
      request,
    );
  };
}

/** The faults a request asks for: `Prefer: faults=a,b`. */
export function preferredFaults(request: Pick<MockRequest, 'headers'>): string[] {
  const prefer = request.headers.prefer ?? '';
  const match = /(?:^|[;,]\s*)faults=([^;]*)/.exec(prefer);
  return (match?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

export type Pipeline = ReturnType<typeof createPipeline>;
