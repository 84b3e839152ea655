import type { FrameLocator, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clearFaults, editAsSomeoneElse, noteScene, openNote, type NoteScene } from "./support/notes.ts";
import { ORG_A, ORG_B, appUrl, resetSandbox, sandbox, userWithRole, type SandboxUser } from "./support/sandbox.ts";
import { signInOutsideEhr } from "./support/standalone.ts";

// Shared workstations (issue 36 item 13, ADR 0025): another organization or
// another user signed in to the EHR must never see anything of the previous
// one in Tandem, not even while the new one's reads are on their way. The
// sandbox host page reloads the app on such a switch; an EHR may instead send
// the new context to the app as it runs (DESIGN.md "The host bridge": a
// `tandem:context` whenever the host's context changes), which is what these
// tests do, with the service answering 2 s late. The app's text (and its
// fields' values) is sampled every 75 ms throughout.

/** What the physician wrote in the note: nobody else may see it after the switch. */
const NOTE_TEXT = "Identity check: plaques spread to the left elbow since Tuesday.";
const SAMPLE_EVERY_MS = 75;
const LATENCY_MS = 2_000;
/** The service's reads the app's views cause, each answered 2 s late. */
const SLOW_READS = ["/v1/installations", "/v1/installations/{id}", "/v1/providers", "/v1/providers/{id}", "/v1/facilities", "/v1/facilities/{id}", "/v1/patients/{id}", "/v1/appointments", "/v1/notes/{id}", "/v3/notes/{id}/images", "/v2/tasks", "/v2/schedule/slots"];

interface Sample {
  /** Taken after the switch had been delivered to the app and drawn. */
  afterSwitch: boolean;
  /** When it was taken, in ms after the switch (negative before). */
  atMs: number;
  text: string;
  signedInUser: string;
}

/** Samples the app's text and field values (its `body`, in the EHR's frame or at its own address) every SAMPLE_EVERY_MS until stopped. */
function recordApp(body: Locator) {
  const samples: Sample[] = [];
  let afterSwitch = false;
  let switchedAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const takenAfterSwitch = afterSwitch;
      const atMs = performance.now() - switchedAt;
      const sample = await body
        .evaluate(
          (body) => ({
            text: [(body as HTMLElement).innerText, ...Array.from(body.querySelectorAll("input, textarea"), (field) => (field as HTMLInputElement | HTMLTextAreaElement).value)].join("\n"),
            signedInUser: body.querySelector("[data-testid=signed-in-user]")?.textContent ?? "",
          }),
          undefined,
          { timeout: 1_000 },
        )
        .catch(() => null);
      if (sample) samples.push({ afterSwitch: takenAfterSwitch, atMs, ...sample });
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return {
    samples,
    switched: () => {
      afterSwitch = true;
      switchedAt = performance.now();
    },
    /** Stops once the samples after the switch cover the service's delay and more. */
    stop: async () => {
      const coveredMs = LATENCY_MS + 1_000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, switchedAt + coveredMs - performance.now())));
      stopped = true;
      await running;
      return samples;
    },
  };
}

/** The samples after the switch cover the service's delay: one at least every second (a busy machine of 2 cores samples slower than asked), the last past it. */
function expectCoversTheDelay(after: Sample[]): void {
  const times = after.map((sample) => sample.atMs);
  expect(times.at(-1) ?? 0).toBeGreaterThan(LATENCY_MS);
  expect(times.slice(1).map((time, index) => time - (times[index] ?? 0)).filter((gap) => gap > 1_000)).toEqual([]);
}

const nameOf = (user: SandboxUser) => user.displayName.split(",")[0] ?? user.displayName;

/**
 * The EHR signs another organization or user in and tells the running app (a new `tandem:context` with that
 * identity's host token); resolves once the app has handled the message and drawn a frame after it.
 */
