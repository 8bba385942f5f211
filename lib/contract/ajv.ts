import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * The project's one Ajv instance (draft 2020-12, the dialect of OpenAPI 3.1), strict, with formats.
 * OpenAPI's own schema keywords and the project's `x-` extensions are registered as annotations so
 * strict mode accepts them without ignoring a typo elsewhere.
 */
export const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: false });
addFormats(ajv);
ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'x-rules', 'x-decision', 'x-personal']);
// What the project expects beyond the guarantee: an annotation to the base validators, which must
// pass any real response the interface allows; `expect.ts` derives the strict variants from it.
ajv.addKeyword({ keyword: 'x-expect', schemaType: ['object', 'boolean'] });
