import type { OpenAPIV3_1 } from 'openapi-types';
import { ajv, compileStrict } from './ajv.ts';
import type { Contract } from './contract.ts';
import { hasExpectation, strictVariant } from './expect.ts';
import { isObject } from './properties.ts';

/**
 * Audits of the contract itself: examples against schemas, rule IDs, operation metadata. Each
 * returns a list of problems ("where: what"), empty when the contract is sound, so a self-test can
 * show both that the real contract passes and that a broken one is caught.
 */

/** An example meets its schema and, where the schema holds `x-expect`, the expectations too. */
function validate(schema: unknown, value: unknown, where: string, problems: string[]): void {
  const variants: [string, unknown][] = [['its schema', schema]];
  if (hasExpectation(schema)) variants.push(["its schema's expectations (x-expect)", strictVariant(schema)]);
  for (const [what, variant] of variants) {
    try {
      const check = compileStrict(variant as object);
      if (!check(value))
        problems.push(`${where}: example does not match ${what}: ${ajv.errorsText(check.errors)}`);
    } catch (error) {
      problems.push(`${where}: ${what} does not compile: ${(error as Error).message}`);
    }
  }
}

/**
 * Every example of a document (media types, parameters, schemas) validates against its schema and
 * meets its expectations: an example shows what the project expects, not merely what is allowed.
 */
export function exampleProblems(document: OpenAPIV3_1.Document): string[] {
  const problems: string[] = [];
  const seen = new WeakSet<object>();
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    const schema = node.schema;
    if (isObject(schema)) {
      if ('example' in node) validate(schema, node.example, `${pointer}/example`, problems);
      if (isObject(node.examples)) {
        for (const [name, example] of Object.entries(node.examples)) {
          if (isObject(example) && 'value' in example)
            validate(schema, example.value, `${pointer}/examples/${name}`, problems);
        }
      }
    } else if (Array.isArray(node.examples) && ('type' in node || 'allOf' in node || 'anyOf' in node)) {
      node.examples.forEach((example, i) => validate(node, example, `${pointer}/examples/${i}`, problems));
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${key.replaceAll('/', '~1')}`);
  };
  walk(document, '#');
  return problems;
}

/** Every `x-rules` value anywhere in a document, with where it stands. */
export function ruleMentions(document: OpenAPIV3_1.Document): { id: string; where: string }[] {
  const found: { id: string; where: string }[] = [];
  const seen = new WeakSet<object>();
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    const rules = node['x-rules'];
    if (Array.isArray(rules)) for (const id of rules) found.push({ id: String(id), where: pointer });
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${key.replaceAll('/', '~1')}`);
  };
  walk(document, '#');
  return found;
}

/**
 * The rule catalogue and the documents agree: every rule is carried somewhere, every `x-rules`
 * names a known rule, and each rule's `operations` are exactly the operations that name it.
 */
export function ruleProblems(contract: Contract): string[] {
  const problems: string[] = [];
  const known = new Set(contract.rules.map((r) => r.id));
  const carried = new Set<string>();
  for (const [name, document] of Object.entries(contract.documents)) {
    for (const { id, where } of ruleMentions(document)) {
      carried.add(id);
      if (!known.has(id))
        problems.push(`${name} ${where}: x-rules names ${id}, which rules.yaml does not list`);
    }
  }
  for (const rule of contract.rules) {
    if (!carried.has(rule.id)) problems.push(`rules.yaml: ${rule.id} is carried by no operation or schema`);
    const naming = [...contract.operations.values()]
      .filter((op) => op.rules.includes(rule.id))
      .map((op) => op.id);
    const listed = [...rule.operations].sort();
    if (naming.sort().join() !== listed.join())
      problems.push(
        `rules.yaml: ${rule.id} lists operations [${listed.join(', ')}] but [${naming.join(', ')}] name it`,
      );
  }
  return problems;
}

/** Every operation carries what a reader and the suite need. */
export function operationProblems(contract: Contract): string[] {
  const problems: string[] = [];
  for (const op of contract.operations.values()) {
    const where = `${op.id} (${op.method.toUpperCase()} ${op.path})`;
    if (!op.summary) problems.push(`${where}: no summary`);
    if (!op.raw.description) problems.push(`${where}: no description`);
    if (!op.raw.tags?.length) problems.push(`${where}: no tags`);
    if (!op.rules.length) problems.push(`${where}: no x-rules`);
    const statuses = Object.keys(op.responses);
    if (!statuses.some((s) => s.startsWith('2'))) problems.push(`${where}: no success response`);
    if (!statuses.some((s) => s.startsWith('4'))) problems.push(`${where}: no error response`);
    for (const [status, response] of Object.entries(op.responses)) {
      if (!response.description) problems.push(`${where} ${status}: no description`);
      const content = response.content ?? {};
      if (Object.keys(content).length === 0) problems.push(`${where} ${status}: no content`);
      for (const [mediaType, media] of Object.entries(content)) {
        if (!media.schema) problems.push(`${where} ${status} ${mediaType}: no schema`);
        const json = mediaType === 'application/json';
        if (json && media.example === undefined && Object.keys(media.examples ?? {}).length === 0)
          problems.push(`${where} ${status} ${mediaType}: no example`);
      }
    }
    for (const param of op.parameters) {
      if (!param.schema) problems.push(`${where}: parameter ${param.name} has no schema`);
      if (!param.description) problems.push(`${where}: parameter ${param.name} has no description`);
    }
  }
  return problems;
}
