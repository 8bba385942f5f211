/**
 * The gate's rule table: every change the gate can report is one row, with an id, a level, the
 * side of the wire it concerns and a reason. Schema rules are written once per kind of change with
 * its effect on the set of valid values, then placed on each side of the wire: narrowing what a
 * request may carry breaks clients, and so does widening what a response may contain.
 */

export type Level = 'error' | 'warning' | 'info';
export type Direction = 'request' | 'response' | 'both';

export interface Rule {
  id: string;
  level: Level;
  direction: Direction;
  reason: string;
  /** Where it applies, for the published table: "paths", "parameters", "request body", … */
  area: string;
}

export const LEVELS: Level[] = ['error', 'warning', 'info'];

/** The levels of a change by side: [in a request, in a response]. */
type Sides = readonly [Level, Level];

/** Fewer values are valid: a request loses some the clients send; a response only sends fewer. */
const NARROW: Sides = ['error', 'info'];
/** More values are valid: a request accepts more; a response may send what clients cannot read. */
const WIDEN: Sides = ['info', 'error'];
/** Some values lose validity and others gain it: breaks both sides. */
const CHANGE: Sides = ['error', 'error'];
const SAFE: Sides = ['info', 'info'];
const RISKY: Sides = ['warning', 'warning'];

/** One kind of schema change: its id suffix, its levels by side, and why. */
const SCHEMA_KINDS: Record<string, { sides: Sides; reason: string }> = {
  'type-generalized': {
    sides: WIDEN,
    reason: 'the type now admits more values (a type added, integer to number)',
  },
  'type-specialized': {
    sides: NARROW,
    reason: 'the type now admits fewer values (a type removed, number to integer)',
  },
  'type-changed': { sides: CHANGE, reason: 'the type changed to one that shares no values with the old' },
  'became-nullable': { sides: WIDEN, reason: 'null is now a valid value' },
  'became-not-nullable': { sides: NARROW, reason: 'null is no longer a valid value' },
  'format-added': { sides: NARROW, reason: 'a format now restricts the values' },
  'format-removed': { sides: WIDEN, reason: 'the format no longer restricts the values' },
  'format-generalized': {
    sides: WIDEN,
    reason: 'the format admits more values (int32 to int64, float to double)',
  },
  'format-specialized': {
    sides: NARROW,
    reason: 'the format admits fewer values (int64 to int32, double to float)',
  },
  'format-changed': { sides: CHANGE, reason: 'the format changed to another' },
  'became-enum': { sides: NARROW, reason: 'the values are now limited to a list' },
  'enum-removed': { sides: WIDEN, reason: 'the values are no longer limited to a list' },
  'enum-value-added': { sides: WIDEN, reason: 'a value joined the list of valid values' },
  'enum-value-removed': { sides: NARROW, reason: 'a value left the list of valid values' },
  'x-extensible-enum-value-added': {
    sides: SAFE,
    reason: 'an extensible enum gained a value: its readers expect new ones',
  },
  'x-extensible-enum-value-removed': {
    sides: ['error', 'info'],
    reason: 'an extensible enum lost a value: a request that sends it is refused',
  },
  'const-added': { sides: NARROW, reason: 'one value is now the only valid one' },
  'const-removed': { sides: WIDEN, reason: 'the value is no longer fixed' },
  'const-changed': { sides: CHANGE, reason: 'the one valid value changed' },
  'default-added': { sides: ['warning', 'info'], reason: 'a server now assumes a value when none is sent' },
  'default-changed': {
    sides: ['warning', 'info'],
    reason: 'a server assumes another value when none is sent',
  },
  'default-removed': {
    sides: ['warning', 'info'],
    reason: 'a server no longer assumes a value when none is sent',
  },
  'pattern-added': { sides: NARROW, reason: 'a pattern now restricts the values' },
  'pattern-removed': { sides: ['info', 'warning'], reason: 'the pattern no longer restricts the values' },
  'pattern-generalized': { sides: ['info', 'warning'], reason: 'the pattern now matches anything' },
  'pattern-changed': {
    sides: RISKY,
    reason: 'the pattern changed: some values may match one and not the other',
  },
  ...bounds('max', 'maximum'),
  ...bounds('min', 'minimum'),
  ...bounds('exclusive-max', 'exclusive maximum'),
  ...bounds('exclusive-min', 'exclusive minimum'),
  ...bounds('max-length', 'maximum length'),
  ...bounds('min-length', 'minimum length'),
  ...bounds('max-items', 'maximum number of items'),
  ...bounds('min-items', 'minimum number of items'),
  ...bounds('max-properties', 'maximum number of properties'),
  ...bounds('min-properties', 'minimum number of properties'),
  ...bounds('max-contains', 'maximum number of matching items'),
  ...bounds('min-contains', 'minimum number of matching items'),
  'multiple-of-set': { sides: NARROW, reason: 'values must now be a multiple of a number' },
  'multiple-of-unset': { sides: WIDEN, reason: 'values no longer need to be a multiple of a number' },
  'multiple-of-increased': {
    sides: NARROW,
    reason: 'values must be a multiple of a multiple of the old divisor',
  },
  'multiple-of-decreased': {
    sides: WIDEN,
    reason: 'the divisor divides the old one: more values are multiples',
  },
  'multiple-of-changed': { sides: CHANGE, reason: 'the divisor changed to one unrelated to the old' },
  'unique-items-set': { sides: NARROW, reason: 'items must now be unique' },
  'unique-items-unset': { sides: WIDEN, reason: 'items no longer need to be unique' },
  'property-added': { sides: SAFE, reason: 'an optional property was added: readers tolerate new fields' },
  'required-property-added': { sides: ['error', 'info'], reason: 'a new property must be sent' },
  'property-removed': {
    sides: RISKY,
    reason: 'an optional property was removed: who sends or reads it loses it',
  },
  'required-property-removed': {
    sides: ['warning', 'error'],
    reason: 'a required property was removed: readers rely on it, a server may now refuse it',
  },
  'property-became-required': { sides: ['error', 'info'], reason: 'a property must now be present' },
  'property-became-optional': { sides: ['info', 'error'], reason: 'a property may now be absent' },
  'property-became-read-only': { sides: SAFE, reason: 'a property is now only sent by the server' },
  'required-property-became-read-only': {
    sides: ['warning', 'info'],
    reason: 'a required property is now only sent by the server',
  },
  'property-became-not-read-only': { sides: SAFE, reason: 'an optional property may now be sent by clients' },
  'required-property-became-not-read-only': {
    sides: ['error', 'info'],
    reason: 'clients must now send a property the server used to fill',
  },
  'property-became-write-only': {
    sides: ['info', 'warning'],
    reason: 'an optional property is no longer returned',
  },
  'required-property-became-write-only': {
    sides: ['info', 'error'],
    reason: 'a required property is no longer returned',
  },
  'property-became-not-write-only': { sides: SAFE, reason: 'a property is now returned too' },
  'additional-properties-closed': {
    sides: NARROW,
    reason: 'properties not listed are now refused or limited',
  },
  'additional-properties-opened': { sides: WIDEN, reason: 'properties not listed are now allowed' },
  'unevaluated-properties-added': {
    sides: NARROW,
    reason: 'properties no subschema names are now refused or limited',
  },
  'unevaluated-properties-removed': { sides: WIDEN, reason: 'properties no subschema names are now allowed' },
  'unevaluated-items-added': {
    sides: NARROW,
    reason: 'items no subschema covers are now refused or limited',
  },
  'unevaluated-items-removed': { sides: WIDEN, reason: 'items no subschema covers are now allowed' },
  'items-added': { sides: NARROW, reason: 'the items of the array are now constrained' },
  'items-removed': { sides: WIDEN, reason: 'the items of the array are no longer constrained' },
  'prefix-items-added': { sides: NARROW, reason: 'an item at a position is now constrained' },
  'prefix-items-removed': { sides: WIDEN, reason: 'an item at a position is no longer constrained' },
  'contains-added': { sides: NARROW, reason: 'the array must now contain a matching item' },
  'contains-removed': { sides: WIDEN, reason: 'the array no longer needs a matching item' },
  'property-names-added': { sides: NARROW, reason: 'property names are now constrained' },
  'property-names-removed': { sides: WIDEN, reason: 'property names are no longer constrained' },
  'pattern-property-added': {
    sides: NARROW,
    reason: 'properties whose names match a pattern are now constrained',
  },
  'pattern-property-removed': {
    sides: WIDEN,
    reason: 'properties whose names match a pattern are no longer constrained',
  },
  'dependent-required-added': { sides: NARROW, reason: 'a property now requires others' },
  'dependent-required-removed': { sides: WIDEN, reason: 'a property no longer requires others' },
  'dependent-required-changed': { sides: CHANGE, reason: 'the properties another requires changed' },
  'dependent-schema-added': { sides: NARROW, reason: 'a property now brings a schema the object must meet' },
  'dependent-schema-removed': { sides: WIDEN, reason: 'a property no longer brings a schema' },
  'if-added': { sides: NARROW, reason: 'a condition now applies then or else' },
  'if-removed': { sides: WIDEN, reason: 'a condition no longer applies' },
  'if-changed': { sides: CHANGE, reason: 'the condition changed: other values take then or else' },
  'then-added': { sides: NARROW, reason: 'values that meet the condition are now constrained' },
  'then-removed': { sides: WIDEN, reason: 'values that meet the condition are no longer constrained' },
  'else-added': { sides: NARROW, reason: 'values that fail the condition are now constrained' },
  'else-removed': { sides: WIDEN, reason: 'values that fail the condition are no longer constrained' },
  'not-added': { sides: NARROW, reason: 'values matching a schema are now refused' },
  'not-removed': { sides: WIDEN, reason: 'values matching a schema are no longer refused' },
  'one-of-added': { sides: NARROW, reason: 'the value must now match exactly one of several schemas' },
  'one-of-removed': { sides: WIDEN, reason: 'the value no longer needs to match one of several schemas' },
  'one-of-branch-added': { sides: WIDEN, reason: 'oneOf gained an alternative' },
  'one-of-branch-removed': { sides: NARROW, reason: 'oneOf lost an alternative' },
  'any-of-added': { sides: NARROW, reason: 'the value must now match one of several schemas' },
  'any-of-removed': { sides: WIDEN, reason: 'the value no longer needs to match one of several schemas' },
  'any-of-branch-added': {
    sides: ['info', 'warning'],
    reason: 'anyOf gained an alternative (a reader may meet a shape it overlaps with or not)',
  },
  'any-of-branch-removed': { sides: NARROW, reason: 'anyOf lost an alternative' },
  'all-of-branch-added': { sides: NARROW, reason: 'allOf gained a schema the value must also meet' },
  'all-of-branch-removed': { sides: WIDEN, reason: 'allOf lost a schema the value had to meet' },
  'discriminator-added': { sides: SAFE, reason: 'a discriminator now names the alternative' },
  'discriminator-removed': { sides: RISKY, reason: 'no discriminator names the alternative any more' },
  'discriminator-property-name-changed': {
    sides: RISKY,
    reason: 'the alternative is named by another property',
  },
  'discriminator-mapping-added': { sides: ['info', 'warning'], reason: 'a discriminator value was mapped' },
  'discriminator-mapping-removed': {
    sides: ['warning', 'info'],
    reason: 'a discriminator value is no longer mapped',
  },
  'discriminator-mapping-changed': { sides: RISKY, reason: 'a discriminator value maps to another schema' },
  'content-media-type-changed': { sides: CHANGE, reason: 'the string carries another media type' },
  'content-encoding-changed': { sides: CHANGE, reason: 'the string is encoded another way' },
  'content-schema-added': { sides: NARROW, reason: 'the string content is now constrained' },
  'content-schema-removed': { sides: WIDEN, reason: 'the string content is no longer constrained' },
  'property-deprecated': { sides: SAFE, reason: 'a property was marked deprecated' },
  'property-reactivated': { sides: SAFE, reason: 'a property is no longer deprecated' },
  'annotation-changed': {
    sides: SAFE,
    reason: 'a title, description, example or comment changed: no value changes',
  },
  'extension-changed': { sides: SAFE, reason: 'a vendor extension (x-…) changed: no value changes' },
  'keyword-changed': { sides: RISKY, reason: 'a keyword this gate does not know changed: read it' },
  'reference-unresolved': { sides: RISKY, reason: 'a $ref that cannot be resolved changed: read it' },
};

