import { Hono } from "hono";
import { parseV3PathId, toRawUuid, type IdPrefix } from "#contract/ids.ts";
import type { EmulatorClock } from "../clock.ts";
import type { FaultRegistry } from "../http/faults.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";
import type { ServiceState } from "../service/service-state.ts";
import { issueHostToken } from "../tokens/host-token-issuer.ts";
import type { SigningKey } from "../tokens/signing-keys.ts";
import type { WebhookDispatcher } from "../webhooks/webhook-dispatcher.ts";
import type { EmulatorSettings } from "../routes/route-deps.ts";
import { createHostPageRoutes } from "../host-page/host-page.ts";
import { textTimestampAt } from "../routes/note-routes.ts";
import { applyInstallationChange } from "./installation-changes.ts";
import { createEhrAppointment, patchEhrAppointment } from "./ehr-appointments.ts";
import { avatarSvg } from "./avatar-svg.ts";
import { createRequestStatsRoutes } from "./request-stats.ts";
import { SandboxError } from "./sandbox-error.ts";
import { sandboxBody, sandboxOrg } from "./sandbox-request.ts";
import {
  clockRequest,
  ehrAppointmentCreate,
  ehrAppointmentPatch,
  ehrFacilityPatch,
  ehrNotePatch,
  ehrProviderPatch,
  faultRequest,
  hostTokenRequest,
  installationRequest,
  syncRequest,
  webhookSecretsRequest,
  webhookTargetRequest,
} from "./sandbox-schemas.ts";

// The emulator's controls under `/_sandbox/` (DESIGN.md "Its controls").
// They answer plain JSON, no envelope; errors are `{code, message}`.

export interface SandboxDeps {
  state: ServiceState;
  clock: EmulatorClock;
  faults: FaultRegistry;
  limiter: RateLimiter;
  dispatcher: WebhookDispatcher;
  signingKey: () => Promise<SigningKey>;
  settings: EmulatorSettings;
  signingSecrets: { current: string[]; readonly initial: string[] };
  /** State kept outside `ServiceState` that reset also clears (OAuth codes, sign-in sessions, consents). */
  onReset?: () => void;
}

const body = sandboxBody;
const orgOf = sandboxOrg;

function idOf(value: string, prefix: IdPrefix, name: string): string {
  const raw = parseV3PathId(value, prefix);
  if (!raw) throw new SandboxError(400, `${name}: must be a valid id`);
  return raw;
}

