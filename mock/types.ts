import type { DocumentName, Operation } from '../lib/contract/index.ts';
import type { Defects } from './behaviour.ts';
import type { ApiKey, State } from './state/index.ts';

/** A request as the mock's pipeline sees it: parsed, bounded, and free of node's http types. */
export interface MockRequest {
  method: string;
  /** The path as requested, before any decoding, e.g. `/licence/abc`. */
  path: string;
  query: URLSearchParams;
  /** The query string as written, without `?`, for echoing it unchanged. */
  rawQuery?: string;
  /** The request-target as written: origin-form (`/licence/abc?x=1`) or absolute-form (`https://host/…`). */
  target?: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** Header names as the client wrote them, in their order (a fault may read them case-sensitively). */
  rawHeaderNames?: readonly string[];
  body?: Buffer;
  /** Whether the request came over HTTPS. */
  secure: boolean;
  /** The origin this request reached, e.g. `https://127.0.0.1:8443`. */
  origin: string;
  /** The HTTPS origin of the mock, where plain-HTTP requests are sent on to. */
  httpsOrigin: string;
  /** The plain-HTTP origin of the mock, which a profile's links may name. */
  httpOrigin: string;
  /** The faults this request asks for with `Prefer: faults=…`, when the mock honours it. */
  asked?: readonly string[];
}

/** A body already serialised as JSON, sent as it is: parts of UTF-8 text and cached bytes, never copied. */
export class RawJson {
  readonly parts: Buffer[];
  readonly length: number;

  constructor(parts: (string | Buffer)[]) {
    this.parts = parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
    this.length = this.parts.reduce((sum, part) => sum + part.length, 0);
  }

  toString(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

/**
 * A body still to be made (an image to transform): handlers are synchronous, image work is not. The
 * work starts when the adapter asks for the bytes, so a fault that replaces the body costs nothing.
 */
export class PendingBytes {
  private made: Promise<Buffer> | undefined;

  constructor(private readonly make: () => Promise<Buffer>) {}

  bytes(): Promise<Buffer> {
    return (this.made ??= this.make());
  }

  /** The same body, changed once it is made. */
  map(change: (bytes: Buffer) => Buffer): PendingBytes {
    return new PendingBytes(() => this.bytes().then(change));
  }
}

/** The names of the responses the pipeline makes itself, before or instead of a handler. */
export type ResponseCode =
  | 'MALFORMED_PATH'
  | 'UNKNOWN_PATH'
  | 'METHOD_NOT_ALLOWED'
  | 'OPTIONS'
  | 'REMOVED_MODE'
  | 'HTTPS_ONLY'
  | 'KEY_MISSING'
  | 'KEY_INVALID'
  | 'THROTTLED'
  | 'BODY_NOT_SUPPORTED'
  | 'RETIRED'
  | 'NOT_SERVED'
  | 'UNKNOWN_FAULT';

export interface MockResponse {
  status: number;
  headers?: Record<string, string>;
  /**
   * A JSON value, pre-serialised JSON, or raw bytes (with their own `Content-Type` header), made now
   * or pending.
   */
  body?: unknown;
  /** A stable name for a response the pipeline itself made, for faults and logs. */
  code?: ResponseCode;
  /**
   * The answer when a pending body cannot be made, given why: by default a 400 JSON error
   * (`untransformable`), so a step may still shape an error that comes only after it.
   */
  failed?: (reason: string) => MockResponse;
}

/** What a handler gets: the matched operation, the state, and the defects switched on. */
export interface Context {
  request: MockRequest;
  operation: Operation;
  pathParams: Record<string, string>;
  key: ApiKey | undefined;
  state: State;
  defects: Defects;
  /** The URL requested, absolute, without the key (never echo a key). */
  requestUrl: string;
  document: DocumentName;
}

export type Handler = (context: Context) => MockResponse;
