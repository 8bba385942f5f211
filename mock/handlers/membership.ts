import { baseMediaType } from '../../lib/contract/index.ts';
import { toTimestamp } from '../state/index.ts';
import type { Handler } from '../types.ts';
import { fail, ok, quote, UUID } from './respond.ts';

export const listTrialExclusionIpAddresses: Handler = (context) => {
  const { defects, state, request } = context;
  if (!defects.unknownTrialExclusionParamsServed) {
    const unknown = [...request.query.keys()].find((name) => name !== 'apiKey');
    if (unknown !== undefined) return fail(context, 400, `Unknown query parameter: ${quote(unknown)}`);
  }
  if (!state.trialExclusions) return fail(context, 404, 'No trial exclusion list is published');
  return ok({ ipAddresses: state.trialExclusions });
};

export const getLicence: Handler = (context) => {
  const id = context.pathParams.licenceId!;
  if (!UUID.test(id))
    return fail(
      context,
      400,
      `${id.length > 80 ? `${id.slice(0, 80)}…` : id} is not a valid AccessLicenceId.`,
    );
  const licence = context.state.licences.get(id.toLowerCase());
  if (!licence) return fail(context, 404, `No licence found for ${id}.`);
  const href = `/licences/${licence.id}`;
  return ok({
    id: licence.id,
    creationDateTime: toTimestamp(licence.creationDateTime),
    products: licence.products,
    issueReason: licence.issueReason,
    links: [
      {
        rel: 'contract',
        href: `${context.request.origin}/contracts/${licence.contractId}`,
        id: licence.contractId,
      },
    ],
    status: 'active',
    href,
    seatsHref: [{ rel: 'seats', href: `${href}/seats` }],
    seatLimit: licence.seatLimit,
    ipAccessEnabled: licence.ipAccessEnabled,
    ipAccessAddresses: licence.ipAccessAddresses,
    adminsHref: [{ rel: 'administrators', href: `${href}/administrators` }],
  });
};

/** The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are `Bearer`. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * The user full profile. Checks in the order a careful service would: media type, identifier,
 * token (present, known, unexpired, scoped), then whose it is.
 */
export const getUserFullProfile: Handler = (context) => {
  const { defects, state, request } = context;
  const mediaType = baseMediaType(request.headers['content-type']);
  if (!defects.contentTypeUnchecked && mediaType !== 'application/json')
    return fail(context, 415, 'Unsupported media type: send Content-Type: application/json');
  const userId = context.pathParams.userId!;
  if (!UUID.test(userId)) return fail(context, 400, `${quote(userId)} is not a valid user identifier`);
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match)
    return fail(context, 401, 'Missing or malformed access token: send Authorization: Bearer <token>');
  const token = state.tokens.get(match[1]!);
  if (!token) return fail(context, 401, 'The access token is not valid');
  if (!defects.tokenExpiryUnchecked && token.expiresAt <= state.clock.now())
    return fail(context, 401, 'The access token has expired');
  if (!defects.tokenScopeUnchecked && !token.scopes.includes('profile_max'))
    return fail(context, 401, 'The access token lacks scope profile_max');
  const user = state.users.get(userId.toLowerCase());
  if (!user) return fail(context, 404, 'User not found');
  if (!defects.tokenOwnerUnchecked && token.userId !== user.id)
    return fail(context, 403, 'Access denied: the token was issued for another user');
  return ok({
    user: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      title: user.title,
      primaryTelephone: '+44 20 7946 0000',
      homeAddress: { line1: '1 Example Street', townCity: 'London', postcode: 'EC4M 9BT', country: 'GBR' },
      demographics: { industry: 'Financial services', position: user.jobTitle },
      jobTitle: user.jobTitle,
      source: 'subscription',
      nonLogin: false,
    },
  });
};