export function createSandboxRoutes(deps: SandboxDeps): Hono {
  const { state, clock, faults, limiter, dispatcher, settings } = deps;
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof SandboxError) return c.json({ code: error.status === 404 ? "not_found" : "bad_request", message: error.message }, error.status);
    throw error;
  });

  app.post("/host-token", async (c) => {
    const request = await body(c, hostTokenRequest);
    const org = orgOf(state, request.organizationId);
    const userId = idOf(request.userId, "prv", "userId");
    const user = org.ehr.providers.find((provider) => provider.id === userId);
    if (!user) throw new SandboxError(400, `userId: ${request.userId} is not a user of this organization`);
    const patientId = request.patientId ? idOf(request.patientId, "pat", "patientId") : undefined;
    if (patientId && !org.ehr.patients.some((patient) => patient.id === patientId)) throw new SandboxError(400, "patientId: not a patient of this organization");
    const facilityId = request.facilityId ? idOf(request.facilityId, "fac", "facilityId") : undefined;
    if (facilityId && !org.ehr.facilities.some((facility) => facility.id === facilityId)) throw new SandboxError(400, "facilityId: not a facility of this organization");
    const noteId = request.noteId?.toLowerCase();
    if (noteId && !org.ehr.notes.some((note) => note.id === noteId)) throw new SandboxError(400, "noteId: not a note of this organization");
    const token = await issueHostToken(await deps.signingKey(), settings.publicUrl, clock, {
      organizationId: org.ehr.id,
      userId: user.id,
      roles: user.roles,
      facilityId,
      patientId,
      noteId,
    });
    return c.json({ token });
  });

  app.get("/ehr/:organizationId/users", (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    return c.json({
      users: org.ehr.providers.map((provider) => ({
        id: provider.id,
        firstName: provider.firstName,
        lastName: provider.lastName,
        displayName: `${provider.displayFirstName} ${provider.displayLastName}`.trim(),
        title: provider.title,
        roles: provider.roles,
        hidden: provider.hidden,
        active: provider.active,
      })),
    });
  });

  app.get("/ehr/:organizationId/notes", (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    return c.json({
      notes: org.ehr.notes.map((note) => ({
        id: note.id,
        status: note.status,
        visitDate: note.visitDate,
        patientId: note.patient.id,
        patientName: `${note.patient.firstName} ${note.patient.lastName}`,
        facilityId: note.facility.id,
        facilityName: note.facility.name,
        assignedProviderIds: note.assignedProviders.map((provider) => provider.id),
        imageCount: note.images.length,
      })),
    });
  });

  app.post("/reset", (c) => {
    clock.reset();
    state.reset();
    faults.clear();
    limiter.reset();
    dispatcher.reset();
    deps.signingSecrets.current = [...deps.signingSecrets.initial];
    deps.onReset?.();
    return c.json({ reset: true, now: new Date(clock.now()).toISOString() });
  });

  app.post("/clock", async (c) => {
    clock.set(await body(c, clockRequest));
    return c.json({ now: new Date(clock.now()).toISOString(), frozen: clock.isFrozen() });
  });
  app.get("/clock", (c) => c.json({ now: new Date(clock.now()).toISOString(), frozen: clock.isFrozen() }));

  app.post("/faults", async (c) => {
    const request = await body(c, faultRequest);
    if (request.status === undefined && request.code === undefined && request.latencyMs === undefined && request.afterAction === undefined) {
      throw new SandboxError(400, "body: a fault needs status, code, latencyMs or afterAction");
    }
    const fault = faults.add(request);
    return c.json({ id: fault.id, ...request });
  });
  app.get("/faults", (c) => c.json({ faults: faults.list().map(({ pattern: _pattern, ...fault }) => fault) }));
  app.delete("/faults", (c) => {
    faults.clear();
    return c.json({ cleared: true });
  });

  app.post("/webhooks", async (c) => {
    const target = await body(c, webhookTargetRequest);
    dispatcher.configure(target);
    return c.json({ target });
  });
  app.get("/webhooks", (c) => c.json({ target: dispatcher.target(), attempts: dispatcher.attempts() }));
  app.delete("/webhooks", (c) => {
    dispatcher.configure(null);
    return c.json({ target: null });
  });
  /** Rotation: the endpoint's secrets; each signs, so a receiver with either verifies. */
  app.put("/webhooks/secrets", async (c) => {
    deps.signingSecrets.current = (await body(c, webhookSecretsRequest)).secrets;
    return c.json({ secrets: deps.signingSecrets.current.length });
  });
  /** The portal's "send test event" button. */
  app.post("/webhooks/test", (c) => {
    const [messageId] = dispatcher.send([{ type: "test.event", data: { message: "Test event from the sandbox" }, timestamp: new Date(clock.now()).toISOString() }]);
    return c.json({ messageId });
  });

  app.post("/ehr/:organizationId/appointments", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const appointment = createEhrAppointment(org, await body(c, ehrAppointmentCreate), clock.now(), state.newId());
    return c.json({ appointment }, 201);
  });

  app.patch("/ehr/:organizationId/appointments/:id", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const id = c.req.param("id");
    const appointment = org.ehr.appointments.find(
      (candidate) => candidate.id === id.toLowerCase() || candidate.integrationAppointmentId.toLowerCase() === id.toLowerCase(),
    );
    if (!appointment) throw new SandboxError(404, `unknown appointment ${id}`);
    patchEhrAppointment(org, appointment, await body(c, ehrAppointmentPatch), clock.now());
    return c.json({ appointment });
  });

  app.patch("/ehr/:organizationId/providers/:id", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const id = idOf(c.req.param("id"), "prv", "id");
    const provider = org.ehr.providers.find((candidate) => candidate.id === id);
    if (!provider) throw new SandboxError(404, `unknown provider ${id}`);
    Object.assign(provider, await body(c, ehrProviderPatch), { updatedAt: new Date(clock.now()).toISOString() });
    return c.json({ provider });
  });

  app.patch("/ehr/:organizationId/facilities/:id", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const id = idOf(c.req.param("id"), "fac", "id");
    const facility = org.ehr.facilities.find((candidate) => candidate.id === id);
    if (!facility) throw new SandboxError(404, `unknown facility ${id}`);
    Object.assign(facility, await body(c, ehrFacilityPatch), { updatedAt: new Date(clock.now()).toISOString() });
    return c.json({ facility });
  });

  // A change made in the EHR: a new version there; the service's mirror shows it after the next sync.
  app.patch("/ehr/:organizationId/notes/:noteId", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const noteId = c.req.param("noteId").toLowerCase();
    const note = org.ehr.notes.find((candidate) => candidate.id === noteId);
    if (!note) throw new SandboxError(404, `unknown note ${noteId}`);
    Object.assign(note.soapNote, (await body(c, ehrNotePatch)).soapNote);
    note.version += 1;
    note.updatedAt = textTimestampAt(clock.now());
    return c.json({ id: note.id, version: note.version, updatedAt: note.updatedAt });
  });

  app.post("/ehr/:organizationId/notes/:noteId/sign", (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const noteId = c.req.param("noteId").toLowerCase();
    const note = org.ehr.notes.find((candidate) => candidate.id === noteId);
    if (!note) throw new SandboxError(404, `unknown note ${noteId}`);
    note.status = "signed";
    return c.json({ id: note.id, status: note.status });
  });

  app.post("/installations/:organizationId", async (c) => {
    const org = orgOf(state, c.req.param("organizationId"));
    const events = applyInstallationChange(org, await body(c, installationRequest), clock.now());
    const messageIds = state.emit(events);
    return c.json({ installation: org.installation, events: events.map((event) => event.type), messageIds });
  });

  app.post("/sync", async (c) => {
    const request = await body(c, syncRequest);
    if (request.organizationId) orgOf(state, request.organizationId);
    const results = state.sync(request.organizationId);
    return c.json({ results: results.map((result) => ({ organizationId: result.organizationId, changes: result.changes, events: result.events.map((event) => ({ type: event.type, data: event.data })) })) });
  });

  app.route("/", createRequestStatsRoutes({ limiter, clock }));
  // The EHR host page and its assets (`/host`, `/host.js`, …).
  app.route("/", createHostPageRoutes({ state, settings, sandbox: app }));

  app.get("/avatars/:file", (c) => {
    // The avatar URL is time-limited (seed 000 "Patient"): an expired or unsigned link is refused.
    const expires = Number(c.req.query("expires"));
    if (!Number.isFinite(expires) || expires * 1000 < clock.now()) return c.json({ code: "forbidden", message: "avatar link expired" }, 403);
    const patientId = toRawUuidOrNull(c.req.param("file").replace(/\.svg$/, ""));
    const patient = patientId ? state.organizations().flatMap((org) => org.ehr.patients).find((candidate) => candidate.id === patientId) : undefined;
    if (!patient) throw new SandboxError(404, "unknown avatar");
    return c.body(avatarSvg(patient.firstName, patient.lastName), 200, { "Content-Type": "image/svg+xml", "Cache-Control": "private, max-age=900" });
  });

  return app;
}

function toRawUuidOrNull(value: string): string | null {
  try {
    return toRawUuid(value);
  } catch {
    return null;
  }
}
