import { formatUuid } from './ids.ts';
import type { Random } from './random.ts';

export type ContentKind = 'Article' | 'BlogPost' | 'LiveBlogPost';

export interface ContentItem {
  id: string;
  kind: ContentKind;
  title: string;
  standfirst: string;
  byline: string;
  published: number;
  /** Readable only by keys allowed restricted content. */
  restricted: boolean;
  deleted: boolean;
}

const SUBJECTS = [
  'Banks',
  'Markets',
  'Oil',
  'Chipmakers',
  'Retailers',
  'Insurers',
  'Airlines',
  'Miners',
  'Carmakers',
];
const VERBS = ['rally as', 'slide as', 'steady as', 'rebound while', 'stall as'];
const CAUSES = [
  'rates rise',
  'results beat forecasts',
  'regulators step in',
  'demand cools',
  'bond yields fall',
];
const BYLINES = ['Jane Doe in London', 'Kenji Sato in Tokyo', 'Maria Rossi in Milan', 'Sam Okafor in Lagos'];

/** The kinds, by code; a draw picks one of five, three of them articles. */
export const KINDS: readonly ContentKind[] = ['Article', 'BlogPost', 'LiveBlogPost'];
const KIND_DRAW = [0, 0, 0, 1, 2];

/** What an item's text is made of: indexes into the word lists and the kind's code. */
export interface ContentCodes {
  subject: number;
  verb: number;
  cause: number;
  kind: number;
  byline: number;
}

/** An item as drawn: all an item is made of but its time, its id as the 16 bytes of a UUID. */
export interface ContentDraw extends ContentCodes {
  idBytes: Uint8Array;
  restricted: boolean;
}

const index = (random: Random, items: readonly unknown[]) => random.int(0, items.length - 1);

/**
 * Draws an item, its id into `idBytes`: the same draws, in the same order, for a seeded item and a
 * published one.
 */
export function drawContent(random: Random, kind?: ContentKind, idBytes = new Uint8Array(16)): ContentDraw {
  const subject = index(random, SUBJECTS);
  const verb = index(random, VERBS);
  const cause = index(random, CAUSES);
  random.uuidBytes(idBytes, 0);
  return {
    idBytes,
    subject,
    verb,
    cause,
    kind: kind === undefined ? KIND_DRAW[index(random, KIND_DRAW)]! : KINDS.indexOf(kind),
    byline: index(random, BYLINES),
    restricted: random.chance(0.05),
  };
}

export function contentItem(id: string, codes: ContentCodes, published: number, restricted: boolean) {
  const title = `${SUBJECTS[codes.subject]!} ${VERBS[codes.verb]!} ${CAUSES[codes.cause]!}`;
  const item: ContentItem = {
    id,
    kind: KINDS[codes.kind]!,
    title,
    standfirst: `What the move means for investors: ${title.toLowerCase()}`,
    byline: BYLINES[codes.byline]!,
    published,
    restricted,
    deleted: false,
  };
  return item;
}

export function makeContentItem(random: Random, published: number, kind?: ContentKind): ContentItem {
  const draw = drawContent(random, kind);
  return contentItem(formatUuid(draw.idBytes, 0), draw, published, draw.restricted);
}
