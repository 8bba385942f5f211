import { fileURLToPath } from 'node:url';
import { bundle, createConfig } from '@redocly/openapi-core';
import type { OpenAPIV3_1 } from 'openapi-types';

/** The two documents of the contract, by name; the same names as the `apis` of redocly.yaml. */
export const DOCUMENTS = {
  main: 'openapi/openapi.yaml',
  images: 'openapi/images.yaml',
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export function projectPath(relative: string): string {
  return fileURLToPath(new URL(relative, new URL('../../', import.meta.url)));
}

/**
 * Bundles one multi-file document with Redocly and dereferences it, so every schema is a plain
 * object Ajv can compile without resolving `$ref`s across files.
 */
export async function loadDocument(
  name: DocumentName,
  path = projectPath(DOCUMENTS[name]),
): Promise<OpenAPIV3_1.Document> {
  const config = await createConfig({});
  const result = await bundle({ ref: path, config, dereference: true });
  const errors = result.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const lines = errors.map((p) => `- ${p.message} (${p.location[0]?.pointer ?? ''})`);
    throw new Error(`The contract ${path} does not bundle:\n${lines.join('\n')}`);
  }
  return result.bundle.parsed as OpenAPIV3_1.Document;
}
