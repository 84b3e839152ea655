import type { Context } from "hono";

// A header set by a middleware after the handler has answered. Hono's
// `c.header` then rebuilds the response around its body *stream*
// (`new Response(res.body, res)`), which turns @hono/node-server's
// lightweight response (a string or bytes written in one go) into a web
// stream read chunk by chunk: measured under the load benchmark (1,000
// sessions, bench/RESULTS.md "History moved from docs/deploy.md"), about a
// tenth of the BFF's CPU. Setting the header on the response's own headers
// leaves the body alone; a response whose headers are immutable (one made by
// `fetch`, a redirect) is still copied by `c.header`.

export function setResponseHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
