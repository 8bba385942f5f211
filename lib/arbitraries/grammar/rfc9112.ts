import { jsonBodied, productions, type Grammar, type GrammarInput, type HttpForm } from './production.ts';

/**
 * RFC 9112, HTTP/1.1 message syntax: how one request is framed. The request-target in absolute-form,
 * which a server MUST accept (§3.2.2); a body chunked instead of counted (§6.1, §7.1); the
 * connection closed after the answer or kept open (§9.3, §9.6). Each is the same request to a
 * server; what no client may send is never drawn.
 */

export const RFC9112 = productions('rfc9112', [
  {
    rule: 'request-target:absolute-form',
    summary: 'GET https://host/path HTTP/1.1 (§3.2.2: a server MUST accept it)',
  },
  { rule: 'connection:close', summary: 'Connection: close, the last request of its connection (§9.6)' },
  {
    rule: 'connection:keep-alive',
    summary: 'Connection: keep-alive, said though HTTP/1.1 implies it (§9.3)',
  },
  { rule: 'body:chunked', summary: 'the body in chunks, with no Content-Length (§7.1)' },
  {
    rule: 'obs-fold',
    summary: 'a field value folded over two lines',
    never: 'decision: a sender MUST NOT generate obs-fold (§5.2); a server may refuse it with 400',
  },
  {
    rule: 'request-target:asterisk-form',
    summary: 'OPTIONS * HTTP/1.1',
    never: 'decision: it names the server, not an operation of the contract (§3.2.4)',
  },
  {
    rule: 'request-target:authority-form',
    summary: 'CONNECT host:port',
    never: 'decision: only CONNECT takes it, a method of proxies (§3.2.3)',
  },
]);

function forms({ op }: GrammarInput): HttpForm[] {
  const out: HttpForm[] = [
    {
      production: 'rfc9112:request-target:absolute-form',
      at: '(request-target)',
      change: { wire: { absoluteForm: true } },
      held: 'answer',
    },
    {
      production: 'rfc9112:connection:close',
      at: 'header Connection',
      change: { headers: { Connection: 'close' } },
      held: 'answer',
    },
    {
      production: 'rfc9112:connection:keep-alive',
      at: 'header Connection',
      change: { headers: { Connection: 'keep-alive' } },
      held: 'answer',
    },
  ];
  if (jsonBodied(op))
    out.push({
      production: 'rfc9112:body:chunked',
      at: '(body)',
      change: { wire: { chunked: true } },
      held: 'answer',
    });
  return out;
}

export const rfc9112: Grammar = { name: 'rfc9112', productions: RFC9112, forms };
