import type { FrameLocator } from "@playwright/test";
import { expect, test as pinnedTest } from "./support/fixtures.ts";
import { startSandboxServers, type SandboxServers } from "./support/sandbox-servers.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";
import { LINCOLN_PARK, UPPER_WEST_SIDE, addDays, openSlotFinder, resetSandbox, results, search, setFilters, todayIn } from "./support/slots.ts";

// The slot list at a large clinic group's scale (issue 36, items 2 and 5):
// EMULATOR_SCALE=large (about 300 providers), so a search of a fortnight
// lists thousands of slots and the list draws only what is on screen. First
// available scrolls its slot into view, marked, and focuses it (button and F
// key, 1280 and 400 px wide, also from the far end of the list); the keyboard
// goes through rows not yet drawn; in time order New York and Chicago are
// ordered by the instant with their zones named.

const test = pinnedTest.extend<object, { sandboxServers: SandboxServers }>({
  sandboxServers: [
    async ({ pinnedInstant }, use) => {
      const previousScale = process.env.EMULATOR_SCALE;
      process.env.EMULATOR_SCALE = "large";
      const servers = await startSandboxServers(pinnedInstant);
      if (previousScale === undefined) delete process.env.EMULATOR_SCALE;
      else process.env.EMULATOR_SCALE = previousScale;
      process.env.E2E_EMULATOR_URL = servers.emulatorUrl;
      process.env.E2E_APP_URL = servers.appUrl;
      await use(servers);
      await servers.stop();
    },
    // Playwright wants an override of an auto fixture to say auto too; its types leave `auto` out of overrides.
    { scope: "worker", auto: true, timeout: 180_000 } as { scope: "worker"; timeout: number },
  ],
});

test.beforeEach(async () => {
  await resetSandbox();
});

// A search of every facility and axe over the frame take their time on a shared 2-core machine.
test.describe.configure({ timeout: 240_000 });

/** Searches every facility, or those named, over 14 days from `fromDay` days ahead (each test its own window: the BFF's cache outlives a reset). */
async function searchFortnight(app: FrameLocator, fromDay: number, facilities?: string[]): Promise<void> {
  const today = await todayIn(UPPER_WEST_SIDE.timezone);
  if (facilities) await setFilters(app, { facilities });
  else {
    await app.getByTestId("slot-search").getByRole("button", { name: /^Facilities/ }).click();
    const popover = app.getByRole("dialog", { name: "Choose facilities" });
    await popover.getByRole("button", { name: "Select all" }).click();
    await popover.getByRole("button", { name: "Done" }).click();
  }
  await setFilters(app, { startDate: addDays(today, fromDay), endDate: addDays(today, fromDay + 13) });
  await search(app);
}

/** The focused element in the frame, with where it is in the frame's viewport. */
async function focusedSlot(app: FrameLocator) {
  return app.locator("body").evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) return null;
    const box = element.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="holds-bar"]')?.getBoundingClientRect();
    return {
      testId: element.dataset.testid ?? null,
      key: element.dataset.slotKey ?? null,
      isFirst: element.dataset.firstAvailable === "true",
      day: element.closest("[data-row-key]")?.getAttribute("data-row-key")?.slice(0, 10) ?? null,
      label: element.getAttribute("aria-label") ?? "",
      top: box.top,
      bottom: box.bottom,
      viewportHeight: window.innerHeight,
      barTop: bar && bar.height > 0 ? bar.top : window.innerHeight,
      // Ringed: the user sees where the focus went, whether they came by mouse or keyboard.
      isRinged: element.matches(":focus-visible"),
      // What is drawn at the slot's centre is the slot itself (not covered by the holds bar or a header).
      isUncovered: element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)),
    };
  });
}

/** The focused element is a slot of the list, on screen, not covered, and visibly focused. */
async function expectFocusedSlotInView(app: FrameLocator, expected: { isFirst?: boolean } = {}) {
  await expect
    .poll(async () => {
      const focused = await focusedSlot(app);
      return focused !== null && focused.testId === "slot" && focused.top >= 0 && focused.bottom <= focused.barTop && focused.isUncovered && focused.isRinged && (expected.isFirst === undefined || focused.isFirst === expected.isFirst);
    })
    .toBe(true);
}

async function slotsDrawn(app: FrameLocator): Promise<{ drawn: number; total: number }> {
  const list = app.getByTestId("slot-list-rows");
  return { drawn: await app.getByTestId("slot").count(), total: Number(await list.getAttribute("data-slot-total")) };
}

