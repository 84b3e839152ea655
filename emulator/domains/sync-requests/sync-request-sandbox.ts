import * as z from "zod/mini";
import type { Hono } from "hono";
import type { Clock } from "../../clock.ts";
import { SandboxError } from "../../sandbox/sandbox-error.ts";
import type { ServiceState } from "../../service/service-state.ts";
import { sandboxApp, sandboxBody, sandboxOrg } from "../../sandbox/sandbox-request.ts";
import type { SyncRequestBook, SyncRequestRecord, SyncRequestRegistry } from "./sync-request-book.ts";

// The sync request controls under `/_sandbox/ehr/{organizationId}/sync-requests`
// (see docs/sandbox.md "On-demand sync requests"): script the next outcomes,
// complete a request now, and list the requests with their due time.

const outcomesRequest = z.strictObject({
  outcomes: z
    .array(z.strictObject({ status: z.enum(["completed", "failed"]), afterSeconds: z.optional(z.number().check(z.nonnegative(), z.maximum(172_800))) }))
    .check(z.minLength(1), z.maxLength(100)),
});

export interface SyncRequestSandboxDeps {
  state: ServiceState;
  clock: Clock;
  syncRequests: SyncRequestRegistry;
}

const describe = (record: SyncRequestRecord) => ({ syncRequest: record.syncRequest, outcome: record.outcome, dueAt: new Date(record.dueAt).toISOString() });

export function registerSyncRequestSandbox(sandbox: Hono, { state, clock, syncRequests }: SyncRequestSandboxDeps): void {
  const app = sandboxApp();
  const bookOf = (organizationId: string) => {
    const org = sandboxOrg(state, organizationId);
    return { org, book: syncRequests.bookOf(org.ehr.id) };
  };
  const scriptState = (book: SyncRequestBook) => ({ outcomes: book.scriptedOutcomes() });

  app.get("/ehr/:organizationId/sync-requests", (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    return c.json({ syncRequests: book.list().map(describe), ...scriptState(book) });
  });

  app.post("/ehr/:organizationId/sync-requests/outcomes", async (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    book.script((await sandboxBody(c, outcomesRequest)).outcomes);
    return c.json(scriptState(book));
  });
  app.get("/ehr/:organizationId/sync-requests/outcomes", (c) => c.json(scriptState(bookOf(c.req.param("organizationId")).book)));
  app.delete("/ehr/:organizationId/sync-requests/outcomes", (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    book.clearScript();
    return c.json(scriptState(book));
  });

  /** Runs the organization's sync now, which completes the request; answers what that sync changed and handed over. */
  app.post("/ehr/:organizationId/sync-requests/:id/complete", (c) => {
    const { org, book } = bookOf(c.req.param("organizationId"));
    const id = c.req.param("id").toLowerCase();
    const record = book.get(id);
    if (!record) throw new SandboxError(404, `unknown sync request ${id}`);
    if (!book.makeDue(id, clock.now())) throw new SandboxError(409, `sync request ${id} is already ${record.syncRequest.status}`);
    const [result] = state.sync(org.ehr.id);
    return c.json({ ...describe(record), changes: result?.changes ?? [], events: (result?.events ?? []).map((event) => ({ type: event.type, data: event.data })) });
  });

  sandbox.route("/", app);
}
