import { DAY, iso } from '../time.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CallOptions } from '../client/client.ts';
import type { VARIABLES } from '../config.ts';
import type { Contract, Operation } from '../contract/index.ts';
import { pageLimit, type PageLimit } from './page-limit.ts';

/** What one side knows to ask with: the mock's examples, or the configured ids and token. */
export interface SideData {
  licenceId?: string;
  contentId?: string;
  pageId?: string;
  userId?: string;
  token?: string;
  imageUri?: string;
  /** The image service: without it, its operations cannot be asked. */
  imagesUrl?: string;
}
export type DataName = keyof SideData;

/** The variable that gives the configured service each datum, named when a request is skipped. */
export const DATA_VARIABLES: Record<DataName, keyof typeof VARIABLES> = {
  licenceId: 'CLM_LICENCE_ID',
  contentId: 'CLM_CONTENT_ID',
  pageId: 'CLM_PAGE_ID',
  userId: 'CLM_USER_ID',
  token: 'CLM_USER_TOKEN',
  imageUri: 'CLM_IMAGE_URI',
  imagesUrl: 'CLM_IMAGE_BASE_URL',
};

/** The datum that fills each path parameter of the contract. */
const PATH_DATA: Record<string, DataName> = {
  licenceId: 'licenceId',
  itemId: 'contentId',
  pageId: 'pageId',
  userId: 'userId',
  imageUri: 'imageUri',
};

/** An identifier no service holds: fixed, so every run asks the same. */
export const UNKNOWN_ID = 'd1ff0000-0000-4000-8000-000000000000';
/** A key no whitelist holds; not a secret, but shown as "a wrong key" all the same. */
export const WRONG_KEY = 'clm-diff-wrong-key-0000';
/** Optional query parameters that make an answer deterministic: a named caller, one output format. */
const FIXED_QUERY: Record<string, string> = { source: 'clm-conformance-diff', format: 'png' };

export type RequestKind =
  'success' | 'unknown-id' | 'no-key' | 'wrong-key' | 'since-missing' | 'since-future' | 'full-page';

const TITLES: Record<RequestKind, string> = {
  success: "with the side's own data and key",
  'unknown-id': 'an unknown identifier',
  'no-key': 'without a key',
  'wrong-key': 'with a wrong key',
  'since-missing': 'without `since`',
  'since-future': '`since` a day in the future',
  'full-page': 'walked back in time to a full page',
};

export interface DiffRequest {
  /** `operationId kind`, unique. */
  id: string;
  operation: string;
  kind: RequestKind;
  title: string;
  /** Data each side needs: a pair where a side lacks one is skipped, naming the variable. */
  needs: DataName[];
  /** Why the contract demands a refusal (4xx) of this request, when it does. */
  refusal?: string;
  /** A paged list walked to a full page: its limit. The call is then the walk's first page. */
  page?: PageLimit;
  /** The call on one side, from that side's data and clock. */
  options(side: { data: SideData; now: number }): CallOptions;
}

type SecurityScheme = OpenAPIV3_1.SecuritySchemeObject;

function schemesOf(contract: Contract, op: Operation): SecurityScheme[][] {
  const schemes = (contract.documents[op.document].components?.securitySchemes ?? {}) as Record<
    string,
    SecurityScheme
  >;
  return op.security.map((requirement) =>
    Object.keys(requirement).flatMap((name) => (schemes[name] ? [schemes[name]] : [])),
  );
}

