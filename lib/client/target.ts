import type { Contract, DocumentName, Operation } from '../contract/index.ts';
import type { Target } from './types.ts';

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
