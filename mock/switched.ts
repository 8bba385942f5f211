import type { Defects } from './behaviour.ts';
import type { Context } from './types.ts';

/**
 * The switches that changed what a handler decided for one request, as the handler tells: how a
 * behaviour that only turns a switch on knows it was met.
 */
const switchedFor = new WeakMap<Context, Set<keyof Defects>>();

/** Notes that a switch changed what the handler decided for this request. */
export function switched(context: Context, name: keyof Defects): void {
  let names = switchedFor.get(context);
  if (!names) switchedFor.set(context, (names = new Set()));
  names.add(name);
}

/** Whether a switch changed what the handler decided for the request the pipeline last routed. */
export const wasSwitched = (context: Context | undefined, name: keyof Defects): boolean =>
  context !== undefined && (switchedFor.get(context)?.has(name) ?? false);
