import { onStatus, rewrite, type Fault, LOSES_CHANGES } from './fault.ts';
import { nextOf, withQuery } from './requests.ts';

/** A link followed this long after it was served was kept for a later poll, not followed at once. */
const KEPT_AFTER = 1_000;
/** A page token with the time it was served appended, as the link of an empty page carries it here. */
const STAMPED = /^(\d+#\d+#[0-9a-f-]*)#kept(\d+)$/;

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const fromBase64url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/** Faults of a next link kept from one poll to the next: a walk followed at once never meets them. */
export const FEED_KEPT_FAULTS: Fault[] = [
  {
    name: 'kept-next-skips-change',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description:
      'The next link of an empty page, followed a second or more after it was served (kept for the ' +
      'next poll, or the next night), skips the first change published after it.',
    apply: (request, next, seen) => {
      const stamped = STAMPED.exec(fromBase64url(request.query.get('page') ?? ''));
      const read = stamped ? withQuery(request, (q) => q.set('page', base64url(stamped[1]!))) : request;
      return rewrite(['listNotifications'], (response, req, context) =>
        onStatus(200, (b) => {
          const link = nextOf(b);
          if (!link || !context) return;
          const now = context.state.clock.now();
          const notifications = b.notifications as unknown[];
          if (stamped && now - Number(stamped[2]) >= KEPT_AFTER) notifications.shift();
          // Only the link of an empty page is stamped: the one a client keeps for its next poll.
          if (notifications.length > 0) return;
          const url = new URL(String(link.href));
          url.searchParams.set(
            'page',
            base64url(`${fromBase64url(url.searchParams.get('page') ?? '')}#kept${now}`),
          );
          link.href = url.toString();
        })(response, req, context),
      )(read, next, seen);
    },
  },
];