/** A value for a required header parameter: its const, first enum value, default or example. */
function headerValue(param: Operation['parameters'][number]): string | undefined {
  const schema = (param.schema ?? {}) as Record<string, unknown>;
  const value: unknown =
    schema.const ??
    (schema.enum as unknown[] | undefined)?.[0] ??
    schema.default ??
    (param.example as unknown);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The request body the contract shows first: the search's example query. */
function exampleBody(op: Operation): unknown {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const named: OpenAPIV3_1.ExampleObject | undefined = Object.values(media.examples ?? {})[0];
  const schema = media.schema as { examples?: unknown[] } | undefined;
  return named?.value ?? (media.example as unknown) ?? schema?.examples?.[0];
}

function requestsFor(contract: Contract, op: Operation): DiffRequest[] {
  const params = op.segments.filter((s) => s.param).map((s) => s.param!);
  const pathData = params.map((p) => PATH_DATA[p]);
  if (pathData.some((d) => d === undefined)) throw new Error(`${op.id}: no data for its path parameters`);
  const schemes = schemesOf(contract, op);
  const keyed = schemes.length > 0 && schemes.every((set) => set.some((s) => s.type === 'apiKey'));
  const bearer = schemes.some((set) => set.some((s) => s.type === 'http' && s.scheme === 'bearer'));
  const images: DataName[] = op.document === 'images' ? ['imagesUrl'] : [];
  const since = op.parameters.find((p) => p.in === 'query' && p.name === 'since');
  const headers: Record<string, string> = {};
  for (const p of op.parameters.filter((p) => p.in === 'header' && p.required)) {
    const value = headerValue(p);
    if (value !== undefined) headers[p.name] = value;
  }
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(FIXED_QUERY)) {
    const param = op.parameters.find((p) => p.in === 'query' && p.name === name);
    const allowed = param?.schema?.enum;
    if (param && (!allowed || allowed.includes(value))) fixed[name] = value;
  }
  const body = op.method === 'post' ? exampleBody(op) : undefined;

  const make = (
    kind: RequestKind,
    shape: { ids: 'own' | 'unknown'; key: CallOptions['key']; since?: 'past' | 'future' | 'none' },
    refusal?: string,
  ): DiffRequest => ({
    id: `${op.id} ${kind}`,
    operation: op.id,
    kind,
    title: TITLES[kind],
    needs: [
      ...images,
      ...(shape.ids === 'own' ? (pathData as DataName[]) : []),
      ...(bearer ? (['token'] as DataName[]) : []),
    ],
    ...(refusal ? { refusal } : {}),
    options: ({ data, now }) => {
      const path: Record<string, string> = {};
      params.forEach((p, i) => {
        const unknown = p === 'imageUri' ? `ftcms:${UNKNOWN_ID}` : UNKNOWN_ID;
        path[p] = shape.ids === 'own' ? data[pathData[i]!]! : unknown;
      });
      const query: Record<string, string> = { ...fixed };
      const when = shape.since ?? 'past';
      if (since && when !== 'none') query.since = iso(when === 'past' ? now - DAY : now + DAY);
      return {
        path,
        query,
        headers: { ...headers },
        ...(body !== undefined ? { body } : {}),
        key: shape.key,
        ...(bearer && data.token ? { token: data.token } : {}),
      };
    },
  });

  const key: CallOptions['key'] = keyed ? 'header' : 'none';
  const requests = [make('success', { ids: 'own', key })];
  if (params.length > 0) requests.push(make('unknown-id', { ids: 'unknown', key }));
  if (keyed) {
    const why = 'the operation requires a key (its security)';
    requests.push(make('no-key', { ids: 'own', key: 'none' }, why));
    requests.push(make('wrong-key', { ids: 'own', key: { header: WRONG_KEY } }, why));
  }
  if (since?.required) {
    requests.push(make('since-missing', { ids: 'own', key, since: 'none' }, '`since` is required'));
    requests.push(
      make('since-future', { ids: 'own', key, since: 'future' }, '`since` must not be in the future'),
    );
    const page = pageLimit(contract, op.id);
    if (page) requests.push({ ...make('full-page', { ids: 'own', key }), page });
  }
  return requests;
}

/**
 * The request set: for every GET and the search POST (nothing that changes anything, so safe for
 * production), a success with each side's own data, an unknown identifier where the path takes
 * one, no key and a wrong key, and for the feed `since` missing and in the future, and a walk back
 * in time to a full page.
 */
export function diffRequests(contract: Contract): DiffRequest[] {
  return [...contract.operations.values()]
    .filter((op) => op.method === 'get' || op.id === 'searchContent')
    .flatMap((op) => requestsFor(contract, op));
}

/** How a request is shown: its method and path template, no value that could be a secret. */
export function describeRequest(contract: Contract, request: DiffRequest): string {
  const op = contract.operation(request.operation);
  return `${op.method.toUpperCase()} ${op.path}, ${request.title}`;
}
