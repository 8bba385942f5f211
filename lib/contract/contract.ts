import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileStrict } from './ajv.ts';
import { hasExpectation, strictVariant } from './expect.ts';
import { DOCUMENTS, loadDocument, type DocumentName } from './load.ts';
import { loadRules, type Rule } from './rules.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type Method = (typeof METHODS)[number];

export type Parameter = OpenAPIV3_1.ParameterObject & { schema?: OpenAPIV3_1.SchemaObject };
export type Response = OpenAPIV3_1.ResponseObject & { 'x-rules'?: string[]; 'x-decision'?: boolean };

export interface Operation {
  id: string;
  document: DocumentName;
  method: Method;
  /** The path template as the contract writes it, e.g. `/licence/{licenceId}`. */
  path: string;
  /** The template split into segments: a string is literal, `{name}` a parameter. */
  segments: { literal?: string; param?: string }[];
  summary: string;
  deprecated: boolean;
  rules: string[];
  parameters: Parameter[];
  requestBody?: OpenAPIV3_1.RequestBodyObject;
  responses: Record<string, Response>;
  security: OpenAPIV3_1.SecurityRequirementObject[];
  raw: OpenAPIV3_1.OperationObject & { 'x-rules'?: string[] };
}

export interface Match {
  operation: Operation;
  pathParams: Record<string, string>;
}

/**
 * The media type without parameters, lower case: `application/json; charset=utf-8` →
 * `application/json`.
 */
export function baseMediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A response body's validator, compiled when first asked for: a worker pays only for what it checks. */
type Lazy = () => ValidateFunction;

/** The contract, bundled and indexed once: operations, path matching, response validators. */
export class Contract {
  readonly operations = new Map<string, Operation>();
  private readonly validators = new Map<string, Lazy>();
  /** Strict variants (every `x-expect` merged), for the responses whose schema holds one. */
  private readonly expectations = new Map<string, Lazy>();

  constructor(
    readonly documents: Record<DocumentName, OpenAPIV3_1.Document>,
    readonly rules: Rule[],
  ) {
    for (const name of Object.keys(documents) as DocumentName[]) this.index(name, documents[name]);
    this.indexSchemas();
  }

  /** Compiles every response schema now: a schema that does not compile throws, naming it. */
  compileAll(): void {
    for (const lazy of [...this.validators.values(), ...this.expectations.values()]) lazy();
  }

  operation(id: string): Operation {
    const op = this.operations.get(id);
    if (!op) throw new Error(`The contract has no operation "${id}"`);
    return op;
  }

  /** The path of the document's first server, e.g. `/__origami/service/image/v2` ('' for none). */
  basePath(document: DocumentName): string {
    const url = this.documents[document].servers?.[0]?.url ?? '';
    const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
    return path.replace(/\/$/, '');
  }

  /**
   * Finds the operation for a method and a path relative to the document's server. Literal segments
   * win over templated ones (`/content/notifications` before `/content/{itemId}`), as OpenAPI says.
   * Returns undefined for an unknown path; `methodNotAllowed` is true when the path exists but the
   * method does not, with the methods the path's best-matching template has (`allowed`, upper
   * case). Path parameters are percent-decoded; a malformed escape throws `URIError`.
   */
  match(
    document: DocumentName,
    method: string,
    path: string,
  ): (Match & { methodNotAllowed?: false }) | { methodNotAllowed: boolean; allowed: string[] } {
    const parts = path.split('/').slice(1);
    let best: { op: Operation; score: number[] } | undefined;
    let pathKnown = false;
    let template: { score: number[]; methods: string[] } | undefined;
    for (const op of this.operations.values()) {
      if (op.document !== document || op.segments.length !== parts.length) continue;
      const score: number[] = [];
      let ok = true;
      op.segments.forEach((seg, i) => {
        if (seg.literal !== undefined) {
          if (seg.literal !== parts[i]) ok = false;
          score.push(1);
        } else {
          if (parts[i] === '') ok = false;
          score.push(0);
        }
      });
      if (!ok) continue;
      pathKnown = true;
      const order = template ? compareScores(score, template.score) : 1;
      if (order > 0) template = { score, methods: [op.method.toUpperCase()] };
      else if (order === 0) template!.methods.push(op.method.toUpperCase());
      if (op.method !== method.toLowerCase()) continue;
      if (!best || compareScores(score, best.score) > 0) best = { op, score };
    }
    if (!best) return { methodNotAllowed: pathKnown, allowed: template?.methods ?? [] };
    const pathParams: Record<string, string> = {};
    best.op.segments.forEach((seg, i) => {
      if (seg.param) pathParams[seg.param] = decodeURIComponent(parts[i]!);
    });
    return { operation: best.op, pathParams };
  }

