import { commandLine, usageError } from '../lib/cli.ts';
import { configOrExit } from '../lib/config.ts';
import { KEEP_PER_STATUS, pruneStore } from '../lib/evidence/index.ts';

const USAGE = `Usage: npm run evidence:prune -- [options]

  Prunes the evidence store a live run keeps for the contract gate (spec:diff --evidence DIR):
  per operation and status, the newest body holding each value that decides (each field's
  extremes, its few values, each form and type it takes, each shape), at most --keep of them.
  Files that cannot be read are removed.

  --dir DIR            the store (default: CLM_EVIDENCE_DIR, else reports/evidence)
  --keep N             bodies kept per operation and status (default ${KEEP_PER_STATUS})
  --older-than DAYS    also remove bodies kept longer ago than this
  --operation ID       remove every body of this operation (repeatable): one the contract dropped
  -h, --help           this text

  Exit code: 0 when pruned, 2 on a bad argument.`;

const { values } = commandLine(USAGE, {
  dir: { type: 'string' },
  keep: { type: 'string' },
  'older-than': { type: 'string' },
  operation: { type: 'string', multiple: true },
});

const whole = (name: string, value: string | undefined, zero: boolean): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || (!zero && n === 0))
    usageError(
      USAGE,
      `evidence:prune: --${name} must be a whole number${zero ? '' : ' above 0'}, not "${value}"`,
    );
  return n;
};
const keep = whole('keep', values.keep, false);
const olderThanDays = whole('older-than', values['older-than'], true);
const config = await configOrExit();
const dir = values.dir ?? config.evidenceDir ?? `${config.reportsDir}/evidence`;

const { before, after, removedUnreadable } = pruneStore(dir, {
  ...(keep !== undefined ? { keep } : {}),
  ...(olderThanDays !== undefined ? { olderThanDays } : {}),
  operations: values.operation ?? [],
});
const size = (s: typeof before) =>
  `${s.bodies} bodies in ${s.files} files, ${(s.bytes / 1024).toFixed(1)} KiB`;
console.log(`evidence:prune ${dir}: ${size(before)} before, ${size(after)} after.`);
if (removedUnreadable.length) console.log(`Removed unreadable: ${removedUnreadable.join(', ')}.`);
