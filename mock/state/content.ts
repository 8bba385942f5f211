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

export function makeContentItem(random: Random, published: number, kind?: ContentKind): ContentItem {
  const title = `${random.pick(SUBJECTS)} ${random.pick(VERBS)} ${random.pick(CAUSES)}`;
  return {
    id: random.uuid(),
    kind: kind ?? random.pick<ContentKind>(['Article', 'Article', 'Article', 'BlogPost', 'LiveBlogPost']),
    title,
    standfirst: `What the move means for investors: ${title.toLowerCase()}`,
    byline: random.pick(BYLINES),
    published,
    restricted: random.chance(0.05),
    deleted: false,
  };
}
