// @ts-check
// A Redocly decorator for the published docs: when CLM_DOCS_NOTES names a JSON file of notes by
// operationId (Markdown), each operation's description ends with its note, so its section in the
// docs says what production was verified to do and links its rules. Unset, nothing changes.
import { readFileSync } from 'node:fs';
import process from 'node:process';

function operationNotes() {
  const file = process.env.CLM_DOCS_NOTES;
  if (!file) return {};
  /** @type {Record<string, string>} */
  const notes = JSON.parse(readFileSync(file, 'utf8'));
  return {
    Operation: {
      /** @param {{ operationId?: string, description?: string }} op */
      leave(op) {
        const note = op.operationId && notes[op.operationId];
        if (note) op.description = `${op.description ?? ''}\n\n${note}`;
      },
    },
  };
}

export default function plugin() {
  return {
    id: 'clm-docs',
    decorators: {
      oas3: { 'operation-notes': operationNotes },
    },
  };
}
