/** What one test saw, attached to it for the reporters: coverage, drift, retries, requests. */
export interface Observations {
  calls: { operation: string; status: number }[];
  drift: { operation: string; status: number; field: string }[];
  retries: { reason: string; url: string }[];
  requests: number;
  /** The last exchanges, redacted, for the failure attachment. */
  exchanges: { method: string; url: string; status: number; curl: string; body: string }[];
}

export const OBSERVATIONS_ATTACHMENT = 'clm-observations';

export function emptyObservations(): Observations {
  return { calls: [], drift: [], retries: [], requests: 0, exchanges: [] };
}
