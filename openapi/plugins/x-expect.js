// @ts-check
// A Redocly plugin: declares `x-expect` a Schema Object wherever a schema may stand, so Redocly
// resolves, bundles and lints what it holds like any schema. `x-expect` holds what the project
// expects beyond what the interface guarantees: the suite reports a miss as drift, never a failure.

/** @param {Record<string, any>} types */
function withExpect(types) {
  const schema = types.Schema;
  return { ...types, Schema: { ...schema, properties: { ...schema.properties, 'x-expect': 'Schema' } } };
}

export default function plugin() {
  return {
    id: 'clm-expect',
    typeExtension: { oas3: withExpect },
  };
}