for (const width of [1280, 400]) {
  test(`First available at ${width} px: its slot is scrolled into view, marked and focused, with the button, and with F from the end of the list`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const app = await openSlotFinder(page);
    await searchFortnight(app, width === 1280 ? 20 : 21);
    const { drawn, total } = await slotsDrawn(app);
    expect(total).toBeGreaterThan(5_000);
    expect(drawn).toBeLessThan(total / 5);

    await app.getByTestId("first-available").click();
    await expect(app.getByTestId("order-time")).toHaveAttribute("aria-pressed", "true");
    await expectFocusedSlotInView(app, { isFirst: true });
    const first = await focusedSlot(app);
    expect(first?.label).toMatch(/^First available: /);
    const marked = app.locator('[data-first-available="true"]');
    await expect(marked).toBeVisible();
    await expect(marked).toContainText("First available");
    await saveScreenshot(page, `slots-large-first-available-${width}`);

    // From the far end of the list (Ctrl+End: its first rows no longer drawn), the F key brings it back.
    await page.keyboard.press("Control+End");
    await expectFocusedSlotInView(app);
    await expect(app.locator(`[data-slot-key="${first?.key}"]`)).toHaveCount(0);
    await page.keyboard.press("f");
    await expectFocusedSlotInView(app, { isFirst: true });
    expect((await focusedSlot(app))?.key).toBe(first?.key);
    await expectAccessible(page);
  });
}

test("the keyboard goes through the whole drawn-on-demand list: PageDown to the last day, Ctrl+End, Ctrl+Home, each slot focused in view", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const app = await openSlotFinder(page);
  await searchFortnight(app, 22);
  const list = app.getByTestId("slot-list-rows");
  // Tab from the toolbar's last button lands on the list's one tab stop, its first slot.
  await results(app).getByRole("button", { name: "Refresh" }).focus();
  await page.keyboard.press("Tab");
  await expectFocusedSlotInView(app);
  const firstDay = (await focusedSlot(app))?.day ?? "";
  for (let day = 0; day < 13; day += 1) await page.keyboard.press("PageDown");
  await expectFocusedSlotInView(app);
  expect((await focusedSlot(app))?.day ?? "").toBe(await list.getByTestId("slot-day").last().getAttribute("data-date"));
  expect((await focusedSlot(app))?.day ?? "").not.toBe(firstDay);
  await page.keyboard.press("Control+End");
  await expectFocusedSlotInView(app);
  const last = await focusedSlot(app);
  await page.keyboard.press("ArrowUp");
  await expectFocusedSlotInView(app);
  expect((await focusedSlot(app))?.key).not.toBe(last?.key);
  await page.keyboard.press("Control+Home");
  await expectFocusedSlotInView(app);
  const firstKey = await list.getByTestId("slot").first().getAttribute("data-slot-key");
  expect((await focusedSlot(app))?.key).toBe(firstKey);
  // Tab leaves the list and Shift+Tab comes back to the slot the user was on.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Shift+Tab");
  expect((await focusedSlot(app))?.key).toBe(firstKey);
  await expectAccessible(page);
});

test("in time order, New York and Chicago searched together run by the instant, each hour naming its zones", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const app = await openSlotFinder(page);
  await searchFortnight(app, 23, [UPPER_WEST_SIDE.name, LINCOLN_PARK.name]);
  await app.getByTestId("order-time").click();
  const list = app.getByTestId("slot-list-rows");
  await expect(list.locator("h3").first()).toHaveText(/^From /);
  // What is drawn over the first few screens of the list, read as the user scrolls.
  const seen = await list.evaluate(async (element) => {
    const headings = new Map<string, string>();
    const slots = new Map<string, { day: string; ms: number; text: string }>();
    element.scrollIntoView({ block: "start" });
    for (let screen = 0; screen < 6; screen += 1) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (const heading of element.querySelectorAll("h3")) headings.set(heading.id, heading.textContent ?? "");
      for (const button of element.querySelectorAll<HTMLElement>('[data-testid="slot"]')) {
        slots.set(button.dataset.slotKey ?? "", { day: button.closest("[data-row-key]")?.getAttribute("data-row-key")?.slice(0, 10) ?? "", ms: Date.parse(button.dataset.startsAt ?? ""), text: button.textContent ?? "" });
      }
      window.scrollBy(0, window.innerHeight * 0.8);
    }
    return { headings: [...headings.values()], slots: [...slots.values()] };
  });
  expect(seen.headings.length).toBeGreaterThan(2);
  for (const heading of seen.headings) expect(heading).toMatch(/^From \d+:\d\d [AP]M (EST|CST)( · \d+:\d\d [AP]M CST)?/);
  expect(seen.headings.some((heading) => heading.includes("EST · "))).toBe(true);
  // Within each day, the slots run by the instant; Chicago's name their zone and facility.
  for (const day of new Set(seen.slots.map((slot) => slot.day))) {
    const instants = seen.slots.filter((slot) => slot.day === day).map((slot) => slot.ms);
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
  }
  const chicago = seen.slots.filter((slot) => slot.text.includes("CST"));
  expect(chicago.length).toBeGreaterThan(0);
  for (const slot of chicago) expect(slot.text).toContain("Lincoln Park");
  await expect(results(app)).toContainText("the zone is named where it differs from yours");
  await saveScreenshot(page, "slots-large-time-order-zones");
  await expectAccessible(page);
});
