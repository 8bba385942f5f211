import type { Contract } from '../contract/index.ts';

/** The list an operation's answer pages, and the most elements one page may hold. */
export interface PageLimit {
  field: string;
  limit: number;
  /** The rule that sets the limit, when the catalogue names one. */
  rule?: string;
  /** Where the limit was read: the contract, or the rule when the contract states none. */
  source: string;
}

const PER_RESPONSE = /at most (\d+) (\w+) per response/i;

interface ListSchema {
  type?: unknown;
  maxItems?: unknown;
  allOf?: ListSchema[];
}

/** A list's `maxItems`, on the schema itself or on a part of its `allOf` (where a rule names it). */
function maxItemsOf(schema: ListSchema): number | undefined {
  if (typeof schema.maxItems === 'number') return schema.maxItems;
  return schema.allOf?.map(maxItemsOf).find((max) => max !== undefined);
}

/** The limit of a paged answer: the contract's `maxItems` on its list, else the number its rule gives. */
export function pageLimit(contract: Contract, operationId: string): PageLimit | undefined {
  const stated = contract.rules.find((r) => r.operations.includes(operationId) && PER_RESPONSE.test(r.text));
  const rule = stated ? { rule: stated.id } : {};
  const schema = contract.response(operationId, 200)?.response.content?.['application/json']?.schema as
    { properties?: Record<string, ListSchema> } | undefined;
  const lists = Object.entries(schema?.properties ?? {}).filter(([, s]) => s.type === 'array');
  const bounded = lists
    .map(([name, s]) => [name, maxItemsOf(s)] as const)
    .find(([, max]) => max !== undefined);
  if (bounded) return { field: bounded[0], limit: bounded[1]!, ...rule, source: "the contract's maxItems" };
  const [, limit, field] = (stated && PER_RESPONSE.exec(stated.text)) ?? [];
  if (!field || !lists.some(([name]) => name === field)) return undefined;
  return { field, limit: Number(limit), ...rule, source: `rule ${stated!.id}` };
}
