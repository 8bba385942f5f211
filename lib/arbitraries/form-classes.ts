import type { RequestForm } from '../client/types.ts';
import type { Parameter } from '../contract/index.ts';

/** The classes of form, each sent at least once per run where the operation has what it varies. */
export const FORM_CLASSES = [
  'header-name:lower',
  'header-name:upper',
  'auth-scheme:lower',
  'auth-scheme:upper',
  'media-type:parameter',
  'media-type:case',
  'accept:weighted',
  'query:repeated',
  'query:percent-encoded',
  'path:percent-encoded',
  'uuid:upper',
  'case:upper',
  'case:lower',
  'text:grapheme',
  'text:binary',
  'text:quotes',
  'integer:edge',
] as const;

export type FormClass = (typeof FORM_CLASSES)[number];

/** The order an operation's forms go in: its own first (a token, a body, an integer), the generic last. */
export const FORM_PRIORITY = [
  'uuid',
  'auth',
  'media',
  'case',
  'integer',
  'text',
  'path',
  'query',
  'accept',
  'header',
];

/** What a form changes in the plain request. */
export type FormChange =
  /** How the client writes the request on the wire. */
  | { wire: RequestForm }
  /** A header set to this value (`Content-Type`, `Accept`). */
  | { header: string; value: string }
  /** A parameter's value, in place of the plain request's. */
  | { parameter: Parameter; value: string }
  /** A property of the JSON body, by its path. */
  | { body: string[]; value: unknown }
  /** A path parameter from the target's data, in upper case. */
  | { upper: string };

export interface HttpForm {
  form: FormClass;
  /** What it varies: `header X-Api-Key`, `query since`, `body.queryString`, `(request)`. */
  at: string;
  /** The way it was drawn, for the report: `1000`, `2^31`, the text's unit. */
  drawn?: string;
  change: FormChange;
  /**
   * What it is held to: `answer`, the plain form's answer, as HTTP, URI syntax or the contract
   * promise it; `decision`, the interface leaves it open, the mock serves it as the plain form (its
   * decision) and a live service is held to no 5xx; `no-5xx`, text in a string whose meaning is in
   * prose, which a service may refuse, everywhere held to no 5xx.
   */
  held: 'answer' | 'decision' | 'no-5xx';
}
