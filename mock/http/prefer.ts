const NONE: readonly string[] = Object.freeze([]);

/**
 * The faults a request asks for, `Prefer: faults=a,b` (Prism's way), decoded once per request: the
 * pipeline applies them and the request log names them. Node joins repeated headers with `, `.
 */
export function preferredFaults(prefer: string | string[] | undefined): readonly string[] {
  if (prefer === undefined) return NONE;
  const match = /(?:^|[;,]\s*)faults=([^;]*)/.exec([prefer].flat().join(', '));
  const names = (match?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : NONE;
}
