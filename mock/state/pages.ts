import { HOUR } from './clock.ts';
import type { Pickable } from './content-store.ts';
import type { Random } from './random.ts';

export interface PageItem {
  contentId: string;
  title: string;
  blogPost: boolean;
  initialPublish: number;
  lastPublish: number;
}

export interface Page {
  id: string;
  title: string;
  slug: string;
  /** A page that no longer exists answers 410. */
  gone: boolean;
  mainContent: PageItem[];
  skylineContent: PageItem[];
}

const TITLES = ['World', 'Companies', 'Markets', 'Opinion', 'Technology', 'Life & Arts'];

function itemsFrom(random: Random, content: Pickable, count: number): PageItem[] {
  return Array.from({ length: count }, () => {
    const item = content.item(random.int(0, content.length - 1));
    const initialPublish = item.published;
    return {
      contentId: item.id,
      title: item.title,
      blogPost: item.kind !== 'Article',
      initialPublish,
      lastPublish: initialPublish + random.int(0, 6 * HOUR),
    };
  });
}

export function makePages(random: Random, content: Pickable): Page[] {
  const pages = TITLES.map((title) => ({
    id: random.uuid(),
    title,
    slug: title.toLowerCase().replace(/[^a-z]+/g, '-'),
    gone: false,
    mainContent: itemsFrom(random, content, random.int(8, 20)),
    skylineContent: itemsFrom(random, content, random.int(2, 5)),
  }));
  pages.push({
    id: random.uuid(),
    title: 'Euro 2016',
    slug: 'euro-2016',
    gone: true,
    mainContent: [],
    skylineContent: [],
  });
  return pages;
}
