import { Clock } from './clock.ts';
import { makeContentItem, type ContentItem, type ContentKind } from './content.ts';
import { ContentStore } from './content-store.ts';
import { ChangeLog, type Change, type ChangeType } from './feed.ts';
import { API_KEYS, type ApiKey } from './keys.ts';
import {
  makeLicences,
  makeTokens,
  makeTrialExclusions,
  makeUsers,
  type Licence,
  type Token,
  type User,
} from './membership.ts';
import { makeImages, type SourceImage } from './images.ts';
import { makePages, type Page, type PageItem } from './pages.ts';
import { Random } from './random.ts';
import { seedLog } from './seed.ts';
import { IdTable } from './ids.ts';
import { ARCHIVE_ITEMS } from './grid.ts';
import { LiveFeed } from './live-feed.ts';

export type {
  ApiKey,
  Change,
  ChangeType,
  ContentItem,
  ContentKind,
  Licence,
  Page,
  PageItem,
  SourceImage,
  Token,
  User,
};
export { Clock, toTimestamp } from './clock.ts';
export { decodePosition, encodePosition, POSITION_TEXT, type Position } from './feed.ts';
export { LOG_DAYS } from './seed.ts';
export { DEFAULT_CHANGES_A_DAY } from './live-feed.ts';
export type { ContentStore } from './content-store.ts';

export interface StateOptions {
  seed: number;
  /** Start time of the clock (a fixed clock); real time when absent. */
  now?: number;
  /** Changes in the seeded log, laid out before the start (not with `publishPerDay`). */
  changes?: number;
  /**
   * On the real clock, changes a day of a feed that is a function of the seed and the time: its
   * history and what it publishes as time passes alike (none when absent or 0).
   */
  publishPerDay?: number;
  /** The wall clock a real clock follows: `Date.now` unless a test gives its own. */
  wall?: () => number;
  /** When a profile's backend restarts, for a profile that plays one (`ft-gateway`). */
  outage?: OutagePlan;
}

/** A backend restart: after `after` requests with a key, every one of them fails for `seconds` of wall time. */
export interface OutagePlan {
  after: number;
  seconds: number;
}

/** One item of each kind a client of the mock (or a test) needs to try every endpoint and status. */
export interface Examples {
  key: string;
  /** Another whitelisted key, offered as the throwaway key a live run may send over plain HTTP. */
  plainHttpKey: string;
  /** A whitelisted key that may not read restricted content. */
  limitedKey: string;
  licenceId: string;
  userId: string;
  otherUserId: string;
  /** Tokens of the first user: with `profile_max`, without it, and expired. */
  token: string;
  tokenWithoutProfileMax: string;
  expiredToken: string;
  pageId: string;
  gonePageId: string;
  contentId: string;
  restrictedContentId: string;
  /** A raster image, an SVG, and a source above 20 MB. */
  imageUri: string;
  svgImageUri: string;
  hugeImageUri: string;
}

export interface PublishRequest {
  type?: ChangeType;
  contentId?: string;
  kind?: ContentKind;
}

/** All the data of the mock, seeded; knows nothing of HTTP. */
export class State {
  readonly clock: Clock;
  readonly keys = new Map<string, ApiKey>(API_KEYS.map((k) => [k.value, k]));
  /** Content ids by number, shared by the items and the log. */
  private readonly ids = new IdTable();
  readonly content = new ContentStore(this.ids);
  readonly log = new ChangeLog(this.ids);
  readonly licences: Map<string, Licence>;
  readonly users: Map<string, User>;
  readonly tokens: Map<string, Token>;
  readonly pages: Map<string, Page>;
  readonly images: Map<string, SourceImage>;
  trialExclusions: string[] | undefined;
  /** When set, the deprecated v1 endpoints are gone and answer this status, as after their removal. */
  v1Retirement: 404 | 410 | undefined;

  private readonly seededTrialExclusions: string[];
  private readonly seededLength: number;
  private readonly undo: (() => void)[] = [];
  private publishRandom: Random;
  /** The real-clock feed that publishes as time passes, when there is one. */
  private readonly feed: LiveFeed | undefined;

  constructor(readonly options: StateOptions) {
    const random = new Random(options.seed);
    this.clock = new Clock(options.now, options.wall);
    const start = this.clock.now();
    this.feed = this.liveFeed(start);
    if (this.feed) this.log.load(this.feed.history, { referencesByTime: true });
    else this.log.load(seedLog(random, start, options.changes ?? 20_000, this.content));
    this.seededLength = this.log.length;
    this.licences = new Map(makeLicences(random, start).map((l) => [l.id, l]));
    this.seededTrialExclusions = makeTrialExclusions(random);
    this.trialExclusions = [...this.seededTrialExclusions];
    const users = makeUsers(random);
    this.users = new Map(users.map((u) => [u.id, u]));
    this.tokens = new Map(makeTokens(random, users, start).map((t) => [t.value, t]));
    // On the real clock, pages show archive items only: no change ever deletes one.
    const shown = this.content.readableItems(this.feed ? ARCHIVE_ITEMS : undefined);
    this.pages = new Map(makePages(random, shown).map((p) => [p.id, p]));
    this.images = new Map(makeImages(random).map((i) => [i.uri, i]));
    this.publishRandom = new Random(options.seed + 1);
  }

