import { toTimestamp, type Page, type PageItem } from '../state/index.ts';
import type { Context, Handler, MockResponse } from '../types.ts';
import { fail, ok } from './respond.ts';

function summary(page: Page, context: Context) {
  return {
    id: page.id,
    title: page.title,
    apiUrl: `${context.request.origin}/site/v1/pages/${page.id}`,
    webUrl: `https://www.ft.com/${page.slug}`,
  };
}

function findPage(context: Context): Page | MockResponse {
  const page = context.state.pages.get(context.pathParams.pageId!.toLowerCase());
  if (!page) return fail(context, 404, 'Page not found');
  if (page.gone) return fail(context, 410, 'Page no longer exists');
  return page;
}

function items(items: PageItem[]) {
  return items.map((item) => ({
    id: item.contentId,
    title: { title: item.title },
    lifecycle: {
      initialPublishDateTime: toTimestamp(item.initialPublish),
      lastPublishDateTime: toTimestamp(item.lastPublish),
    },
    location: { uri: `https://www.ft.com/content/${item.contentId}` },
  }));
}

function list(context: Context, page: Page, name: string, selected: PageItem[]): MockResponse {
  const listed = items(selected);
  return ok({
    requestUrl: context.requestUrl,
    total: listed.length,
    page: summary(page, context),
    pageItemsListName: name,
    pageItems: listed,
  });
}

/** `feature.blogposts`: `on` (the default, decision) lists blog posts too, `off` leaves them out. */
export const getPageMainContent: Handler = (context) => {
  const flag = context.request.query.get('feature.blogposts') ?? 'on';
  if (flag !== 'on' && flag !== 'off') return fail(context, 400, 'feature.blogposts must be on or off');
  const page = findPage(context);
  if ('status' in page) return page;
  const hideBlogPosts = (flag === 'off') !== context.defects.blogpostsInverted;
  const selected = hideBlogPosts ? page.mainContent.filter((item) => !item.blogPost) : page.mainContent;
  return list(context, page, 'main-content', selected);
};

export const getPageSkylineContent: Handler = (context) => {
  const page = findPage(context);
  if ('status' in page) return page;
  return list(context, page, 'skyline-content', page.skylineContent);
};

export const getPageV1: Handler = (context) => {
  const page = findPage(context);
  if ('status' in page) return page;
  const self = summary(page, context);
  return ok({
    requestUrl: context.requestUrl,
    page: {
      ...self,
      links: ['main-content', 'skyline-content'].map((rel) => ({ href: `${self.apiUrl}/${rel}`, rel })),
    },
  });
};

export const listPagesV1: Handler = (context) => {
  const pages = [...context.state.pages.values()].filter((p) => !p.gone).map((p) => summary(p, context));
  return ok({ requestUrl: context.requestUrl, total: pages.length, pages });
};