function bounds(kind: string, name: string): Record<string, { sides: Sides; reason: string }> {
  const upper = kind.startsWith('max') || kind === 'exclusive-max';
  const [raise, lower] = upper ? [WIDEN, NARROW] : [NARROW, WIDEN];
  return {
    [`${kind}-increased`]: { sides: raise, reason: `the ${name} was raised` },
    [`${kind}-decreased`]: { sides: lower, reason: `the ${name} was lowered` },
    [`${kind}-set`]: { sides: NARROW, reason: `a ${name} now applies` },
    [`${kind}-unset`]: { sides: WIDEN, reason: `the ${name} no longer applies` },
  };
}

/**
 * Where a schema sits, with the side of the wire its values travel. A webhook's or a callback's
 * request is sent by the service, so its schemas read like a response's, and the reverse.
 */
export const PLACES = {
  'request-parameter': 'request',
  'request-body': 'request',
  'request-property': 'request',
  'response-body': 'response',
  'response-property': 'response',
  'response-header': 'response',
  'callback-request-body': 'response',
  'callback-request-property': 'response',
  'callback-response-body': 'request',
  'callback-response-property': 'request',
} as const satisfies Record<string, 'request' | 'response'>;
export type Place = keyof typeof PLACES;
export type SchemaKind = keyof typeof SCHEMA_KINDS;

