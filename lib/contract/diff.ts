import { apiCompare } from 'api-smart-diff';

export type ChangeKind = 'breaking' | 'non-breaking' | 'deprecated' | 'annotation' | 'unclassified';

export interface ContractChange {
  kind: ChangeKind;
  action: string;
  /** Where, as a JSON pointer into the bundled document. */
  where: string;
  description: string;
}

const ORDER: ChangeKind[] = ['breaking', 'deprecated', 'non-breaking', 'unclassified', 'annotation'];

/**
 * The changes from one contract document to another, classified for clients by api-smart-diff:
 * a removed operation, parameter, response field, status or enum value, a narrowed parameter type
 * or a new required parameter is breaking; an added optional field is not.
 */
export function contractChanges(before: unknown, after: unknown): ContractChange[] {
  return apiCompare(before, after)
    .diffs.map((diff) => ({
      kind: diff.type,
      action: diff.action,
      where: `/${diff.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
      description: diff.description ?? `${diff.action} ${diff.path.join(' › ')}`,
    }))
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
}
