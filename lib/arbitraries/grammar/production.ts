import type { RequestForm } from '../../client/types.ts';
import type { Contract, Operation, Parameter } from '../../contract/index.ts';

/**
 * A request as a value drawn from grammars: each standard a request travels under is a module of
 * named productions (`rfc9110:accept-language:weighted`), each drawn only where the request stays
 * valid (the answer owed is the plainest form's) or where the contract says what the answer must be.
 */

/** The standards a request is drawn from, and the contract itself. */
export const GRAMMARS = ['rfc9110', 'rfc9112', 'rfc3986', 'rfc8259', 'contract'] as const;

export type GrammarName = (typeof GRAMMARS)[number];

export interface Production {
  /** `<grammar>:<rule>:<form>`, stable across runs: what the report counts. */
  name: string;
  /** What it writes, and the section that makes it the same request. */
  summary: string;
  /** Why the module never draws it: it would change the answer, or no client may send it. */
  never?: string;
}

/** How a JSON body is written (RFC 8259): each a way to write the same value. */
export type JsonSyntax = 'ws' | 'reversed' | 'unicode-escape' | 'solidus-escape' | 'exponent' | 'fraction';

/** What a form changes in the plain request. */
export type FormChange =
  /** How the client writes the request on the wire. */
  | { wire: RequestForm }
  /** Header fields set to these values (`Accept`, `Cache-Control`, `TE` with its `Connection`). */
  | { headers: Record<string, string> }
  /** A parameter's value, in place of the plain request's. */
  | { parameter: Parameter; value: string }
  /** A property of the JSON body, by its path. */
  | { body: string[]; value: unknown }
  /** How the JSON body is written, the same value. */
  | { json: JsonSyntax[] }
  /** A path parameter from the target's data, in upper case. */
  | { upper: string };

export interface HttpForm {
  /** The production it draws. */
  production: string;
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

/** What a grammar reads to draw one operation's forms. */
export interface GrammarInput {
  contract: Contract;
  op: Operation;
  seed: number;
  /** The parameters only the target's data can give (identifiers, the feed's page token). */
  fromData: (p: Parameter) => boolean;
}

export interface Grammar {
  name: GrammarName;
  /** Every production of the module, drawn or not, each named once. */
  productions: readonly Production[];
  /** The forms of one operation, in a stable order: the same contract and seed give the same forms. */
  forms: (input: GrammarInput) => HttpForm[];
}

/** The productions of a module, each named under it. */
export function productions(
  grammar: GrammarName,
  list: readonly (Omit<Production, 'name'> & { rule: string })[],
): Production[] {
  return list.map(({ rule, ...rest }) => ({ name: `${grammar}:${rule}`, ...rest }));
}

/** Whether an operation takes the key or a token: its requests carry credentials to write. */
export const keyed = (op: Operation) => op.security.some((r) => Object.keys(r).length > 0);

/** Whether an operation takes a JSON body. */
export const jsonBodied = (op: Operation) => op.requestBody?.content?.['application/json'] !== undefined;

/** The query parameter a form repeats or encodes: the first required, else the first with a finite value. */
export function formQueryParameter(
  op: Operation,
  fromData: (p: Parameter) => boolean,
): Parameter | undefined {
  const query = op.parameters.filter((p) => p.in === 'query' && !p.deprecated && !fromData(p));
  return (
    query.find((p) => p.required) ?? query.find((p) => p.schema?.enum || p.schema?.default !== undefined)
  );
}
