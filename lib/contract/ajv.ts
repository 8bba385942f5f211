import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchema, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Where strict mode's findings go while `compileStrict` listens; elsewhere nowhere. */
let heard: string[] | undefined;

/**
 * The project's one Ajv instance (draft 2020-12, the dialect of OpenAPI 3.1), with formats. It
 * compiles any valid schema: a document the project does not own (a revision the gate reads) may
 * use `maxLength` without `type`, or require a property it does not list, as JSON Schema allows.
 * Strict mode's findings are logged, not thrown, and `compileStrict` turns them into errors for
 * the project's own contract. OpenAPI's schema keywords and the project's `x-` extensions are
 * annotations, so strictness accepts them without ignoring a typo elsewhere.
 */
export const ajv = new Ajv2020({
  strict: 'log',
  allErrors: true,
  verbose: false,
  logger: {
    log: () => undefined,
    warn: (...args: unknown[]) => void heard?.push(args.map(String).join(' ')),
    error: (...args: unknown[]) => void heard?.push(args.map(String).join(' ')),
  },
});
addFormats(ajv);
ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'x-rules', 'x-decision', 'x-personal']);
// What the project expects beyond the guarantee: an annotation to the base validators, which must
// pass any real response the interface allows; `expect.ts` derives the strict variants from it.
ajv.addKeyword({ keyword: 'x-expect', schemaType: ['object', 'boolean'] });

/**
 * A schema of the project's own contract compiled in strict mode: a keyword without its type, a
 * `required` name nowhere described or an unknown keyword is an error here, as a typo would be.
 */
export function compileStrict(schema: AnySchema): ValidateFunction {
  const outer = heard;
  heard = [];
  try {
    const validate = ajv.compile(schema);
    if (heard.length) throw new Error(heard[0]);
    return validate;
  } finally {
    heard = outer;
  }
}