async function switchInEhr(page: Page, identity: { organizationId: string; userId: string; organizationName: string; noteId?: string; patientId?: string }): Promise<void> {
  const { token } = await sandbox<{ token: string }>("POST", "/host-token", {
    organizationId: identity.organizationId,
    userId: identity.userId,
    ...(identity.noteId ? { noteId: identity.noteId } : {}),
    ...(identity.patientId ? { patientId: identity.patientId } : {}),
  });
  const frame = page.frames().find((candidate) => candidate.url().startsWith(appUrl()));
  if (!frame) throw new Error("app frame not found");
  const sentinel = `tandem-e2e:switched:${identity.userId}`;
  await frame.evaluate((expected) => {
    const seen = new Promise<void>((resolve) => {
      window.addEventListener("message", (event) => {
        if (event.data === expected) resolve();
      });
    });
    Object.assign(window, { tandemSwitchSeen: seen });
  }, sentinel);
  await page.evaluate(
    ({ token: hostToken, identity: next, sentinel: marker }) => {
      const host = (window as Window & { __tandemHost?: { nonce: string | null; appOrigin: string } }).__tandemHost;
      const app = document.querySelector<HTMLIFrameElement>("iframe#tandem-app")?.contentWindow;
      if (!host?.nonce || !app) throw new Error("the host page has no session with the app");
      const context = { organizationName: next.organizationName, patientId: next.patientId ?? null, noteId: next.noteId ?? null, appointmentId: null, facilityId: null };
      app.postMessage({ type: "tandem:context", nonce: host.nonce, token: hostToken, context }, host.appOrigin);
      // Messages from one window arrive in order: once the app has this one, it has handled the context.
      app.postMessage(marker, "*");
    },
    { token, identity, sentinel },
  );
  await frame.evaluate(async () => {
    await (window as Window & { tandemSwitchSeen?: Promise<void> }).tandemSwitchSeen;
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}

async function organizationNameInHost(page: Page, organizationId: string): Promise<string> {
  const initial = JSON.parse((await page.locator("#host-initial-state").textContent()) ?? "{}") as { organizations?: { id: string; name: string }[] };
  const name = initial.organizations?.find((organization) => organization.id === organizationId)?.name;
  if (!name) throw new Error(`the host page does not list ${organizationId}`);
  return name;
}

async function slowService(): Promise<void> {
  for (const path of SLOW_READS) await sandbox("POST", "/faults", { method: "GET", path, latencyMs: LATENCY_MS });
}

async function physicianWithNoteOpen(page: Page): Promise<{ scene: NoteScene; app: FrameLocator; organizationName: string }> {
  const scene = await noteScene();
  await editAsSomeoneElse(scene.note.id, { otherExamComments: NOTE_TEXT });
  const app = await openNote(page, scene);
  await expect(app.getByRole("textbox", { name: "Other exam comments", exact: true })).toHaveValue(NOTE_TEXT);
  await expect(app.getByTestId("signed-in-user")).toContainText(nameOf(scene.physician));
  const organizationName = (await app.getByTestId("organization-name").innerText()).trim();
  expect(organizationName).not.toBe("");
  return { scene, app, organizationName };
}

test.afterEach(async () => {
  await clearFaults();
});

test("another organization signed in while a physician's note is open: nothing of the previous organization, user or note is drawn, even with the service 2 s late", async ({ page }) => {
  const { scene, app, organizationName } = await physicianWithNoteOpen(page);
  const next = await userWithRole(ORG_B, "Front Desk");
  const nextOrganizationName = await organizationNameInHost(page, ORG_B);
  await slowService();
  const recorder = recordApp(app.locator("body"));
  await switchInEhr(page, { organizationId: ORG_B, userId: next.id, organizationName: nextOrganizationName });
  recorder.switched();
  await expect(app.getByTestId("signed-in-user")).toContainText(nameOf(next), { timeout: 15_000 });
  await expect(app.getByTestId("organization-name")).toContainText(nextOrganizationName);
  const after = (await recorder.stop()).filter((sample) => sample.afterSwitch);

  // Samples all through the wait for the new organization's reads (2 s and more).
  expectCoversTheDelay(after);
  expect(after.filter((sample) => sample.text.includes(organizationName)).map((sample) => sample.text)).toEqual([]);
  expect(after.filter((sample) => sample.signedInUser.includes(nameOf(scene.physician))).map((sample) => sample.signedInUser)).toEqual([]);
  expect(after.filter((sample) => sample.text.includes(NOTE_TEXT)).map((sample) => sample.text)).toEqual([]);
});

test("another user signed in on the same workstation while a physician's note is open: nothing of the physician or the note is drawn, even with the service 2 s late", async ({ page }) => {
  const { scene, app, organizationName } = await physicianWithNoteOpen(page);
  const next = await userWithRole(ORG_A, "Front Desk");
  await slowService();
  const recorder = recordApp(app.locator("body"));
  // The EHR keeps the patient and note in view for the next user (as the sandbox host does).
  await switchInEhr(page, { organizationId: ORG_A, userId: next.id, organizationName, noteId: scene.note.id, patientId: scene.note.patientId });
  recorder.switched();
  await expect(app.getByTestId("signed-in-user")).toContainText(nameOf(next), { timeout: 15_000 });
  await expect(app.getByTestId("signed-in-user")).toContainText("Front Desk");
  const after = (await recorder.stop()).filter((sample) => sample.afterSwitch);

  expectCoversTheDelay(after);
  expect(after.filter((sample) => sample.signedInUser.includes(nameOf(scene.physician))).map((sample) => sample.signedInUser)).toEqual([]);
  expect(after.filter((sample) => sample.text.includes(NOTE_TEXT)).map((sample) => sample.text)).toEqual([]);
});

test("outside the EHR, switching organization draws nothing of the previous one, even with the service 2 s late", async ({ page }) => {
  await resetSandbox();
  await signInOutsideEhr(page);
  await expect(page.getByTestId("organization-name")).toContainText("Riverside");
  await page.getByRole("link", { name: "Slots" }).click();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("slot").first()).toBeVisible({ timeout: 20_000 });
  // Organization A's facilities, as its slots name them ("Riverside Health - Upper West Side"; the picker names only organizations).
  const previousFacility = "Riverside Health -";
  await expect(page.locator("body")).toContainText(previousFacility);

  await page.getByRole("button", { name: "Switch organization" }).click();
  await page.getByRole("radio", { name: /Harbourside/ }).check();
  await slowService();
  const recorder = recordApp(page.locator("body"));
  await page.getByRole("button", { name: "Continue" }).click();
  recorder.switched();
  await expect(page.getByTestId("organization-name")).toContainText("Harbourside", { timeout: 15_000 });
  const after = (await recorder.stop()).filter((sample) => sample.afterSwitch);

  expectCoversTheDelay(after);
  expect(after.filter((sample) => sample.text.includes(previousFacility)).map((sample) => sample.text)).toEqual([]);
});
