import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { projectPath } from '../paths.ts';

/** The two documents of the contract, by name; the same names as the `apis` of redocly.yaml. */
export const DOCUMENTS = {
  main: 'openapi/openapi.yaml',
  images: 'openapi/images.yaml',
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

const CACHE = projectPath('node_modules/.cache/clm-contract');

/** The Redocly configuration of the project: its plugins declare the contract's own keywords. */
const REDOCLY_CONFIG = projectPath('redocly.yaml');

/** A hash of every file below the document's folder and of the Redocly configuration: any edit changes it. */
function sourceHash(path: string): string {
  const hash = createHash('sha256').update(path).update(readFileSync(REDOCLY_CONFIG));
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(file).update(readFileSync(file));
    }
  };
  walk(dirname(path));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Bundles one multi-file document with Redocly and dereferences it, so every schema is a plain
 * object Ajv can compile without resolving `$ref`s across files. The result is cached by a hash of
 * the sources: every test worker needs it, and Redocly takes a second to load and bundle.
 */
export async function loadDocument(
  name: DocumentName,
  path = projectPath(DOCUMENTS[name]),
): Promise<OpenAPIV3_1.Document> {
  const cached = join(CACHE, `${name}-${sourceHash(path)}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as OpenAPIV3_1.Document;
  } catch {
    // Not bundled yet: bundle below.
  }
  const { bundle, loadConfig } = await import('@redocly/openapi-core');
  // The project's configuration, not a blank one: its plugin makes `x-expect` a schema, so the
  // `$ref`s inside it are resolved like any other.
  const config = await loadConfig({ configPath: REDOCLY_CONFIG });
  const result = await bundle({ ref: path, config, dereference: true });
  const errors = result.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const lines = errors.map((p) => `- ${p.message} (${p.location[0]?.pointer ?? ''})`);
    throw new Error(`The contract ${path} does not bundle:\n${lines.join('\n')}`);
  }
  const document = result.bundle.parsed as OpenAPIV3_1.Document;
  mkdirSync(CACHE, { recursive: true });
  // Written whole, then renamed: a worker never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(document));
  renameSync(partial, cached);
  return document;
}
