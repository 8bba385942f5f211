import type { Contract, DocumentName, Operation } from '../contract/index.ts';

/** One request and its response, as the checks see it. */
export interface Exchange {
  operation: Operation | undefined;
  /** The service the URL is on, when it is a configured one: its document's rules apply. */
  document?: DocumentName;
  method: string;
  /** The URL sent, without the key. */
  url: string;
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** The rules that state what status the request must get (the call's `decides`). */
  decides?: readonly string[];
}

export interface CheckContext {
  contract: Contract;
  /** Values that must never come back in a response: keys and tokens sent or configured. */
  secrets: string[];
  /** Expectations beyond the interface fail (the bundled mock) rather than drift (a live service). */
  strict: boolean;
}

/** What a check found wrong: a title, the rule that owns it, what was expected and what came. */
export interface CheckFailure {
  check: string;
  title: string;
  /**
   * The rule that owns what broke (the schema node's, the status's, the check's own); empty when
   * no rule of the contract states it (an undocumented status): the test's own rules then.
   */
  rules: string[];
  expected: string;
  received: string;
  /** Where in the answer it broke (`notifications (maxItems)`): one finding per rule and place. */
  place?: string;
}

export type Check = (exchange: Exchange, context: CheckContext) => CheckFailure | CheckFailure[] | undefined;
