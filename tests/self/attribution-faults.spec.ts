import type { ApiClient } from '../../lib/client/client.ts';
import { ApiCheckError } from '../../lib/client/types.ts';
import type { Mock } from '../../mock/server.ts';
import { expect, MOCK_NOW, test } from '../fixtures.ts';

/** A request that meets a fault: what the client's checks find goes to the fault's rule alone. */
interface Case {
  fault: string;
  rule: string;
  ask: (api: ApiClient, mock: Mock) => Promise<unknown>;
}

const since = new Date(Date.parse(MOCK_NOW) - 45 * 86_400_000).toISOString();

/** The feed from a since, its next links followed: the first page may be short, later ones are full. */
async function walk(api: ApiClient): Promise<void> {
  let response = await api.call('listNotifications', { query: { since } });
  for (let page = 0; page < 10; page++) {
    const links = (response.json as { links: { rel: string; href: string }[] }).links;
    response = await api.raw({ url: links.find((l) => l.rel === 'next')!.href });
  }
}
const licence = (api: ApiClient, mock: Mock, licenceId = mock.state.examples().licenceId) =>
  api.call('getLicence', { path: { licenceId } });
const page = (api: ApiClient, mock: Mock) =>
  api.call('getPageMainContent', { path: { pageId: mock.state.examples().pageId } });

/** The rules of what the client's checks found wrong with the answer to `ask`, the fault on. */
async function rulesFound(api: ApiClient, mock: Mock, fault: string, ask: Case['ask']) {
  mock.setFaults([fault]);
  const error = await ask(api, mock).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${fault}: the client's checks let the answer through`).toBeInstanceOf(ApiCheckError);
  const rules = [...new Set((error as ApiCheckError).failures.flatMap((f) => f.rules))];
  return { rules, message: (error as Error).message };
}

/** A few faults of each rule group whose answers the client's own checks catch. */
const CASES: Case[] = [
  {
    fault: 'page-of-201',
    rule: 'NOTIF-06',
    ask: walk,
  },
  { fault: 'licence-ip-access-enabled-string', rule: 'LIC-01', ask: licence },
  { fault: 'licence-admins-href-object', rule: 'LIC-02', ask: licence },
  { fault: 'licence-status-object', rule: 'LIC-04', ask: licence },
  { fault: 'licence-created-without-zone', rule: 'LIC-08', ask: licence },
  { fault: 'page-total-string', rule: 'PAGE-03', ask: page },
  { fault: 'lifecycle-epoch-millis', rule: 'PAGE-07', ask: page },
  {
    fault: 'trial-exclusions-as-objects',
    rule: 'TE-01',
    ask: (api) => api.call('listTrialExclusionIpAddresses'),
  },
  { fault: 'errors-as-text', rule: 'HTTP-01', ask: (api, mock) => licence(api, mock, 'not-a-uuid') },
  { fault: 'key-echoed-in-header', rule: 'AUTH-07', ask: licence },
  // A 406 is the document's negotiation rule (x-negotiation-rules), though no response documents it.
  {
    fault: 'accept-range-refused',
    rule: 'HTTP-01',
    ask: (api, mock) =>
      api.call('getLicence', {
        path: { licenceId: mock.state.examples().licenceId },
        headers: { Accept: 'application/*' },
      }),
  },
  { fault: 'page-content-encoding-claimed', rule: 'HTTP-01', ask: page },
];

test.describe('a fault the checks catch turns its own rule red, and only it', () => {
  for (const { fault, rule, ask } of CASES)
    test(`${fault} goes to ${rule}`, async ({ api, mock }) => {
      const { rules, message } = await rulesFound(api, mock, fault, ask);
      expect(rules, message).toEqual([rule]);
    });
});

/** A request whose rules state its answer (`decides`), and the rules its failure goes to. */
const DECIDED: (Omit<Case, 'rule'> & { decides: string[]; rules: string[] })[] = [
  {
    fault: 'since-lower-case-breaks-server',
    decides: ['NOTIF-02'],
    rules: ['HTTP-04', 'NOTIF-02'],
    ask: (api) =>
      api.call('listNotifications', { query: { since: since.toLowerCase() }, decides: ['NOTIF-02'] }),
  },
  {
    fault: 'since-lower-case-breaks-server',
    decides: [],
    rules: ['HTTP-04'],
    ask: (api) => api.call('listNotifications', { query: { since: since.toLowerCase() } }),
  },
  // What broke inside an answer that came is the schema node's, whatever the request's rules.
  {
    fault: 'page-total-string',
    decides: ['PAGE-01'],
    rules: ['PAGE-03'],
    ask: (api, mock) =>
      api.call('getPageMainContent', {
        path: { pageId: mock.state.examples().pageId },
        decides: ['PAGE-01'],
      }),
  },
];

test.describe('a 5xx is also the rules that state what the request must get', () => {
  for (const { fault, decides, rules, ask } of DECIDED)
    test(`${fault}, deciding ${decides.join(', ') || 'none'}, goes to ${rules.join(', ')}`, async ({
      api,
      mock,
    }) => {
      const found = await rulesFound(api, mock, fault, ask);
      expect(found.rules, found.message).toEqual(rules);
    });
});
