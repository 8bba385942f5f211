import type { Contract, DocumentName, Operation } from '../contract/index.ts';
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
