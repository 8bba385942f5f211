import type { Contract, DocumentName, Operation } from '../contract/index.ts';
import type { TargetKind } from '../config.ts';
import type { CallOptions, Target } from './types.ts';

/** The operation a URL names on a target, if the contract has one. */
export function operationAt(
  contract: Contract,
  target: Target,
  requestMethod: string,
  url: string,
): Operation | undefined {
  // HEAD is GET without the body (RFC 9110 §9.3.2): its answer is checked as GET's.
  const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
  const bases: [DocumentName, string | undefined][] = [
    ['images', target.imagesUrl],
    ['main', target.baseUrl],
    ['main', target.httpBaseUrl],
  ];
  for (const [document, base] of bases) {
    if (!base || !url.startsWith(`${base}/`)) continue;
    const path = url.slice(base.length).split(/[?#]/)[0]!;
    // A path with one trailing slash names the same operation: a gateway serves both, and real
    // next links end so (`/content/notifications/?page=…`).
    for (const candidate of path.length > 1 && path.endsWith('/') ? [path, path.slice(0, -1)] : [path]) {
      try {
        const found = contract.match(document, method, candidate);
        if ('operation' in found) return found.operation;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
  return undefined;
}

/** The image service's root, its version left off (`…/image/v2` → `…/image`): v1 lives there too. */
function imageServiceRoot(target: Target): string | undefined {
  return target.imagesUrl?.replace(/\/v\d+$/, '');
}

/** The service a URL is on, any version of the image service included; undefined for another origin. */
export function documentAt(target: Target, url: string): DocumentName | undefined {
  const root = imageServiceRoot(target);
  if (root && url.startsWith(`${root}/`)) return 'images';
  return [target.baseUrl, target.httpBaseUrl].some((base) => base && url.startsWith(`${base}/`))
    ? 'main'
    : undefined;
}

/**
 * A URL to the image service with the target's `source` (the real service refuses a request without
 * one), appended as written: unless the URL names its own, or the call leaves it out.
 */
export function withImageSource(target: Target, url: string, options: CallOptions): string {
  if (options.imageSource === false || !target.imageSource || documentAt(target, url) !== 'images')
    return url;
  const [beforeHash = ''] = url.split('#');
  const query = beforeHash.includes('?') ? beforeHash.slice(beforeHash.indexOf('?') + 1) : undefined;
  if (query !== undefined && new URLSearchParams(query).has('source')) return url;
  const source = `source=${encodeURIComponent(target.imageSource)}`;
  return `${beforeHash}${query === undefined ? '?' : query === '' ? '' : '&'}${source}${url.slice(beforeHash.length)}`;
}

/**
 * What a target can promise the tests, named by what a test relies on: a test asks for a promise,
 * never for the kind of target. Only `promisesOf` knows which kind promises what; the client's
 * checks ask it too.
 */
export interface Promises {
  /**
   * The suite owns the data and the clock: seeded, fixed, the same every run and put back before
   * each test. Exact expectations of the data hold (a full page, an active licence, a chain that
   * reaches its end), and a test may change the data through the mock.
   */
  controlsData: boolean;
  /**
   * Every question the interface leaves open is answered as this project decided (upper-case
   * change types, milliseconds, a 400 saying "Not supported", `Allow` lists, the edge sizes served,
   * a redirect to HTTPS): expected, where another answer of a live service is drift or a skip.
   * The decisions and the other answers allowed are rows of `../decisions.ts`; tests read them there.
   */
  strict: boolean;
  /** Requests cost nothing (no budget, no pace): a test walks, samples and draws in full. */
  unmetered: boolean;
  /** Any request may go, unsafe methods and writes too: never a production service. */
  unsafeRequests: boolean;
  /** Every operation of the contract is served, the deprecated ones too: none is retired (DEPR-01). */
  servesDeprecated: boolean;
}

const MOCK_PROMISES: Promises = {
  controlsData: true,
  strict: true,
  unmetered: true,
  unsafeRequests: true,
  servesDeprecated: true,
};

const LIVE_PROMISES: Promises = {
  controlsData: false,
  strict: false,
  unmetered: false,
  unsafeRequests: false,
  servesDeprecated: false,
};

/** What a kind of target promises. */
export const promisesOf = (kind: TargetKind): Promises => (kind === 'mock' ? MOCK_PROMISES : LIVE_PROMISES);
