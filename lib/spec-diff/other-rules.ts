import type { Direction, Level, Rule } from './levels.ts';

/** The modules that emit the rules: each row names its own, and a self-test finds the id there. */
const OPERATIONS = 'lib/spec-diff/operations.ts';
const PARAMETERS = 'lib/spec-diff/parameters.ts';
const CONTENT = 'lib/spec-diff/content.ts';
const SECURITY = 'lib/spec-diff/security.ts';
const KEYWORDS = 'lib/spec-diff/keywords.ts';
const DOCUMENT = 'lib/spec-diff/index.ts';
const DIFFER = 'lib/spec-diff/differ.ts';
const LIFECYCLE = 'lib/spec-diff/lifecycle.ts';
const SERVERS = 'lib/spec-diff/servers.ts';
const EVIDENCE = 'lib/evidence/compare.ts';

type WrittenRow = readonly [id: string, level: Level, direction: Direction, emitted: string, reason: string];

/**
 * The rules that are not about the values a schema admits, by the part of the document they read:
 * one row each, `[id, level, direction, emitting module, reason]`. Adding a rule is adding a row;
 * its id is then a `RuleId`, and the module that emits it compiles.
 */
// prettier-ignore
const WRITTEN = {
  paths: [
    ['path-removed', 'error', 'both', OPERATIONS, 'a path was removed: every call to it fails'],
    ['path-added', 'info', 'both', OPERATIONS, 'a path was added'],
    ['operation-removed', 'error', 'both', OPERATIONS, 'a method was removed from a path: calls to it fail'],
    ['operation-removed-after-deprecation', 'info', 'both', OPERATIONS, 'a deprecated operation was removed, with no sunset date still ahead'],
    ['operation-removed-before-sunset', 'error', 'both', OPERATIONS, 'a deprecated operation was removed before its sunset date'],
    ['operation-added', 'info', 'both', OPERATIONS, 'a method was added to a path'],
    ['operation-id-changed', 'warning', 'both', OPERATIONS, 'the operationId changed: generated clients rename the call'],
    ['operation-id-removed', 'warning', 'both', OPERATIONS, 'the operationId was removed: generated clients rename the call'],
    ['operation-id-added', 'info', 'both', OPERATIONS, 'an operationId was added'],
    ['operation-deprecated', 'info', 'both', OPERATIONS, 'an operation was deprecated, with a sunset date'],
    ['operation-deprecated-without-sunset', 'warning', 'both', OPERATIONS, 'an operation was deprecated with no sunset date: clients cannot plan'],
    ['operation-reactivated', 'info', 'both', OPERATIONS, 'an operation is no longer deprecated'],
    ['operation-sunset-brought-forward', 'error', 'both', LIFECYCLE, 'the sunset date of an operation moved earlier'],
    ['operation-sunset-removed', 'error', 'both', LIFECYCLE, 'a deprecated operation lost its sunset date'],
    ['operation-sunset-invalid', 'error', 'both', LIFECYCLE, 'the sunset date (x-sunset) of an operation is not a date'],
    ['operation-stability-decreased', 'error', 'both', LIFECYCLE, 'the stability level (x-stability-level) went down'],
    ['operation-stability-increased', 'info', 'both', LIFECYCLE, 'the stability level (x-stability-level) went up'],
    ['operation-stability-invalid', 'error', 'both', LIFECYCLE, 'a stability level that is not draft, alpha, beta or stable'],
    ['server-added', 'info', 'both', SERVERS, 'a server was added: clients configured for the others still reach them'],
    ['server-removed', 'error', 'both', SERVERS, 'a server was removed or its URL replaced: clients configured for it fail'],
    ['server-variable-value-removed', 'error', 'both', SERVERS, 'a server variable no longer takes a value: clients configured with it fail'],
    ['server-variable-value-added', 'info', 'both', SERVERS, 'a server variable takes another value'],
    ['server-variable-default-changed', 'error', 'both', SERVERS, 'the default of a server variable the URL uses changed: clients that relied on it call another address'],
  ],
  webhooks: [
    ['webhook-removed', 'error', 'both', DOCUMENT, 'a webhook was removed: its receivers get nothing'],
    ['webhook-added', 'info', 'both', OPERATIONS, 'a webhook was added'],
    ['callback-removed', 'error', 'both', OPERATIONS, 'a callback was removed: its receivers get nothing'],
    ['callback-added', 'info', 'both', OPERATIONS, 'a callback was added'],
  ],
  parameters: [
    ['new-required-parameter', 'error', 'request', PARAMETERS, 'a required parameter was added: calls without it fail'],
    ['new-optional-parameter', 'info', 'request', PARAMETERS, 'an optional parameter was added'],
    ['parameter-removed', 'warning', 'request', PARAMETERS, 'a parameter was removed: what clients send in it is ignored or refused'],
    ['parameter-removed-after-deprecation', 'info', 'request', PARAMETERS, 'a deprecated parameter was removed'],
    ['parameter-removed-before-sunset', 'error', 'request', PARAMETERS, 'a deprecated parameter was removed before its sunset date'],
    ['parameter-sunset-removed', 'error', 'request', LIFECYCLE, 'a deprecated parameter lost its sunset date'],
    ['parameter-sunset-invalid', 'error', 'request', LIFECYCLE, 'the sunset date (x-sunset) of a parameter is not a date'],
    ['parameter-became-required', 'error', 'request', PARAMETERS, 'a parameter must now be sent'],
    ['parameter-became-optional', 'info', 'request', PARAMETERS, 'a parameter may now be left out'],
    ['parameter-in-changed', 'error', 'request', PARAMETERS, 'a parameter moved (query, header, path, cookie): clients send it in the old place'],
    ['parameter-style-changed', 'error', 'request', PARAMETERS, 'a parameter is serialised another way (style)'],
    ['parameter-explode-changed', 'error', 'request', PARAMETERS, 'a parameter is serialised another way (explode)'],
    ['parameter-allow-reserved-removed', 'error', 'request', PARAMETERS, 'reserved characters must now be percent-encoded'],
    ['parameter-allow-reserved-added', 'info', 'request', PARAMETERS, 'reserved characters may now be sent as they are'],
    ['parameter-allow-empty-value-removed', 'error', 'request', PARAMETERS, 'an empty value is no longer allowed'],
    ['parameter-allow-empty-value-added', 'info', 'request', PARAMETERS, 'an empty value is now allowed'],
    ['parameter-deprecated', 'info', 'request', PARAMETERS, 'a parameter was deprecated'],
    ['parameter-reactivated', 'info', 'request', PARAMETERS, 'a parameter is no longer deprecated'],
    ['parameter-media-type-changed', 'error', 'request', PARAMETERS, 'a parameter carries another media type'],
  ],
  'request body': [
    ['request-body-added-required', 'error', 'request', CONTENT, 'a required request body was added'],
    ['request-body-added-optional', 'info', 'request', CONTENT, 'an optional request body was added'],
    ['request-body-removed', 'error', 'request', CONTENT, 'the request body was removed: clients still send one'],
    ['request-body-became-required', 'error', 'request', CONTENT, 'the request body must now be sent'],
    ['request-body-became-optional', 'info', 'request', CONTENT, 'the request body may now be left out'],
    ['request-media-type-added', 'info', 'request', CONTENT, 'the request body may be sent as another media type'],
    ['request-media-type-removed', 'error', 'request', CONTENT, 'a media type of the request body is no longer accepted'],
    ['request-media-type-generalized', 'info', 'request', CONTENT, 'the request media type accepts more (application/problem+json to application/json)'],
    ['request-media-type-specialized', 'error', 'request', CONTENT, 'the request media type accepts less (application/json to a +json type)'],
    ['request-media-type-schema-added', 'error', 'request', CONTENT, 'a request media type without a schema now has one'],
    ['request-media-type-schema-removed', 'info', 'request', CONTENT, 'a request media type no longer has a schema'],
    ['request-encoding-changed', 'warning', 'request', CONTENT, 'the encoding of a multipart or form body changed'],
  ],
  responses: [
    ['response-success-status-removed', 'error', 'response', CONTENT, 'a success status was removed: clients that handle it never get it'],
    ['response-non-success-status-removed', 'info', 'response', CONTENT, 'an error status was removed'],
    ['response-success-status-added', 'warning', 'response', CONTENT, 'a success status was added: clients may not handle it'],
    ['response-non-success-status-added', 'info', 'response', CONTENT, 'an error status was added: clients handle errors by class'],
    ['response-media-type-added', 'info', 'response', CONTENT, 'a response may come as another media type, on request'],
    ['response-media-type-removed', 'error', 'response', CONTENT, 'a response media type is no longer sent'],
    ['response-media-type-specialized', 'info', 'response', CONTENT, 'the response media type is more specific (application/json to application/problem+json)'],
    ['response-media-type-generalized', 'error', 'response', CONTENT, 'the response media type is less specific: clients may get what they cannot parse'],
    ['response-media-type-schema-added', 'info', 'response', CONTENT, 'a response media type without a schema now has one'],
    ['response-media-type-schema-removed', 'error', 'response', CONTENT, 'a response media type no longer has a schema: its body may now be anything'],
    ['response-header-added', 'info', 'response', CONTENT, 'a response header was added'],
    ['required-response-header-removed', 'error', 'response', CONTENT, 'a required response header was removed'],
    ['response-header-serialization-changed', 'error', 'response', CONTENT, 'a response header is serialised another way'],
    ['optional-response-header-removed', 'warning', 'response', CONTENT, 'an optional response header was removed'],
    ['response-header-became-optional', 'error', 'response', CONTENT, 'a response header may now be absent'],
    ['response-header-became-required', 'info', 'response', CONTENT, 'a response header is now always sent'],
    ['response-link-removed', 'warning', 'response', CONTENT, 'a link from a response was removed'],
    ['response-link-changed', 'warning', 'response', CONTENT, 'a link from a response changed: clients that follow it call another operation or send other values'],
    ['response-link-added', 'info', 'response', CONTENT, 'a link from a response was added'],
  ],
  security: [
    ['security-requirement-added', 'error', 'request', SECURITY, 'a call now needs a credential it did not need'],
    ['security-scope-added', 'error', 'request', SECURITY, 'a call now needs a scope it did not need'],
    ['security-requirement-removed', 'info', 'request', SECURITY, 'a call needs less: a requirement was removed'],
    ['security-scope-removed', 'info', 'request', SECURITY, 'a call needs fewer scopes'],
    ['security-alternative-added', 'info', 'request', SECURITY, 'a call may now also be authorised another way'],
    ['security-scheme-added', 'info', 'request', SECURITY, 'a security scheme was added'],
    ['security-scheme-removed', 'info', 'request', SECURITY, 'a security scheme no requirement uses was removed'],
    ['security-scheme-type-changed', 'error', 'request', SECURITY, 'a security scheme changed its type'],
    ['security-scheme-location-changed', 'error', 'request', SECURITY, 'an API key is sent under another name or in another place'],
    ['security-scheme-url-changed', 'error', 'request', SECURITY, 'an OAuth or OpenID Connect URL was replaced or removed: configured clients fetch tokens where none are'],
    ['security-scheme-url-added', 'info', 'request', SECURITY, 'an OAuth URL was added (a refresh URL)'],
    ['security-scheme-changed', 'warning', 'request', SECURITY, 'a security scheme changed'],
    ['security-scheme-scope-added', 'info', 'request', SECURITY, 'a scheme offers a new scope'],
    ['security-scheme-scope-removed', 'warning', 'request', SECURITY, 'a scheme no longer offers a scope'],
  ],
  'this contract': [
    ['contract-rule-removed', 'warning', 'both', KEYWORDS, 'an operation no longer carries a rule: what the suite checks changes'],
    ['contract-rule-added', 'info', 'both', KEYWORDS, 'an operation carries a new rule'],
    ['contract-expectation-removed', 'warning', 'both', KEYWORDS, 'an x-expect was removed: what the suite checks changes'],
    ['contract-expectation-changed', 'warning', 'both', KEYWORDS, 'an x-expect changed: what the suite checks changes'],
    ['contract-expectation-added', 'info', 'both', KEYWORDS, 'an x-expect was added'],
  ],
  document: [
    ['openapi-version-changed', 'info', 'both', DOCUMENT, 'the OpenAPI version changed'],
    ['info-changed', 'info', 'both', DOCUMENT, 'the info (title, version, contact) changed'],
    ['tag-changed', 'info', 'both', OPERATIONS, 'tags changed: documentation only'],
    ['description-changed', 'info', 'both', DIFFER, 'a summary, description or example changed: documentation only'],
    ['component-removed', 'info', 'both', DOCUMENT, 'a component nothing uses was removed'],
    ['component-added', 'info', 'both', DOCUMENT, 'a component was added'],
    ['component-changed', 'info', 'both', DOCUMENT, 'a component no operation uses changed'],
    ['extension-changed', 'info', 'both', DIFFER, 'a vendor extension (x-…) changed'],
    ['document-keyword-changed', 'warning', 'both', DIFFER, 'a keyword this gate does not know changed: read it'],
  ],
  // Real bodies judged by both documents, not a diff: the service's (the nightly's store), the
  // contract's examples, the mock's answers.
  evidence: [
    ['revision-rejects-observed-response', 'error', 'response', EVIDENCE, 'a response body the service was seen to send (or the contract shows, or the mock serves), which the base accepts, fails the revision: the contract would no longer describe the service'],
    ['revision-accepts-observed-response', 'info', 'response', EVIDENCE, 'a response body the base rejects passes the revision: it now describes what the service sends'],
    ['response-widening-observed', 'info', 'response', EVIDENCE, 'a response widened (an error by its own rule) where the base rejects bodies the service was seen to send and the revision accepts them: clients already get such bodies, and the revision only describes them'],
    ['evidence-not-weighed', 'warning', 'response', EVIDENCE, "a response's schema changed and one side's does not compile, so the bodies of the evidence were not judged by it: read the change"],
  ],
} as const satisfies Record<string, readonly WrittenRow[]>;

/** The id of a written rule. */
export type WrittenId = (typeof WRITTEN)[keyof typeof WRITTEN][number][0];

export const OTHER_RULES: Rule<WrittenId>[] = Object.entries(WRITTEN).flatMap(([area, rows]) =>
  rows.map(([id, level, direction, emitted, reason]: WrittenRow) => ({
    id: id as WrittenId,
    level,
    direction,
    area,
    emitted,
    reason,
  })),
);
