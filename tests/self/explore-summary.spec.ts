import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import {
  exploreContract,
  exploreSummary,
  summariseOutcomes,
  type CaseOutcome,
} from '../../lib/explore/index.ts';

const contract = await loadContract();
const mock = exploreContract(contract, { now: Date.parse('2026-11-22T12:00:00.000Z'), mode: 'mock' });

test.describe('exploration: the summary for the conformance report', () => {
  const outcomes = (operation: string, notRun: number): CaseOutcome[] =>
    mock
      .get(operation)!
      .map((c, i) =>
        i < notRun
          ? { case: c, ran: false, reason: 'over the live budget' }
          : { case: c, ran: true, status: 200 },
      );

  test('counts cases by kind, run and not run, and by parameter', () => {
    const cases = mock.get('getLicence')!;
    const summary = summariseOutcomes('getLicence', ['LIC-01'], outcomes('getLicence', 2));
    expect(summary).toMatchObject({
      operation: 'getLicence',
      total: cases.length,
      run: cases.length - 2,
      notRun: 2,
    });
    expect(summary.positive.run + summary.negative.run).toBe(cases.length - 2);
    expect(summary.parameters['(key)']).toEqual({ positive: 0, negative: 3, notRun: 1 });
    expect(summary.reasons).toEqual({ 'over the live budget': 2 });
  });

  test('counts the invalid values refused and those served', () => {
    const cases = mock.get('getLicence')!;
    const negatives = cases.filter((c) => c.kind === 'negative');
    const served = negatives.slice(0, 2);
    const summary = summariseOutcomes(
      'getLicence',
      [],
      cases.map((c) =>
        served.includes(c)
          ? { case: c, ran: true, status: 200, served: true }
          : { case: c, ran: true, status: c.kind === 'negative' ? 400 : 200 },
      ),
    );
    expect(summary.served).toBe(2);
    expect(summary.refused).toBe(negatives.length - 2);
  });

  test('folds attachments of every form into one row per operation, keeping the fullest of repeats', () => {
    const licence = summariseOutcomes('getLicence', [], outcomes('getLicence', 0));
    const partial = summariseOutcomes('getLicence', [], outcomes('getLicence', 5));
    const search = summariseOutcomes('searchContent', [], outcomes('searchContent', 1));
    const rows = exploreSummary([
      {
        name: 'clm-explore',
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(partial)).toString('base64'),
      },
      JSON.stringify(licence),
      { name: 'clm-explore', body: Buffer.from(JSON.stringify(search)) },
      { name: 'clm-observations', body: JSON.stringify({ operation: 'x' }) },
      'not json',
      42,
      null,
    ]);
    expect(rows.map((r) => r.operation)).toEqual(['getLicence', 'searchContent']);
    expect(rows[0]).toEqual({
      operation: 'getLicence',
      positive: licence.positive.run,
      negative: licence.negative.run,
      notRun: 0,
      refused: 0,
      served: 0,
      parameters: 3,
    });
    expect(rows[1]!.notRun).toBe(1);
    expect(exploreSummary([])).toEqual([]);
  });
});
