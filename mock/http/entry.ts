import type { IncomingMessage, ServerResponse } from 'node:http';
import { unknownFaults, type Fault } from '../faults/index.ts';
import type { Docs } from './docs.ts';
import { logRequest, type RequestLogEntry } from './log.ts';
import { preferredFaults } from './prefer.ts';

const NONE: readonly string[] = Object.freeze([]);

export interface EntryOptions {
  secure: boolean;
  /** Honour `Prefer: faults=…`. */
  control: boolean;
  /** The faults switched on now. */
  faults: () => readonly Fault[];
  docs: Docs | undefined;
  onRequest: ((entry: RequestLogEntry) => void) | undefined;
}

/**
 * Where a request goes first: `Prefer` decoded once (when honoured), the log told (when kept), then
 * the docs or the service. A request with no log and no control does none of that work.
 */
export function entry(
  service: (req: IncomingMessage, res: ServerResponse, asked: readonly string[]) => void,
  options: EntryOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { secure, control, docs, onRequest } = options;
  return (req, res) => {
    const asked = control ? preferredFaults(req.headers.prefer) : NONE;
    const isDocs = docs !== undefined && docs.owns(req.url ?? '/');
    if (onRequest) {
      const applied = isDocs
        ? []
        : [...options.faults().map((f) => f.name), ...(unknownFaults(asked).length > 0 ? [] : asked)];
      logRequest(onRequest, req, res, secure, applied);
    }
    if (isDocs) void docs.serve(req, res);
    else service(req, res, asked);
  };
}
