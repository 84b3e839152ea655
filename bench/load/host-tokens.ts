import http from "node:http";
import { performance } from "node:perf_hooks";

// Host tokens for the load bench's sessions, from the emulator's
// `POST /_sandbox/host-token` (DESIGN.md "Its controls"): one read token per
// session identity, refreshed after 4 minutes (they live 5), and a few
// pre-minted unused tokens per writing session, since every write spends its
// token (DESIGN.md "The host bridge" 3). Minting is not timed and is not
// counted as app traffic (the bench reports it apart). Over node:http with
// keep-alive rather than fetch: forty mints a second through undici's fetch
// made enough garbage to stall this process (which times the answers) for
// tens of milliseconds at a time.

const TOKEN_REFRESH_AGE_MS = 4 * 60_000;
const REQUEST_TIMEOUT_MS = 15_000;

export interface Identity {
  organizationId: string;
  userId: string;
  noteId?: string;
  patientId?: string;
  facilityId?: string;
}

/** Mints host tokens at the emulator, a few at a time, so minting never crowds out the data traffic. */
export class TokenMint {
  minted = 0;
  failures = 0;
  onDemand = 0;
  private active = 0;
  private readonly queue: (() => void)[] = [];

  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly target: URL;

  constructor(
    emulatorUrl: string,
    public concurrency: number,
  ) {
    this.target = new URL("/_sandbox/host-token", emulatorUrl);
  }

  close(): void {
    this.agent.destroy();
  }

  /** A reused keep-alive socket the emulator had just closed as idle is tried once more, on a new one. */
  private post(payload: string, isRetry = false): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) };
      const request = http.request(this.target, { method: "POST", agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        response.on("error", reject);
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (!isRetry && request.reusedSocket && error.code === "ECONNRESET") this.post(payload, true).then(resolve, reject);
        else reject(error);
      });
      request.end(payload);
    });
  }

  async mint(identity: Identity): Promise<string> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active += 1;
    try {
      const answer = await this.post(JSON.stringify(identity));
      if (answer.status !== 200) throw new Error(`POST /_sandbox/host-token: ${answer.status} ${answer.text}`);
      const body: unknown = JSON.parse(answer.text);
      const token = typeof body === "object" && body !== null && "token" in body && typeof body.token === "string" ? body.token : null;
      if (token === null) throw new Error("POST /_sandbox/host-token: no token in the answer");
      this.minted += 1;
      return token;
    } catch (error) {
      this.failures += 1;
      throw error;
    } finally {
      this.active -= 1;
      this.queue.shift()?.();
    }
  }
}

interface Minted {
  token: string;
  at: number;
}

/** One identity's tokens: a reusable read token, and unused ones for writes. */
export class SessionTokens {
  private current: Minted | null = null;
  private readonly spares: Minted[] = [];
  private refilling = false;

  constructor(
    private readonly mint: TokenMint,
    readonly identity: Identity,
    private readonly spareCount: number,
  ) {}

  async prepare(): Promise<void> {
    await this.read();
    while (this.spares.length < this.spareCount) this.spares.push({ token: await this.mint.mint(this.identity), at: performance.now() });
  }

  async read(): Promise<string> {
    if (!this.current || performance.now() - this.current.at > TOKEN_REFRESH_AGE_MS) this.current = { token: await this.mint.mint(this.identity), at: performance.now() };
    return this.current.token;
  }

  /** An unused token (a write spends it); tops the spares up in the background. */
  async write(): Promise<string> {
    let spare = this.spares.shift();
    while (spare && performance.now() - spare.at > TOKEN_REFRESH_AGE_MS) spare = this.spares.shift();
    this.refill();
    if (spare) return spare.token;
    this.mint.onDemand += 1;
    return this.mint.mint(this.identity);
  }

  private refill(): void {
    if (this.refilling || this.spares.length >= this.spareCount) return;
    this.refilling = true;
    void (async () => {
      try {
        while (this.spares.length < this.spareCount) this.spares.push({ token: await this.mint.mint(this.identity), at: performance.now() });
      } catch {
        // counted by the mint; the next write mints on demand
      } finally {
        this.refilling = false;
      }
    })();
  }
}
