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
    try {
      const found = contract.match(document, method, url.slice(base.length).split('?')[0]!);
      return 'operation' in found ? found.operation : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
