import type { Page } from '@playwright/test';

/**
 * Records what a page asks for beyond its own origin and what it complains about: the report and
 * docs pages must need nothing from outside and log no error.
 */
export function watch(page: Page, origin: string) {
  const outside: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { outside, errors };
}
