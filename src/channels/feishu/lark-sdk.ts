import { createRequire } from 'node:module';
import type * as Lark from '@larksuiteoapi/node-sdk';

let sdk: typeof Lark | undefined;

/**
 * The official Lark SDK, loaded with `require` on first use.
 *
 * Why not `import`: the SDK ships as one 6 MB CommonJS file, and importing it from an ES module
 * makes Node lex the whole file for its export names, which leaves about 33 MB more resident than
 * requiring it (67 vs 34 MB on Node 20, see `bench/feishu.bench.ts`): a third of the daemon's idle
 * memory. On first use, so that a command reading `FEISHU_APP_ID_PATTERN` does not load it at all.
 *
 * @example
 *   const client = new (larkSdk().Client)({ appId, appSecret });
 */
export function larkSdk(): typeof Lark {
  sdk ??= createRequire(import.meta.url)('@larksuiteoapi/node-sdk') as typeof Lark;
  return sdk;
}

/** `feishu_bot.domain` as the SDK takes it: its constants for the two clouds, else the base URL. */
export function larkDomain(domain: string): Lark.Domain | string {
  if (domain === 'feishu') return larkSdk().Domain.Feishu;
  if (domain === 'lark') return larkSdk().Domain.Lark;
  return domain.replace(/\/+$/, '');
}

/**
 * The SDK's own HTTP client with a per-request timeout (a request's own timeout wins), so a hung
 * request or a dead host cannot stall a reply or a credential check forever.
 */
export function httpWithTimeout(timeoutMs: number): Lark.HttpInstance {
  // The SDK types it as the axios instance it is; its response interceptor returns the body, which
  // is what `HttpInstance` (the type the SDK accepts back) promises.
  const http = larkSdk().defaultHttpInstance as unknown as Lark.HttpInstance;
  const t = <D>(o?: Lark.HttpRequestOptions<D>): Lark.HttpRequestOptions<D> => ({ timeout: timeoutMs, ...o });
  return {
    request: (o) => http.request(t(o)),
    get: (url, o) => http.get(url, t(o)),
    delete: (url, o) => http.delete(url, t(o)),
    head: (url, o) => http.head(url, t(o)),
    options: (url, o) => http.options(url, t(o)),
    post: (url, data, o) => http.post(url, data, t(o)),
    put: (url, data, o) => http.put(url, data, t(o)),
    patch: (url, data, o) => http.patch(url, data, t(o)),
  };
}
