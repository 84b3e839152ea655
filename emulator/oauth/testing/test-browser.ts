// A cookie-keeping client for the sign-in pages in tests: in-process
// (`emulator.app.request`) or over HTTP (`fetch` with a base URL). It
// follows no redirect, so a test sees every `Location`.

export type Fetcher = (path: string, init?: RequestInit) => Response | Promise<Response>;

export interface BrowserPage {
  status: number;
  /** The `Location` of a redirect, else null. */
  location: string | null;
  headers: Headers;
  html: string;
}

interface StoredCookie {
  value: string;
  path: string;
}

export class TestBrowser {
  private readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly fetcher: Fetcher) {}

  /** The cookie's value, if the emulator set one. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** Forgets every cookie, like a fresh browser profile. */
  clearCookies(): void {
    this.cookies.clear();
  }

  get(path: string): Promise<BrowserPage> {
    return this.send(path, { method: "GET" });
  }

  /** Posts a form (`application/x-www-form-urlencoded`); a name may repeat. */
  post(path: string, fields: ReadonlyArray<readonly [string, string]>): Promise<BrowserPage> {
    const body = new URLSearchParams(fields.map(([name, value]): [string, string] => [name, value])).toString();
    return this.send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  }

  private async send(path: string, init: RequestInit): Promise<BrowserPage> {
    const pathname = path.startsWith("http") ? new URL(path).pathname : path.split("?")[0] ?? path;
    const cookieHeader = [...this.cookies]
      .filter(([, cookie]) => pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join("; ");
    const headers = new Headers(init.headers);
    if (cookieHeader) headers.set("cookie", cookieHeader);
    const response = await this.fetcher(path, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) this.store(line);
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, html: await response.text() };
  }

  private store(line: string): void {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const equals = pair.indexOf("=");
    if (equals < 1) return;
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    const path = attributes.find((attribute) => attribute.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
    const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute));
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, { value, path });
  }
}
