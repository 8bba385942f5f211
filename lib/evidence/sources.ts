import { existsSync, statSync } from 'node:fs';
import type { Evidence } from './compare.ts';
import { storedEvidence, type EvidenceEntry } from './store.ts';

/** The sources the gate names on its own: the contract's examples and the bundled mock's answers. */
export const NAMED_SOURCES = ['contract', 'mock', 'none'] as const;
/** What the gate weighs when no `--evidence` is given: the contract's own examples, always at hand. */
export const DEFAULT_SOURCES = ['contract'];

export class EvidenceSourceError extends Error {}

/**
 * The evidence of the `--evidence` values: `mock` (the bundled mock's answers, collected by whoever
 * may start it), and store folders; `contract` is read from each compared pair itself. A folder that
 * does not exist is an error: a store asked for and missing would pass the gate unseen.
 */
export async function gatherEvidence(
  sources: string[],
  mock: () => Promise<EvidenceEntry[]>,
): Promise<{ evidence: Evidence[]; contract: boolean; summary: string }> {
  const evidence: Evidence[] = [];
  const said: string[] = [];
  for (const source of new Set(sources)) {
    if (source === 'contract' || source === 'none') continue;
    if (source === 'mock') {
      const answers = (await mock()).map((e) => ({ ...e, source: 'from the mock' }));
      evidence.push(...answers);
      said.push(`${answers.length} answers of the bundled mock`);
      continue;
    }
    if (!existsSync(source) || !statSync(source).isDirectory())
      throw new EvidenceSourceError(`--evidence ${source}: no such folder (nor contract, mock or none)`);
    const stored = storedEvidence(source).map((e) => ({ ...e, source: 'stored' }));
    evidence.push(...stored);
    said.push(`${stored.length} bodies stored in ${source}`);
  }
  const contract = sources.includes('contract');
  if (contract) said.push("the contract's examples");
  return { evidence, contract, summary: said.length ? `evidence: ${said.join(', ')}` : 'evidence: none' };
}
