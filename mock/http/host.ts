import type { Pipeline } from '../pipeline.ts';

/** The addresses that mean every interface, and the loopback address that reaches them here. */
export const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * On every interface, a client may know the mock by any name: links and redirects follow the Host
 * it used, so a feed's next link leads back to where it came from. On one address, the pipeline.
 */
export function followHost(
  pipeline: Pipeline,
  host: string,
  secure: boolean,
  ports: () => { https: number; http: number },
): Pipeline {
  if (!(host in WILDCARDS)) return pipeline;
  return (request) => {
    const named = request.headers.host;
    if (named === undefined || !HOST_HEADER.test(named)) return pipeline(request);
    const hostname = named.replace(/:\d+$/, '');
    const origin = `${secure ? 'https' : 'http'}://${named}`;
    const httpsNamed = secure ? origin : `https://${hostname}:${ports().https}`;
    const httpNamed = secure ? `http://${hostname}:${ports().http}` : origin;
    return pipeline({ ...request, origin, httpsOrigin: httpsNamed, httpOrigin: httpNamed });
  };
}
