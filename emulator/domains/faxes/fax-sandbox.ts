import * as z from "zod/mini";
import type { Hono } from "hono";
import { faxErrorKind } from "#contract/clinic-api/faxes.ts";
import type { Clock } from "../../clock.ts";
import { SandboxError } from "../../sandbox/sandbox-error.ts";
import type { OrgState, ServiceState } from "../../service/service-state.ts";
import type { FaxBook, FaxRecord, FaxRegistry, ScriptedFaxOutcome } from "./fax-book.ts";
import { sandboxApp, sandboxBody, sandboxOrg } from "../../sandbox/sandbox-request.ts";

// The fax controls under `/_sandbox/ehr/{organizationId}/faxes` (see
// docs/sandbox.md "Faxes"): script the EHR's next answers, lose the next
// announcements, complete a fax now, and look at every fax with its
// scheduled outcome.

const scriptedOutcome = z.strictObject({
  status: z.enum(["delivered", "failed", "ehr_send_failed"]),
  errorKind: z.optional(faxErrorKind),
  afterSeconds: z.optional(z.number().check(z.nonnegative(), z.maximum(172_800))),
});
const outcomesRequest = z.strictObject({ outcomes: z.array(scriptedOutcome).check(z.minLength(1), z.maxLength(100)) });
const dropRequest = z.strictObject({ count: z.optional(z.int().check(z.minimum(1), z.maximum(100))) });

export interface FaxSandboxDeps {
  state: ServiceState;
  clock: Clock;
  faxes: FaxRegistry;
}

function toScripted(outcome: z.infer<typeof scriptedOutcome>, index: number): ScriptedFaxOutcome {
  const at = `outcomes.${index}`;
  if (outcome.status !== "failed" && outcome.errorKind !== undefined) throw new SandboxError(400, `${at}.errorKind: only with status failed`);
  const delay = outcome.afterSeconds === undefined ? {} : { afterSeconds: outcome.afterSeconds };
  switch (outcome.status) {
    case "ehr_send_failed":
      if (outcome.afterSeconds !== undefined) throw new SandboxError(400, `${at}.afterSeconds: a refusal is synchronous`);
      return { status: "ehr_send_failed" };
    case "failed":
      if (outcome.errorKind === undefined) throw new SandboxError(400, `${at}.errorKind: is required when status is failed`);
      return { status: "failed", errorKind: outcome.errorKind, ...delay };
    case "delivered":
      return { status: "delivered", ...delay };
  }
}

function describe(record: FaxRecord) {
  return {
    fax: record.fax,
    outcome: record.outcome,
    dueAt: new Date(record.dueAt).toISOString(),
    /** null while in flight; `handed_over` or `dropped` once terminal. */
    announcement: record.announcement,
  };
}

export function registerFaxSandbox(sandbox: Hono, { state, clock, faxes }: FaxSandboxDeps): void {
  const app = sandboxApp();
  /** Commits due outcomes and hands their events over; returns what was sent. */
  const advance = (org: OrgState, book: FaxBook) => state.emitForOrganization(org, book.advance(clock.now()));
  const bookOf = (organizationId: string) => {
    const org = sandboxOrg(state, organizationId);
    return { org, book: faxes.bookOf(org.ehr.id) };
  };
  const scriptState = (book: FaxBook) => ({ outcomes: book.scriptedOutcomes(), dropAnnouncements: book.pendingDrops() });

  app.get("/ehr/:organizationId/faxes", (c) => {
    const { org, book } = bookOf(c.req.param("organizationId"));
    advance(org, book);
    return c.json({ faxes: book.list().map(describe), ...scriptState(book) });
  });

  app.post("/ehr/:organizationId/faxes/outcomes", async (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    const request = await sandboxBody(c, outcomesRequest);
    book.script(request.outcomes.map(toScripted));
    return c.json(scriptState(book));
  });
  app.get("/ehr/:organizationId/faxes/outcomes", (c) => c.json(scriptState(bookOf(c.req.param("organizationId")).book)));
  app.delete("/ehr/:organizationId/faxes/outcomes", (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    book.clearScript();
    return c.json(scriptState(book));
  });

  app.post("/ehr/:organizationId/faxes/drop-announcements", async (c) => {
    const { book } = bookOf(c.req.param("organizationId"));
    book.dropNextAnnouncements((await sandboxBody(c, dropRequest)).count ?? 1);
    return c.json(scriptState(book));
  });

  app.post("/ehr/:organizationId/faxes/:faxId/complete", (c) => {
    const { org, book } = bookOf(c.req.param("organizationId"));
    const faxId = c.req.param("faxId").toLowerCase();
    const record = book.get(faxId);
    if (!record) throw new SandboxError(404, `unknown fax ${faxId}`);
    if (!book.makeDue(faxId, clock.now())) throw new SandboxError(409, `fax ${faxId} is already ${record.fax.status}`);
    const events = advance(org, book);
    return c.json({ ...describe(record), events: events.map((event) => ({ type: event.type, data: event.data })) });
  });

  sandbox.route("/", app);
}