  /**
   * Records new changes at the clock's current time, as the real service would after an edit: a
   * creation makes a new item, an update or deletion picks a live item unless one is named.
   */
  publish(requests: PublishRequest[]): Change[] {
    this.catchUp();
    const time = Math.max(this.clock.now(), this.log.lastTime ?? 0);
    return requests.map((request) => {
      const type = request.type ?? 'UPDATE';
      let item = request.contentId ? this.content.get(request.contentId) : undefined;
      if (!item && type === 'CREATE') {
        item = makeContentItem(this.publishRandom, time, request.kind);
        item.restricted = false;
        const created = item;
        this.content.set(created.id, created);
        this.undo.push(() => this.content.delete(created.id));
      }
      item ??= this.someLiveItem();
      if (type === 'DELETE' && !item.deleted) {
        const deleted = item;
        deleted.deleted = true;
        this.undo.push(() => (deleted.deleted = false));
      }
      const change = { time, contentId: item.id, type };
      this.log.append(change);
      return change;
    });
  }

  /** The seeded examples, picked once, for the CLI's help and for the tests. */
  examples(): Examples {
    const first = <T>(items: Iterable<T>, where: (item: T) => boolean): T => {
      for (const item of items) if (where(item)) return item;
      throw new Error('The seeded data lacks an example');
    };
    const now = this.clock.now();
    const [user, other] = [...this.users.values()];
    const tokenOf = (where: (t: Token) => boolean) =>
      first(this.tokens.values(), (t) => t.userId === user!.id && where(t)).value;
    // An Article, whatever the feed's mode: a standalone mock on the real clock and a fixed-clock one
    // of the same seed then advertise items of one shape (an Article carries bodyXML, a live blog not).
    const content = (restricted: boolean) =>
      first(
        this.content.values(),
        (c) => !c.deleted && c.restricted === restricted && (restricted || c.kind === 'Article'),
      ).id;
    const image = (where: (i: SourceImage) => boolean) => first(this.images.values(), where).uri;
    const key = first(this.keys.values(), (k) => k.restrictedContent).value;
    return {
      key,
      plainHttpKey: first(this.keys.values(), (k) => k.restrictedContent && k.value !== key).value,
      limitedKey: first(this.keys.values(), (k) => !k.restrictedContent).value,
      licenceId: first(this.licences.keys(), () => true),
      userId: user!.id,
      otherUserId: other!.id,
      token: tokenOf((t) => t.scopes.includes('profile_max') && t.expiresAt > now),
      tokenWithoutProfileMax: tokenOf((t) => !t.scopes.includes('profile_max')),
      expiredToken: tokenOf((t) => t.expiresAt <= now),
      pageId: first(this.pages.values(), (p) => !p.gone).id,
      gonePageId: first(this.pages.values(), (p) => p.gone).id,
      contentId: content(false),
      restrictedContentId: content(true),
      imageUri: image((i) => i.format !== 'svg' && i.bytes <= 20 * 1024 * 1024),
      svgImageUri: image((i) => i.format === 'svg'),
      hugeImageUri: image((i) => i.bytes > 20 * 1024 * 1024),
    };
  }

  /** Adds a key to the whitelist: how a run's own key (CLM_API_KEY) opens the mock too. */
  allowKey(value: string): void {
    this.keys.set(value, { value, restrictedContent: true });
  }

  /** Registers a token: how a run's own token (CLM_USER_TOKEN) works against the mock too. */
  issueToken(token: Token): void {
    this.tokens.set(token.value, token);
  }

  /** Appends what the real-clock feed has published by now: called before each request is answered. */
  catchUp(): void {
    this.feed?.catchUp(this.clock.now());
  }

  /**
   * Back to the seeded state: published changes and items gone, clock and lists restored. The
   * real-clock feed publishes its changes again as it catches up.
   */
  reset(): void {
    for (const step of this.undo.splice(0).reverse()) step();
    this.log.truncate(this.seededLength);
    this.feed?.rewind();
    this.clock.reset();
    this.trialExclusions = [...this.seededTrialExclusions];
    this.v1Retirement = undefined;
    this.publishRandom = new Random(this.options.seed + 1);
  }

  private liveFeed(start: number): LiveFeed | undefined {
    const { publishPerDay = 0, changes, seed } = this.options;
    if (!(publishPerDay > 0)) return undefined;
    if (!this.clock.real) throw new Error('A feed that publishes as time passes needs the real clock');
    if (changes !== undefined)
      throw new Error('A feed that publishes as time passes has the size its rate gives: leave out changes');
    const target = { content: this.content, log: this.log, ids: this.ids, undo: this.undo };
    return new LiveFeed(seed, publishPerDay, start, target);
  }

  /** On the real-clock feed, past the archive: the advertised items are never deleted. */
  private someLiveItem(): ContentItem {
    const item = this.content.firstReadable(this.feed ? ARCHIVE_ITEMS : 0);
    if (!item) throw new Error('No live content item');
    return item;
  }
}