/** Where a rule of a place differs from its kind: a parameter's default is part of the call. */
const PLACE_LEVELS: Partial<Record<`${Place}-${string}`, Level>> = {
  'request-parameter-default-added': 'error',
  'request-parameter-default-changed': 'error',
  'request-parameter-default-removed': 'error',
};

const row = (id: string, level: Level, direction: Direction, area: string, reason: string): Rule => ({
  id,
  level,
  direction,
  area,
  reason,
});

/** The rules that are not about a schema's values. */
const OTHER_RULES: Rule[] = [
  row('path-removed', 'error', 'both', 'paths', 'a path was removed: every call to it fails'),
  row('path-added', 'info', 'both', 'paths', 'a path was added'),
  row('operation-removed', 'error', 'both', 'paths', 'a method was removed from a path: calls to it fail'),
  row(
    'operation-removed-after-deprecation',
    'info',
    'both',
    'paths',
    'a deprecated operation was removed, with no sunset date still ahead',
  ),
  row(
    'operation-removed-before-sunset',
    'error',
    'both',
    'paths',
    'a deprecated operation was removed before its sunset date',
  ),
  row('operation-added', 'info', 'both', 'paths', 'a method was added to a path'),
  row(
    'operation-id-changed',
    'warning',
    'both',
    'paths',
    'the operationId changed: generated clients rename the call',
  ),
  row(
    'operation-id-removed',
    'warning',
    'both',
    'paths',
    'the operationId was removed: generated clients rename the call',
  ),
  row('operation-id-added', 'info', 'both', 'paths', 'an operationId was added'),
  row('operation-deprecated', 'info', 'both', 'paths', 'an operation was deprecated, with a sunset date'),
  row(
    'operation-deprecated-without-sunset',
    'warning',
    'both',
    'paths',
    'an operation was deprecated with no sunset date: clients cannot plan',
  ),
  row('operation-reactivated', 'info', 'both', 'paths', 'an operation is no longer deprecated'),
  row(
    'operation-sunset-brought-forward',
    'warning',
    'both',
    'paths',
    'the sunset date of an operation moved earlier',
  ),
  row('servers-changed', 'warning', 'both', 'paths', 'the servers changed: clients may call another address'),
  row('webhook-removed', 'error', 'both', 'webhooks', 'a webhook was removed: its receivers get nothing'),
  row('webhook-added', 'info', 'both', 'webhooks', 'a webhook was added'),
  row('callback-removed', 'error', 'both', 'webhooks', 'a callback was removed: its receivers get nothing'),
  row('callback-added', 'info', 'both', 'webhooks', 'a callback was added'),
  row(
    'new-required-parameter',
    'error',
    'request',
    'parameters',
    'a required parameter was added: calls without it fail',
  ),
  row('new-optional-parameter', 'info', 'request', 'parameters', 'an optional parameter was added'),
  row(
    'parameter-removed',
    'warning',
    'request',
    'parameters',
    'a parameter was removed: clients still send it and it is ignored or refused',
  ),
  row(
    'parameter-removed-after-deprecation',
    'info',
    'request',
    'parameters',
    'a deprecated parameter was removed',
  ),
  row('parameter-became-required', 'error', 'request', 'parameters', 'a parameter must now be sent'),
  row('parameter-became-optional', 'info', 'request', 'parameters', 'a parameter may now be left out'),
  row(
    'parameter-in-changed',
    'error',
    'request',
    'parameters',
    'a parameter moved (query, header, path, cookie): clients send it in the old place',
  ),
  row(
    'parameter-style-changed',
    'error',
    'request',
    'parameters',
    'a parameter is serialised another way (style)',
  ),
  row(
    'parameter-explode-changed',
    'error',
    'request',
    'parameters',
    'a parameter is serialised another way (explode)',
  ),
  row(
    'parameter-allow-reserved-removed',
    'error',
    'request',
    'parameters',
    'reserved characters must now be percent-encoded',
  ),
  row(
    'parameter-allow-reserved-added',
    'info',
    'request',
    'parameters',
    'reserved characters may now be sent as they are',
  ),
  row(
    'parameter-allow-empty-value-removed',
    'error',
    'request',
    'parameters',
    'an empty value is no longer allowed',
  ),
  row('parameter-allow-empty-value-added', 'info', 'request', 'parameters', 'an empty value is now allowed'),
  row('parameter-deprecated', 'info', 'request', 'parameters', 'a parameter was deprecated'),
  row('parameter-reactivated', 'info', 'request', 'parameters', 'a parameter is no longer deprecated'),
  row(
    'parameter-media-type-changed',
    'error',
    'request',
    'parameters',
    'a parameter carries another media type',
  ),
  row('request-body-added-required', 'error', 'request', 'request body', 'a required request body was added'),
  row('request-body-added-optional', 'info', 'request', 'request body', 'an optional request body was added'),
  row(
    'request-body-removed',
    'error',
    'request',
    'request body',
    'the request body was removed: clients still send one',
  ),
  row(
    'request-body-became-required',
    'error',
    'request',
    'request body',
    'the request body must now be sent',
  ),
  row(
    'request-body-became-optional',
    'info',
    'request',
    'request body',
    'the request body may now be left out',
  ),
  row(
    'request-media-type-added',
    'info',
    'request',
    'request body',
    'the request body may be sent as another media type',
  ),
  row(
    'request-media-type-removed',
    'error',
    'request',
    'request body',
    'a media type of the request body is no longer accepted',
  ),
  row(
    'request-media-type-generalized',
    'info',
    'request',
    'request body',
    'the request media type accepts more (application/problem+json to application/json)',
  ),
  row(
    'request-media-type-specialized',
    'error',
    'request',
    'request body',
    'the request media type accepts less (application/json to a +json type)',
  ),
  row(
    'request-media-type-schema-added',
    'error',
    'request',
    'request body',
    'a request media type without a schema now has one',
  ),
  row(
    'request-media-type-schema-removed',
    'info',
    'request',
    'request body',
    'a request media type no longer has a schema',
  ),
  row(
    'request-encoding-changed',
    'warning',
    'request',
    'request body',
    'the encoding of a multipart or form body changed',
  ),
  row(
    'response-success-status-removed',
    'error',
    'response',
    'responses',
    'a success status was removed: clients that handle it never get it',
  ),
  row('response-non-success-status-removed', 'info', 'response', 'responses', 'an error status was removed'),
  row(
    'response-success-status-added',
    'warning',
    'response',
    'responses',
    'a success status was added: clients may not handle it',
  ),
  row(
    'response-non-success-status-added',
    'info',
    'response',
    'responses',
    'an error status was added: clients handle errors by class',
  ),
  row(
    'response-media-type-added',
    'info',
    'response',
    'responses',
    'a response may come as another media type, on request',
  ),
  row(
    'response-media-type-removed',
    'error',
    'response',
    'responses',
    'a response media type is no longer sent',
  ),
  row(
    'response-media-type-specialized',
    'info',
    'response',
    'responses',
    'the response media type is more specific (application/json to application/problem+json)',
  ),
  row(
    'response-media-type-generalized',
    'error',
    'response',
    'responses',
    'the response media type is less specific: clients may get what they cannot parse',
  ),
  row(
    'response-media-type-schema-added',
    'info',
    'response',
    'responses',
    'a response media type without a schema now has one',
  ),
  row(
    'response-media-type-schema-removed',
    'warning',
    'response',
    'responses',
    'a response media type no longer has a schema',
  ),
  row('response-header-added', 'info', 'response', 'responses', 'a response header was added'),
  row(
    'required-response-header-removed',
    'error',
    'response',
    'responses',
    'a required response header was removed',
  ),
  row(
    'optional-response-header-removed',
    'warning',
    'response',
    'responses',
    'an optional response header was removed',
  ),
  row(
    'response-header-became-optional',
    'error',
    'response',
    'responses',
    'a response header may now be absent',
  ),
  row(
    'response-header-became-required',
    'info',
    'response',
    'responses',
    'a response header is now always sent',
  ),
  row('response-link-removed', 'warning', 'response', 'responses', 'a link from a response was removed'),
  row('response-link-added', 'info', 'response', 'responses', 'a link from a response was added'),
  row(
    'security-requirement-added',
    'error',
    'request',
    'security',
    'a call now needs a credential it did not need',
  ),
  row('security-scope-added', 'error', 'request', 'security', 'a call now needs a scope it did not need'),
  row(
    'security-requirement-removed',
    'info',
    'request',
    'security',
    'a call needs less: a requirement was removed',
  ),
  row('security-scope-removed', 'info', 'request', 'security', 'a call needs fewer scopes'),
  row(
    'security-alternative-added',
    'info',
    'request',
    'security',
    'a call may now also be authorised another way',
  ),
  row('security-scheme-added', 'info', 'request', 'security', 'a security scheme was added'),
  row(
    'security-scheme-removed',
    'info',
    'request',
    'security',
    'a security scheme no requirement uses was removed',
  ),
  row('security-scheme-type-changed', 'error', 'request', 'security', 'a security scheme changed its type'),
  row(
    'security-scheme-location-changed',
    'error',
    'request',
    'security',
    'an API key is sent under another name or in another place',
  ),
  row(
    'security-scheme-url-changed',
    'warning',
    'request',
    'security',
    'an OAuth or OpenID Connect URL changed',
  ),
  row('security-scheme-changed', 'warning', 'request', 'security', 'a security scheme changed'),
  row('security-scheme-scope-added', 'info', 'request', 'security', 'a scheme offers a new scope'),
  row('security-scheme-scope-removed', 'warning', 'request', 'security', 'a scheme no longer offers a scope'),
  row(
    'contract-rule-removed',
    'warning',
    'both',
    'this contract',
    'an operation no longer carries a rule: what the suite checks changes',
  ),
  row('contract-rule-added', 'info', 'both', 'this contract', 'an operation carries a new rule'),
  row(
    'contract-expectation-removed',
    'warning',
    'both',
    'this contract',
    'an x-expect was removed: what the suite checks changes',
  ),
  row(
    'contract-expectation-changed',
    'warning',
    'both',
    'this contract',
    'an x-expect changed: what the suite checks changes',
  ),
  row('contract-expectation-added', 'info', 'both', 'this contract', 'an x-expect was added'),
  row('openapi-version-changed', 'info', 'both', 'document', 'the OpenAPI version changed'),
  row('info-changed', 'info', 'both', 'document', 'the info (title, version, contact) changed'),
  row('tag-changed', 'info', 'both', 'document', 'tags changed: documentation only'),
  row(
    'description-changed',
    'info',
    'both',
    'document',
    'a summary, description or example changed: documentation only',
  ),
  row('component-removed', 'info', 'both', 'document', 'a component nothing uses was removed'),
  row('component-added', 'info', 'both', 'document', 'a component was added'),
  row('component-changed', 'info', 'both', 'document', 'a component no operation uses changed'),
  row('extension-changed', 'info', 'both', 'document', 'a vendor extension (x-…) changed'),
  row(
    'document-keyword-changed',
    'warning',
    'both',
    'document',
    'a keyword this gate does not know changed: read it',
  ),
];

function schemaRules(): Rule[] {
  const rules: Rule[] = [];
  for (const [place, side] of Object.entries(PLACES) as [Place, 'request' | 'response'][])
    for (const [kind, { sides, reason }] of Object.entries(SCHEMA_KINDS)) {
      const id = `${place}-${kind}` as const;
      const level = PLACE_LEVELS[id] ?? sides[side === 'request' ? 0 : 1];
      rules.push(row(id, level, side, place.startsWith('callback') ? 'webhooks' : 'schemas', reason));
    }
  return rules;
}

export const RULES: readonly Rule[] = [...OTHER_RULES, ...schemaRules()];
const BY_ID = new Map(RULES.map((r) => [r.id, r]));

export const hasRule = (id: string) => BY_ID.has(id);

export function rule(id: string): Rule {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`spec-diff: no rule ${id} in the table`);
  return found;
}

export const schemaRuleId = (place: Place, kind: SchemaKind) => `${place}-${kind}`;
