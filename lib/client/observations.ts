/** What one test saw, attached to it for the reporters: coverage, drift, retries, requests, findings. */
export interface Observations {
  /** Each answer matched to an operation; `ms` is its time, where it was measured. */
  calls: { operation: string; status: number; ms?: number }[];
  /** Fields the contract does not name, or expectations beyond the contract (`note` says which). */
  drift: { operation: string; status: number; field: string; note?: string }[];
  retries: { reason: string; url: string }[];
  requests: number;
  /** Automatic checks that failed, with the rules they belong to. */
  findings: { check: string; title: string; rules: string[] }[];
  /** What deprecated operations said of themselves: RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link` rel=deprecation. */
  deprecations: { operation: string; deprecation?: string; sunset?: string; link?: string }[];
  /** The last exchanges, redacted, for the failure attachment and the findings. */
  exchanges: { method: string; url: string; status: number; curl: string; body: string }[];
  /** Where the test ran, for its replay: the faults switched on, and a base URL shown in place of the run's own. */
  replay?: { faults: string[]; origins: Record<string, string>; mockCommand?: string };
}

export const OBSERVATIONS_ATTACHMENT = 'clm-observations';

export function emptyObservations(): Observations {
  return { calls: [], drift: [], retries: [], requests: 0, findings: [], deprecations: [], exchanges: [] };
}

/** A deprecated operation's signals, once per distinct set: never a failure, reported per operation. */
export function recordDeprecation(
  observations: Observations,
  operation: string,
  headers: Record<string, string>,
) {
  const link = headers.link
    ?.split(/,(?=\s*<)/)
    .find((l) => /rel="?deprecation"?/i.test(l))
    ?.trim();
  const seen = { operation, deprecation: headers.deprecation, sunset: headers.sunset, link };
  const same = (d: Observations['deprecations'][number]) => JSON.stringify(d) === JSON.stringify(seen);
  if (!observations.deprecations.some(same)) observations.deprecations.push(seen);
}
