/** A secret and the environment variable a reproduction names in its place. */
export interface Secret {
  value: string;
  name: string;
}

/**
 * The shortest value treated as a secret, redacted and looked for in answers: a shorter one (a
 * fuzzed key, say) would match unrelated text by chance.
 */
export const MIN_SECRET_LENGTH = 8;

/** Replaces every secret by `$NAME`, so what is shown can be replayed with the environment set. */
export class Redactor {
  private readonly secrets: Secret[];

  constructor(secrets: Secret[]) {
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = secrets
      .filter((s) => s.value.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.value.length - a.value.length);
  }

  /** This redactor's secrets and more: a list, or another redactor's. */
  with(more: Secret[] | Redactor): Redactor {
    return new Redactor([...this.secrets, ...(more instanceof Redactor ? more.secrets : more)]);
  }

  values(): string[] {
    return this.secrets.map((s) => s.value);
  }

  text(input: string): string {
    let out = input;
    for (const { value, name } of this.secrets) {
      out = out.split(value).join(`$${name}`);
      const encoded = encodeURIComponent(value);
      if (encoded !== value) out = out.split(encoded).join(`$${name}`);
    }
    return out;
  }
}

/** A `curl` line that replays a request, secrets as `$NAME` so the shell fills them in. */
export function curlLine(
  request: { method: string; url: string; headers: Record<string, string>; body?: string; insecure: boolean },
  redactor: Redactor,
): string {
  const quote = (s: string) => `"${redactor.text(s).replace(/["`\\]/g, '\\$&')}"`;
  const parts = [
    'curl -sS',
    request.insecure ? '-k' : '',
    request.method === 'GET' ? '' : `-X ${request.method}`,
  ];
  for (const [name, value] of Object.entries(request.headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (request.body !== undefined) parts.push(`--data-raw ${quote(request.body)}`);
  parts.push(quote(request.url));
  return parts.filter(Boolean).join(' ');
}