  /** Statuses the contract documents for an operation, as written (`200`, `4XX`, `default`). */
  documentedStatuses(operationId: string): string[] {
    return Object.keys(this.operation(operationId).responses);
  }

  /** The documented response for a status: exact, then its range (`4XX`), then `default`. */
  response(operationId: string, status: number): { key: string; response: Response } | undefined {
    const responses = this.operation(operationId).responses;
    for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
      const response = responses[key];
      if (response) return { key, response };
    }
    return undefined;
  }

  /**
   * The media types a document answers its errors in (every 4xx of its operations): what a request
   * that no operation matches may be answered with. JSON when the document has none.
   */
  errorMediaTypes(document: DocumentName): string[] {
    const types = new Set<string>();
    for (const op of this.operations.values())
      if (op.document === document)
        for (const [status, response] of Object.entries(op.responses))
          if (status.startsWith('4')) for (const type of Object.keys(response.content ?? {})) types.add(type);
    return types.size > 0 ? [...types] : ['application/json'];
  }

  /** The compiled validator for a response body, or undefined when none is documented. */
  validatorFor(operationId: string, status: number, mediaType: string): ValidateFunction | undefined {
    return this.compiled(this.validators, operationId, status, mediaType);
  }

  /**
   * The compiled strict variant of a response body's schema: the base plus every `x-expect` in it.
   * Undefined when the response expects nothing beyond its guarantee. A body the base accepts and
   * this rejects is drift, to be reported with `expectationWarnings`, never failed.
   */
  expectationFor(operationId: string, status: number, mediaType: string): ValidateFunction | undefined {
    return this.compiled(this.expectations, operationId, status, mediaType);
  }

  private compiled(
    from: Map<string, Lazy>,
    operationId: string,
    status: number,
    mediaType: string,
  ): ValidateFunction | undefined {
    const found = this.response(operationId, status);
    if (!found) return undefined;
    return from.get(validatorKey(operationId, found.key, baseMediaType(mediaType)))?.();
  }

  private index(document: DocumentName, doc: OpenAPIV3_1.Document): void {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (!item) continue;
      for (const method of METHODS) {
        const raw = item[method] as Operation['raw'] | undefined;
        if (!raw) continue;
        const id = raw.operationId;
        if (!id)
          throw new Error(`${DOCUMENTS[document]}: ${method.toUpperCase()} ${path} has no operationId`);
        if (this.operations.has(id)) throw new Error(`operationId "${id}" is used twice`);
        const parameters = [...(item.parameters ?? []), ...(raw.parameters ?? [])] as Parameter[];
        this.operations.set(id, {
          id,
          document,
          method,
          path,
          segments: path
            .split('/')
            .slice(1)
            .map((s) => (/^\{.+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s })),
          summary: raw.summary ?? '',
          deprecated: raw.deprecated === true,
          rules: raw['x-rules'] ?? [],
          parameters,
          requestBody: raw.requestBody as OpenAPIV3_1.RequestBodyObject | undefined,
          responses: (raw.responses ?? {}) as Record<string, Response>,
          security: raw.security ?? doc.security ?? [],
          raw,
        });
      }
    }
  }

  private indexSchemas(): void {
    for (const op of this.operations.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [mediaType, media] of Object.entries(response.content ?? {})) {
          const schema = media.schema;
          if (!schema) continue;
          const key = validatorKey(op.id, status, baseMediaType(mediaType));
          this.validators.set(
            key,
            compileOnce(() => schema, `The schema of ${key}`),
          );
          if (hasExpectation(schema))
            this.expectations.set(
              key,
              compileOnce(() => strictVariant(schema), `The expectations (x-expect) of ${key}`),
            );
        }
      }
    }
  }
}

function compileOnce(schema: () => object, what: string): Lazy {
  let compiled: ValidateFunction | Error | undefined;
  return () => {
    if (compiled === undefined)
      try {
        compiled = compileStrict(schema());
      } catch (error) {
        // Remembered: a schema that does not compile is not compiled again on every answer.
        compiled = new Error(`${what} does not compile: ${(error as Error).message}`);
      }
    if (compiled instanceof Error) throw compiled;
    return compiled;
  };
}

function validatorKey(operationId: string, status: string, mediaType: string): string {
  return `${operationId} ${status} ${mediaType}`;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

let loaded: Promise<Contract> | undefined;

/** The contract of this project, loaded once per process. */
export function loadContract(): Promise<Contract> {
  loaded ??= (async () => {
    const [main, images] = await Promise.all([loadDocument('main'), loadDocument('images')]);
    return new Contract({ main, images }, loadRules());
  })();
  return loaded;
}
