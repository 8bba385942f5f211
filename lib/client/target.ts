import type { Config } from '../config.ts';
import type { Target } from './types.ts';

/** The configured service as a target: the one reading of CLM_BASE_URL and its companions. */
export function liveTargetOf(config: Config): Target {
  if (!config.baseUrl || !config.apiKey) throw new Error('A live target needs CLM_BASE_URL and CLM_API_KEY');
  return {
    kind: 'live',
    baseUrl: config.baseUrl,
    httpBaseUrl: config.httpBaseUrl,
    imagesUrl: config.imageBaseUrl,
    key: config.apiKey,
    insecureTls: config.insecureTls,
  };
}
