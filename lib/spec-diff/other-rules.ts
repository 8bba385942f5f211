import type { Direction, Level, Rule } from './types.ts';

const LEVELS = new Set<string>(['error', 'warning', 'info']);
const DIRECTIONS = new Set<string>(['request', 'response', 'both']);

/**
 * One area's rules from a table: a row is `id level direction reason`, and a reason runs on over the
 * lines indented below it. A table reads as the documentation it becomes.
 */
function area(name: string, table: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of table.split('\n')) {
    if (line.trim() === '') continue;
    const row = /^ {4}(\S+) +(\S+) +(\S+) +(.+)$/.exec(line);
    if (!row) {
      rules.at(-1)!.reason += ` ${line.trim()}`;
      continue;
    }
    const [, id, level, direction, reason] = row as unknown as [string, string, string, string, string];
    if (!LEVELS.has(level) || !DIRECTIONS.has(direction))
      throw new Error(`The rule ${id} has no level and direction (${level}, ${direction})`);
    rules.push({ id, level: level as Level, direction: direction as Direction, reason, area: name });
  }
  return rules;
}

/** The rules that are not about the values a schema admits, by the part of the document they read. */
export const OTHER_RULES: Rule[] = [
  ...area(
    'paths',
    `
    path-removed                          error    both      a path was removed: every call to it fails
    path-added                            info     both      a path was added
    operation-removed                     error    both      a method was removed from a path: calls to it
                                                             fail
    operation-removed-after-deprecation   info     both      a deprecated operation was removed, with no
                                                             sunset date still ahead
    operation-removed-before-sunset       error    both      a deprecated operation was removed before its
                                                             sunset date
    operation-added                       info     both      a method was added to a path
    operation-id-changed                  warning  both      the operationId changed: generated clients rename
                                                             the call
    operation-id-removed                  warning  both      the operationId was removed: generated clients
                                                             rename the call
    operation-id-added                    info     both      an operationId was added
    operation-deprecated                  info     both      an operation was deprecated, with a sunset date
    operation-deprecated-without-sunset   warning  both      an operation was deprecated with no sunset date:
                                                             clients cannot plan
    operation-reactivated                 info     both      an operation is no longer deprecated
    operation-sunset-brought-forward      error    both      the sunset date of an operation moved earlier
    operation-sunset-removed              error    both      a deprecated operation lost its sunset date
    operation-sunset-invalid              error    both      the sunset date (x-sunset) of an operation is not
                                                             a date
    operation-stability-decreased         error    both      the stability level (x-stability-level) went down
    operation-stability-increased         info     both      the stability level (x-stability-level) went up
    operation-stability-invalid           error    both      a stability level that is not draft, alpha, beta
                                                             or stable
    servers-changed                       warning  both      the servers changed: clients may call another
                                                             address
  `,
  ),
  ...area(
    'webhooks',
    `
    webhook-removed                       error    both      a webhook was removed: its receivers get nothing
    webhook-added                         info     both      a webhook was added
    callback-removed                      error    both      a callback was removed: its receivers get nothing
    callback-added                        info     both      a callback was added
  `,
  ),
  ...area(
    'parameters',
    `
    new-required-parameter                error    request   a required parameter was added: calls without it
                                                             fail
    new-optional-parameter                info     request   an optional parameter was added
    parameter-removed                     warning  request   a parameter was removed: what clients send in it
                                                             is ignored or refused
    parameter-removed-after-deprecation   info     request   a deprecated parameter was removed
    parameter-removed-before-sunset       error    request   a deprecated parameter was removed before its
                                                             sunset date
    parameter-sunset-removed              error    request   a deprecated parameter lost its sunset date
    parameter-sunset-invalid              error    request   the sunset date (x-sunset) of a parameter is not
                                                             a date
    parameter-became-required             error    request   a parameter must now be sent
    parameter-became-optional             info     request   a parameter may now be left out
    parameter-in-changed                  error    request   a parameter moved (query, header, path, cookie):
                                                             clients send it in the old place
    parameter-style-changed               error    request   a parameter is serialised another way (style)
    parameter-explode-changed             error    request   a parameter is serialised another way (explode)
    parameter-allow-reserved-removed      error    request   reserved characters must now be percent-encoded
    parameter-allow-reserved-added        info     request   reserved characters may now be sent as they are
    parameter-allow-empty-value-removed   error    request   an empty value is no longer allowed
    parameter-allow-empty-value-added     info     request   an empty value is now allowed
    parameter-deprecated                  info     request   a parameter was deprecated
    parameter-reactivated                 info     request   a parameter is no longer deprecated
    parameter-media-type-changed          error    request   a parameter carries another media type
  `,
  ),
  ...area(
    'request body',
    `
    request-body-added-required           error    request   a required request body was added
    request-body-added-optional           info     request   an optional request body was added
    request-body-removed                  error    request   the request body was removed: clients still send
                                                             one
    request-body-became-required          error    request   the request body must now be sent
    request-body-became-optional          info     request   the request body may now be left out
    request-media-type-added              info     request   the request body may be sent as another media
                                                             type
    request-media-type-removed            error    request   a media type of the request body is no longer
                                                             accepted
    request-media-type-generalized        info     request   the request media type accepts more
                                                             (application/problem+json to application/json)
    request-media-type-specialized        error    request   the request media type accepts less
                                                             (application/json to a +json type)
    request-media-type-schema-added       error    request   a request media type without a schema now has one
    request-media-type-schema-removed     info     request   a request media type no longer has a schema
    request-encoding-changed              warning  request   the encoding of a multipart or form body changed
  `,
  ),
  ...area(
    'responses',
    `
    response-success-status-removed       error    response  a success status was removed: clients that handle
                                                             it never get it
    response-non-success-status-removed   info     response  an error status was removed
    response-success-status-added         warning  response  a success status was added: clients may not
                                                             handle it
    response-non-success-status-added     info     response  an error status was added: clients handle errors
                                                             by class
    response-media-type-added             info     response  a response may come as another media type, on
                                                             request
    response-media-type-removed           error    response  a response media type is no longer sent
    response-media-type-specialized       info     response  the response media type is more specific
                                                             (application/json to application/problem+json)
    response-media-type-generalized       error    response  the response media type is less specific: clients
                                                             may get what they cannot parse
    response-media-type-schema-added      info     response  a response media type without a schema now has
                                                             one
    response-media-type-schema-removed    warning  response  a response media type no longer has a schema
    response-header-added                 info     response  a response header was added
    required-response-header-removed      error    response  a required response header was removed
    response-header-serialization-changed error    response  a response header is serialised another way
    optional-response-header-removed      warning  response  an optional response header was removed
    response-header-became-optional       error    response  a response header may now be absent
    response-header-became-required       info     response  a response header is now always sent
    response-link-removed                 warning  response  a link from a response was removed
    response-link-added                   info     response  a link from a response was added
  `,
  ),
  ...area(
    'security',
    `
    security-requirement-added            error    request   a call now needs a credential it did not need
    security-scope-added                  error    request   a call now needs a scope it did not need
    security-requirement-removed          info     request   a call needs less: a requirement was removed
    security-scope-removed                info     request   a call needs fewer scopes
    security-alternative-added            info     request   a call may now also be authorised another way
    security-scheme-added                 info     request   a security scheme was added
    security-scheme-removed               info     request   a security scheme no requirement uses was removed
    security-scheme-type-changed          error    request   a security scheme changed its type
    security-scheme-location-changed      error    request   an API key is sent under another name or in
                                                             another place
    security-scheme-url-changed           warning  request   an OAuth or OpenID Connect URL changed
    security-scheme-changed               warning  request   a security scheme changed
    security-scheme-scope-added           info     request   a scheme offers a new scope
    security-scheme-scope-removed         warning  request   a scheme no longer offers a scope
  `,
  ),
  ...area(
    'this contract',
    `
    contract-rule-removed                 warning  both      an operation no longer carries a rule: what the
                                                             suite checks changes
    contract-rule-added                   info     both      an operation carries a new rule
    contract-expectation-removed          warning  both      an x-expect was removed: what the suite checks
                                                             changes
    contract-expectation-changed          warning  both      an x-expect changed: what the suite checks
                                                             changes
    contract-expectation-added            info     both      an x-expect was added
  `,
  ),
  // The rules of the evidence (lib/evidence): real bodies judged by both documents, not a diff.
  ...area(
    'evidence',
    `
    revision-rejects-observed-response    error    response  a response body the service was seen to send (or
                                                             the contract shows, or the mock serves), which the
                                                             base accepts, fails the revision: the contract
                                                             would no longer describe the service
    revision-accepts-observed-response    info     response  a response body the base rejects passes the
                                                             revision: it now describes what the service sends
  `,
  ),
  ...area(
    'document',
    `
    openapi-version-changed               info     both      the OpenAPI version changed
    info-changed                          info     both      the info (title, version, contact) changed
    tag-changed                           info     both      tags changed: documentation only
    description-changed                   info     both      a summary, description or example changed:
                                                             documentation only
    component-removed                     info     both      a component nothing uses was removed
    component-added                       info     both      a component was added
    component-changed                     info     both      a component no operation uses changed
    extension-changed                     info     both      a vendor extension (x-…) changed
    document-keyword-changed              warning  both      a keyword this gate does not know changed: read
                                                             it
  `,
  ),
];
