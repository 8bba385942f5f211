export interface ApiKey {
  value: string;
  /** Whether the key may read restricted content (others get 403 on it). */
  restrictedContent: boolean;
}

/**
 * The key whitelist. These are demonstration keys of the mock, printed by `npm run mock`; they open
 * nothing but the mock.
 */
export const API_KEYS: ApiKey[] = [
  { value: 'mock-key-primary', restrictedContent: true },
  { value: 'mock-key-secondary', restrictedContent: true },
  { value: 'mock-key-limited', restrictedContent: false },
];
