import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { feedCommands } from './feed-commands.ts';
import { feedSetup } from './feed-model.ts';

/** The longest script of one run: long enough for a page, a publication and a poll to meet. */
const COMMANDS = 50;

// The feed while it moves: model-based tests on the mock, which publishes and moves its clock on demand.
test.describe('the change feed while changes are published', () => {
  test('clients polling while changes are published get every change after their start once, in order, across pages, polls, kept links and hours @NOTIF-09 @NOTIF-10 @NOTIF-11 @NOTIF-12 @property', async ({
    api,
    mock,
    config,
    fcParams,
  }) => {
    await fc.assert(
      fc.asyncProperty(feedCommands(COMMANDS, config.fcReplayPath), (commands) =>
        fc.asyncModelRun(() => feedSetup(api, mock), commands),
      ),
      fcParams,
    );
  });
});
