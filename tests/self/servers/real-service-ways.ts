/**
 * What the real service does that the interface allows or leaves open (FACTS.md: the image service
 * and the gateway), as pure rewrites of one answer of the bundled mock: the tolerant proxy applies
 * those switched on, so a live run can be proven green against them.
 */

export const REAL_SERVICE_WAYS = [
  /** Every error of the image service is an HTML page. */
  'image-errors-html',
  /** The image service refuses a request without `source` (400), on every route. */
  'image-source-required',
  /** The image service's code sets no bound on a side: past 65,000 it serves. */
  'image-sides-unbounded',
  /** A search hit may lack `apiUrl` (a podcast hit). */
  'search-hit-without-api-url',
  /** A 403 of the content endpoints is `{"error": "access denied"}`. */
  'content-403-error',
] as const;
export type RealServiceWay = (typeof REAL_SERVICE_WAYS)[number];

/** One answer on its way through the proxy. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const MAX_SIDE = 65_000;
/** A 1x1 PNG: what a side past the limit is served as (the suite asks only for no 5xx then). */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

function htmlPage(status: number): Answer {
  const page = `<!DOCTYPE html><html><head><title>Error</title></head><body><h1>${status}</h1></body></html>`;
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(page) };
}

/** An image request past 65,000 a side (`dpr` counted), which the mock refuses, served instead. */
function servedPastSide(mode: string, query: URLSearchParams, answer: Answer): Answer | undefined {
  // Only sizes written well: another 400 (a malformed width, say) stands.
  const sizes = ['width', 'height', 'dpr'].map((name) => query.get(name) ?? (name === 'dpr' ? '1' : '0'));
  if (answer.status !== 400 || !sizes.every((size) => /^\d{1,9}$/.test(size))) return undefined;
  const [width, height] = sizes.slice(0, 2).map((size) => Number(size) * Number(sizes[2]));
  if (Math.max(width!, height!) <= MAX_SIDE) return undefined;
  if (mode === 'raw') return { status: 200, headers: { 'content-type': 'image/png' }, body: PIXEL };
  if (mode !== 'metadata') return undefined;
  const metadata = { dpr: Number(sizes[2]), type: 'image/png', filesize: PIXEL.length, width, height };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: json(metadata) };
}

/** The last hit of each group of a search answer without its `apiUrl`. */
function lastHitBare(body: Buffer): Buffer {
  const answer = JSON.parse(body.toString('utf8')) as { results?: { results?: Record<string, unknown>[] }[] };
  for (const group of answer.results ?? []) delete group.results?.at(-1)?.apiUrl;
  return json(answer);
}

/**
 * The answer to a request (path and query, as received) as the real service would give it, for the
 * ways switched on. `imagesPath` is the image service's v2 path; its root (v1 too) is the service's.
 */
export function asRealService(
  on: ReadonlySet<string>,
  target: string,
  imagesPath: string,
  answer: Answer,
): Answer {
  const [path = '', search = ''] = target.split('?');
  const query = new URLSearchParams(search);
  const imageRoot = imagesPath.replace(/\/v\d+$/, '');
  if (path.startsWith(`${imageRoot}/`)) {
    const mode = /\/images\/([^/]+)\//.exec(path)?.[1] ?? '';
    let real = answer;
    if (on.has('image-source-required') && !query.has('source'))
      real = {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: json({ message: 'no source' }),
      };
    else if (on.has('image-sides-unbounded')) real = servedPastSide(mode, query, answer) ?? answer;
    return on.has('image-errors-html') && real.status >= 400 ? htmlPage(real.status) : real;
  }
  if (on.has('search-hit-without-api-url') && path === '/content/search/v1' && answer.status === 200)
    return { ...answer, body: lastHitBare(answer.body) };
  if (on.has('content-403-error') && /^\/(content|enrichedcontent)\//.test(path) && answer.status === 403)
    return { ...answer, body: json({ error: 'access denied' }) };
  return answer;
}
