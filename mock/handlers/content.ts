import { CONTENT_LAG_MS } from '../behaviour.ts';
import { toTimestamp, type ContentItem } from '../state/index.ts';
import type { Context, Handler, MockResponse } from '../types.ts';
import { fail, ok } from './respond.ts';

const ONTOLOGY = 'http://www.ft.com/ontology/content/';

/** Whether the item changed at or after `time`: the log is read from its end, newest first. */
function changedSince(context: Context, id: string, time: number): boolean {
  const log = context.state.log;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log.timeAt(i)! < time) return false;
    if (log.contentIdAt(i) === id) return true;
  }
  return false;
}

/** The item a content endpoint may show this key, or the error it answers instead. */
function readable(context: Context): ContentItem | MockResponse {
  const { defects, state } = context;
  const id = context.pathParams.itemId!.toLowerCase();
  const item = state.content.get(id);
  if (!item || (item.deleted && !defects.deletedContentServed))
    return fail(context, 404, 'Content not found');
  if (item.restricted && !context.key?.restrictedContent)
    return fail(context, 403, 'This content is not available to your key');
  if (defects.contentLagsFeed && changedSince(context, id, state.clock.now() - CONTENT_LAG_MS))
    return fail(context, 503, 'This content is not available yet: try again later');
  return item;
}

function contentBody(item: ContentItem, context: Context, path: string): Record<string, unknown> {
  const apiUrl = `${context.request.origin}/${path}/${item.id}`;
  return {
    id: `http://www.ft.com/thing/${item.id}`,
    type: `${ONTOLOGY}${item.kind}`,
    ...(item.kind === 'LiveBlogPost' ? {} : { bodyXML: `<body><p>${item.standfirst}.</p></body>` }),
    title: item.title,
    standfirst: item.standfirst,
    byline: item.byline,
    firstPublishedDate: toTimestamp(item.published),
    publishedDate: toTimestamp(item.published),
    webUrl: `https://www.ft.com/content/${item.id}`,
    apiUrl,
    requestUrl: context.requestUrl,
    canBeSyndicated: 'yes',
    accessLevel: item.restricted ? 'premium' : 'subscribed',
  };
}

function contentHandler(path: string, extra?: (item: ContentItem) => Record<string, unknown>): Handler {
  return (context) => {
    const item = readable(context);
    if ('status' in item) return item;
    return ok({ ...contentBody(item, context, path), ...extra?.(item) });
  };
}

export const getContent = contentHandler('content');
export const getContentItemV1 = contentHandler('content/items/v1');
export const getEnrichedContent = contentHandler('enrichedcontent', (item) => ({
  annotations: [
    {
      predicate: 'http://www.ft.com/ontology/annotation/about',
      id: `http://api.ft.com/things/${item.id.slice(0, 8)}-0000-4000-8000-000000000000`,
      apiUrl: `https://api.ft.com/concepts/${item.id.slice(0, 8)}-0000-4000-8000-000000000000`,
      types: ['http://www.ft.com/ontology/Topic'],
      prefLabel: item.title.split(' ')[0],
    },
  ],
}));

interface SearchBody {
  queryString?: unknown;
  resultContext?: { maxResults?: unknown; offset?: unknown; aspects?: unknown };
}

/** Content search over titles: every word of `queryString` must occur. */
export const searchContent: Handler = (context) => {
  let query: SearchBody;
  try {
    query = JSON.parse(context.request.body?.toString('utf8') ?? '') as SearchBody;
  } catch {
    return fail(context, 400, 'The request body is not JSON');
  }
  if (typeof query !== 'object' || query === null || typeof query.queryString !== 'string')
    return fail(context, 400, 'queryString is required and must be a string');
  const words = query.queryString.toLowerCase().split(/\s+/).filter(Boolean);
  const asked = query.resultContext ?? {};
  const maxResults = Number.isInteger(asked.maxResults)
    ? Math.min(Math.max(Number(asked.maxResults), 0), 100)
    : 20;
  const offset = Number.isInteger(asked.offset) ? Math.max(Number(asked.offset), 0) : 0;
  const aspects = Array.isArray(asked.aspects)
    ? asked.aspects.filter((a): a is string => typeof a === 'string')
    : [];
  const hits = [...context.state.content.values()].filter(
    (item) => !item.deleted && words.every((word) => item.title.toLowerCase().includes(word)),
  );
  const page = hits.slice(offset, offset + maxResults).map((item) => ({
    aspectSet: item.kind === 'Article' ? 'article' : 'blogPost',
    modelVersion: '1',
    id: item.id,
    apiUrl: `${context.request.origin}/content/${item.id}`,
    ...(aspects.includes('title') ? { title: { title: item.title } } : {}),
    ...(aspects.includes('lifecycle')
      ? {
          lifecycle: {
            initialPublishDateTime: toTimestamp(item.published),
            lastPublishDateTime: toTimestamp(item.published),
          },
        }
      : {}),
  }));
  const curations = ['ARTICLES', 'BLOGS'];
  return ok({
    query: {
      queryString: query.queryString,
      queryContext: { curations },
      resultContext: { maxResults, offset, aspects },
    },
    results: [{ indexCount: hits.length, curations, ...(page.length > 0 ? { results: page } : {}) }],
  });
};
