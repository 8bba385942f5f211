import fc from 'fast-check';
import type { ChangeType, PublishRequest } from '../../mock/state/index.ts';
import { expect } from '../fixtures.ts';
import { HOUR, iso } from './feed-support.ts';
import {
  checkDeliveries,
  follow,
  itemFor,
  type ClientName,
  type FeedModel,
  type FeedReal,
} from './feed-model.ts';

/**
 * The steps of a feed's life, as fast-check commands: publishing, time passing, and clients that
 * poll, follow next links and keep one for later. Each prints as one line of a script, so a
 * shrunk failure reads as the scenario that breaks the feed.
 */

type FeedCommand = fc.AsyncCommand<FeedModel, FeedReal>;

const MINUTE = 60_000;

/** A duration as a person writes it, exactly: `1 h 1 ms`, `5 min 47 s`. */
function duration(ms: number): string {
  const parts: [number, string][] = [
    [Math.floor(ms / HOUR), 'h'],
    [Math.floor((ms % HOUR) / MINUTE), 'min'],
    [Math.floor((ms % MINUTE) / 1000), 's'],
    [ms % 1000, 'ms'],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, unit]) => `${n} ${unit}`)
      .join(' ') || '0 ms'
  );
}

/**
 * Publishes `count` changes, their types taken from `types` in turn, at the mock's current time: in
 * the newest change's millisecond if the clock has not moved since it was published.
 */
class Publish implements FeedCommand {
  constructor(
    readonly count: number,
    readonly types: ChangeType[],
  ) {}
  check(): boolean {
    return true;
  }
  run(model: FeedModel, real: FeedReal): Promise<void> {
    const requests = Array.from({ length: this.count }, (_, i): PublishRequest => {
      const type = this.types[i % this.types.length]!;
      return type === 'CREATE' ? { type } : { type, contentId: itemFor(real, type) };
    });
    const changes = real.mock.publish(requests);
    const time = Math.max(model.now, model.log.at(-1)?.time ?? 0);
    if (changes.some((c) => c.time !== time))
      expect(
        changes.map((c) => c.time),
        'published in the millisecond of the clock, or of the newest change',
      ).toEqual(changes.map(() => time));
    for (const change of changes) if (change.type === 'CREATE') real.items.push(change.contentId);
    model.log.push(...changes);
    checkDeliveries(model, real);
    return Promise.resolve();
  }
  toString(): string {
    const types = Array.from({ length: this.count }, (_, i) => this.types[i % this.types.length]!);
    return `publish(${this.count > 5 ? `${this.count} × ${this.types.join('/')}` : types.join(', ')})`;
  }
}

class Advance implements FeedCommand {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  run(model: FeedModel, real: FeedReal): Promise<void> {
    real.mock.advance(this.ms);
    model.now += this.ms;
    checkDeliveries(model, real);
    return Promise.resolve();
  }
  toString(): string {
    return `advance(${duration(this.ms)})`;
  }
}

/** Where a client starts: some time before now, or at (or just before) the newest change. */
interface Since {
  from: 'now' | 'newest';
  minus: number;
}

/** A client starts (again) from a `since` and reads the first page: the second client too. */
class PollFrom implements FeedCommand {
  constructor(
    readonly client: ClientName,
    readonly since: Since,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: FeedModel, real: FeedReal): Promise<void> {
    const base = this.since.from === 'now' ? model.now : (model.log.at(-1)?.time ?? model.now);
    const since = base - this.since.minus;
    const start = model.log.findIndex((c) => c.time > since);
    model.starts[this.client] = start < 0 ? model.log.length : start;
    model.kept.delete(this.client);
    const first = `${real.mock.url}/content/notifications?since=${iso(since)}`;
    real.clients[this.client] = { delivered: [], next: first };
    await follow(model, real, this.client, first);
  }
  toString(): string {
    const { from, minus } = this.since;
    return `${this.client}.pollFrom(${from}${minus > 0 ? ` − ${duration(minus)}` : ''})`;
  }
}

class FollowNext implements FeedCommand {
  constructor(readonly client: ClientName) {}
  check(model: Readonly<FeedModel>): boolean {
    return model.starts[this.client] !== undefined;
  }
  run(model: FeedModel, real: FeedReal): Promise<void> {
    return follow(model, real, this.client, real.clients[this.client]!.next);
  }
  toString(): string {
    return `${this.client}.followNext()`;
  }
}

/** The client keeps its next link aside, with what it had been delivered: a checkpoint. */
class KeepNext implements FeedCommand {
  constructor(readonly client: ClientName) {}
  check(model: Readonly<FeedModel>): boolean {
    return model.starts[this.client] !== undefined;
  }
  run(model: FeedModel, real: FeedReal): Promise<void> {
    const client = real.clients[this.client]!;
    client.kept = { next: client.next, delivered: client.delivered.length };
    model.kept.add(this.client);
    checkDeliveries(model, real);
    return Promise.resolve();
  }
  toString(): string {
    return `${this.client}.keepNext()`;
  }
}

/** The client goes back to its checkpoint, forgetting what came after it, and follows the kept link. */
class FollowKept implements FeedCommand {
  constructor(readonly client: ClientName) {}
  check(model: Readonly<FeedModel>): boolean {
    return model.kept.has(this.client);
  }
  run(model: FeedModel, real: FeedReal): Promise<void> {
    const client = real.clients[this.client]!;
    client.delivered.length = client.kept!.delivered;
    client.pagesFrom = client.pagesFrom?.filter((p) => p.at < client.kept!.delivered);
    return follow(model, real, this.client, client.kept!.next);
  }
  toString(): string {
    return `${this.client}.followKept()`;
  }
}

const TYPES: ChangeType[] = ['CREATE', 'UPDATE', 'DELETE'];
/**
 * Mostly one to five changes, one time in six a burst past a page (206 to 260). One integer
 * underneath, so a failing burst shrinks to the few changes that still fail.
 */
const changeCount = fc
  .integer({ min: 1, max: 60 })
  .map((n) => (n <= 50 ? Math.ceil(n / 10) : 200 + (n - 50) * 6));
/** The second client acts now and then: mostly one client meets the moving log. */
const client = fc.oneof(
  { arbitrary: fc.constant<ClientName>('A'), weight: 3 },
  { arbitrary: fc.constant<ClientName>('B'), weight: 1 },
);

/**
 * Command sequences over two clients: a few changes or a burst past 200, minutes or hours passing.
 * `replayPath` (FC_REPLAY_PATH) replays a failure's commands exactly, with its seed and path.
 */
export function feedCommands(maxCommands: number, replayPath?: string) {
  return fc.commands(
    [
      fc
        .tuple(changeCount, fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }))
        .map(([count, types]) => new Publish(count, types)),
      fc
        .oneof(fc.constantFrom(1, 1000), fc.integer({ min: 1, max: 10 * MINUTE }), {
          arbitrary: fc.integer({ min: HOUR, max: 3 * HOUR }),
          weight: 2,
        })
        .map((ms) => new Advance(ms)),
      fc
        .tuple(
          client,
          fc.record({
            from: fc.constantFrom<Since['from']>('now', 'newest'),
            minus: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 2 * HOUR })),
          }),
        )
        .map(([name, since]) => new PollFrom(name, since)),
      // Following is what clients do most: twice the weight of any other step.
      client.map((name) => new FollowNext(name)),
      client.map((name) => new FollowNext(name)),
      client.map((name) => new KeepNext(name)),
      client.map((name) => new FollowKept(name)),
    ],
    { maxCommands, size: '+1', ...(replayPath ? { replayPath } : {}) },
  );
}
