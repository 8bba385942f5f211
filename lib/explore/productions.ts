import { grammarOf, PRODUCTIONS } from '../arbitraries/http-forms.ts';
import { exploreSummaries, exploreSummary, type ExploreAttachment, type ExploreRow } from './summary.ts';

/** One production of a grammar as a run drew it: the operations whose requests carried it, or why none did. */
export interface ProductionRow {
  grammar: string;
  production: string;
  summary: string;
  /** The operations whose answered requests drew it. */
  drawn: string[];
  /** Why no request drew it: the module's decision, the cases left out, or no operation it applies to. */
  never?: string;
}

/** Why a production is not drawn when its grammar has no decision and no case of it was left out. */
export const NOT_APPLICABLE = 'not applicable: no operation of the contract has what it writes';

/**
 * Every production of every grammar, with the operations that drew it in this run (from the
 * exploration's summaries), or the reason none did, in the grammars' order.
 */
export function productionTable(summaries: readonly ExploreAttachment[]): ProductionRow[] {
  const drawn = new Map<string, string[]>();
  const left = new Map<string, string>();
  for (const s of summaries) {
    for (const name of s.productions?.drawn ?? []) drawn.set(name, [...(drawn.get(name) ?? []), s.operation]);
    for (const [name, reason] of Object.entries(s.productions?.left ?? {}))
      if (!left.has(name)) left.set(name, `not run: ${reason}`);
  }
  return PRODUCTIONS.map((p) => {
    const ops = drawn.get(p.name) ?? [];
    const row: ProductionRow = {
      grammar: grammarOf(p.name),
      production: p.name,
      summary: p.summary,
      drawn: ops,
    };
    if (ops.length === 0) row.never = p.never ?? left.get(p.name) ?? NOT_APPLICABLE;
    return row;
  });
}

/** Whether any exploration summary counts productions (a run without the exploration has no table). */
export const countsProductions = (summaries: readonly ExploreAttachment[]) =>
  summaries.some((s) => s.productions !== undefined);

/**
 * What the report reads of the exploration's attachments: a row per operation, and the table of
 * productions where the run counted any.
 */
export function explorationOf(attachments: unknown[]): {
  exploration: ExploreRow[];
  productions?: ProductionRow[];
} {
  const summaries = exploreSummaries(attachments);
  return {
    exploration: exploreSummary(attachments),
    ...(countsProductions(summaries) ? { productions: productionTable(summaries) } : {}),
  };
}
