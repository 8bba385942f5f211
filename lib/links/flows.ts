import { recordFlow, type Observations } from '../client/observations.ts';
import type { ApiResponse, CallOptions } from '../client/types.ts';
import type { Contract } from '../contract/index.ts';
import { follow, linksOf, unfollowable, type ContractLink } from './follow.ts';

/** A sequence of operations the contract's links lead through, from an answer no link leads to. */
export interface Flow {
  /** `listPagesV1 → getPageV1 → getPageMainContent`. */
  id: string;
  operations: string[];
  links: ContractLink[];
}

/** One request of a chain and its answer. */
export interface Step {
  operation: string;
  parameters: Record<string, string>;
  status: number;
  json: unknown;
}

/**
 * Statuses that end a chain short without breaking it: content the key may not read or that is no
 * longer there (NOTIF-13, CONT-01), a page that is gone (PAGE-06).
 */
export const SKIPPED = [403, 404, 410];

const success = (status: number) => status >= 200 && status < 300;

/** Every flow of the contract: each path of its success links from a root to where no link goes on. */
export function flowsOf(contract: Contract): Flow[] {
  const links = linksOf(contract).filter((l) => /^2/.test(l.status));
  const targets = new Set(links.map((l) => l.to));
  const roots = [...new Set(links.map((l) => l.from))].filter((op) => !targets.has(op));
  const flows: Flow[] = [];
  const walk = (path: ContractLink[], at: string, visited: string[]) => {
    const onward = links.filter((l) => l.from === at && !visited.includes(l.to));
    if (onward.length === 0 && path.length > 0) {
      const operations = [path[0]!.from, ...path.map((l) => l.to)];
      flows.push({ id: operations.join(' → '), operations, links: path });
    }
    for (const link of onward) walk([...path, link], link.to, [...visited, link.to]);
  };
  for (const root of roots) walk([], root, [root]);
  return flows;
}

/** The call a link's parameters make: each in the path where the template names it, else in the query. */
export function requestOf(contract: Contract, link: ContractLink, parameters: Record<string, string>) {
  const template = contract.operation(link.to).path;
  const inPath = (name: string) => template.includes(`{${name}}`);
  const pick = (where: boolean) =>
    Object.fromEntries(Object.entries(parameters).filter(([name]) => inPath(name) === where));
  return { path: pick(true), query: pick(false) } satisfies CallOptions;
}

/**
 * Follows a flow from the answer of its first operation: the first link for up to `limit` elements
 * of that answer, each later link from the one answer before it. A chain stops at an answer that is
 * not a success. Every answer goes through `call` (the client, which checks it). An element without
 * the value a link reads (a search hit without `apiUrl`) starts no chain: `skipped` hears of it. A
 * flow with a chain that reached its end is recorded as followed.
 */
export async function followFlow(
  contract: Contract,
  flow: Flow,
  first: unknown,
  deps: {
    call: (operationId: string, options: CallOptions) => Promise<ApiResponse>;
    limit: number;
    observations: Observations;
    skipped?: (note: string) => void;
  },
): Promise<Step[][]> {
  const extend = async (chain: Step[], body: unknown, links: ContractLink[], limit: number) => {
    const [link, ...rest] = links;
    if (!link) return [chain];
    const chains: Step[][] = [];
    for (const note of unfollowable(link, body, limit)) deps.skipped?.(`${link.from} → ${link.to}: ${note}`);
    for (const parameters of follow(link, body, limit)) {
      const answer = await deps.call(link.to, requestOf(contract, link, parameters));
      const next = [...chain, { operation: link.to, parameters, status: answer.status, json: answer.json }];
      chains.push(...(success(answer.status) ? await extend(next, answer.json, rest, 1) : [next]));
    }
    return chains;
  };
  const chains = await extend([], first, flow.links, deps.limit);
  if (chains.some((chain) => endOf(flow, chain) === 'complete')) recordFlow(deps.observations, flow.id);
  return chains;
}

/** How a chain ended: at the flow's last operation, skipped on the way (`SKIPPED`), or broken. */
export function endOf(flow: Flow, chain: Step[]): 'complete' | 'skipped' | 'broken' {
  const last = chain.at(-1);
  if (!last) return 'broken';
  if (chain.length === flow.links.length && chain.every((s) => success(s.status))) return 'complete';
  return SKIPPED.includes(last.status) && chain.slice(0, -1).every((s) => success(s.status))
    ? 'skipped'
    : 'broken';
}

const valueAt = (body: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    body,
  );

/**
 * What a complete chain says that does not hold together: every request after the first must ask
 * for the same thing, and the last answer must name it (`id`, or `page.id`, ends with it).
 */
export function inconsistencies(chain: Step[]): string[] {
  const asked = chain.map((s) => Object.values(s.parameters).join(','));
  const first = chain[0]!.operation;
  const problems = asked
    .slice(1)
    .flatMap((value, i) =>
      value.toLowerCase() === asked[0]!.toLowerCase()
        ? []
        : [`${chain[i + 1]!.operation} was asked for ${value}, not ${asked[0]} as ${first} was`],
    );
  const last = chain.at(-1);
  if (!last) return problems;
  const named = [valueAt(last.json, 'id'), valueAt(last.json, 'page', 'id')].filter(
    (v): v is string => typeof v === 'string',
  );
  const wanted = asked.at(-1)!.toLowerCase();
  if (!named.some((v) => v.toLowerCase().endsWith(wanted)))
    problems.push(
      `${last.operation} answered for ${named.join(', ') || 'nothing it names'}, not ${asked.at(-1)}`,
    );
  return problems;
}
