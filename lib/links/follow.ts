import type { Contract } from '../contract/index.ts';
import { UUID_AT_END } from '../uuid.ts';

/** One OpenAPI link of the contract: from an answer of one operation to the request of another. */
export interface ContractLink {
  from: string;
  status: string;
  name: string;
  to: string;
  /** Target parameter → runtime expression, e.g. `$response.body#/pages/0/id`. */
  parameters: Record<string, string>;
}

interface LinkObject {
  operationId?: string;
  parameters?: Record<string, string>;
}

/** Every link the contract declares, in the order of its operations. */
export function linksOf(contract: Contract): ContractLink[] {
  return [...contract.operations.values()].flatMap((op) =>
    Object.entries(op.raw.responses ?? {}).flatMap(([status, response]) =>
      Object.entries((response as { links?: Record<string, LinkObject> }).links ?? {})
        .filter(([, link]) => link.operationId)
        .map(([name, link]) => ({
          from: op.id,
          status,
          name,
          to: link.operationId!,
          parameters: link.parameters ?? {},
        })),
    ),
  );
}

/** What a body expression reaches: its values, and the elements that lack the value it names. */
interface Reached {
  values: unknown[];
  /** JSON pointers of the elements (within `limit`) that lack the last segment: a hit without `apiUrl`. */
  lacking: string[];
}

function reach(expression: string, body: unknown, limit: number): Reached {
  const pointer = /^\$response\.body#(\/.*)?$/.exec(expression);
  if (!pointer) return { values: [], lacking: [] };
  const segments = (pointer[1] ?? '')
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  let nodes: { node: unknown; at: string }[] = [{ node: body, at: '' }];
  const lacking: string[] = [];
  for (const [i, segment] of segments.entries())
    nodes = nodes.flatMap(({ node, at }) => {
      if (Array.isArray(node) && /^\d+$/.test(segment))
        return (node as unknown[]).slice(0, limit).map((item, n) => ({ node: item, at: `${at}/${n}` }));
      if (node && typeof node === 'object' && segment in node)
        return [{ node: (node as Record<string, unknown>)[segment], at: `${at}/${segment}` }];
      // Only the last segment missing from an element is an element without the value; a list
      // that is absent (a search group with no hits) has no elements.
      if (i === segments.length - 1 && node && typeof node === 'object') lacking.push(at || '(body)');
      return [];
    });
  return { values: nodes.slice(0, limit).map((n) => n.node), lacking };
}

/**
 * The values a body expression names. An index into an array stands for each element, the first
 * `limit` of them (a link written for the first hit is followed for several).
 */
export function evaluate(expression: string, body: unknown, limit: number): unknown[] {
  return reach(expression, body, limit).values;
}

/**
 * The elements a link cannot be followed from, within `limit`: each lacks a value the link reads
 * (a search hit without `apiUrl`), as `<pointer> has no <field>`. They are skipped, with a note.
 */
export function unfollowable(link: ContractLink, body: unknown, limit: number): string[] {
  return Object.values(link.parameters).flatMap((expression) => {
    const field = expression.split('/').at(-1)!;
    return reach(expression, body, limit).lacking.map((at) => `${at} has no ${field}`);
  });
}

/**
 * The requests a link leads to from one answer: each parameter set, with an identifier that the
 * answer gives as a URI (`http://www.ft.com/thing/<uuid>`) reduced to the UUID the path takes.
 */
export function follow(link: ContractLink, body: unknown, limit: number): Record<string, string>[] {
  const columns = Object.entries(link.parameters).map(([name, expression]) => ({
    name,
    values: evaluate(expression, body, limit).map((value) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return UUID_AT_END.exec(text)?.[1] ?? text;
    }),
  }));
  const count = Math.min(...columns.map((c) => c.values.length));
  return Array.from({ length: Number.isFinite(count) ? count : 0 }, (_, i) =>
    Object.fromEntries(columns.map((c) => [c.name, c.values[i]!])),
  );
}
