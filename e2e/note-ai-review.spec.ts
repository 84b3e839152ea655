import type { FrameLocator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { noteScene, openNote, readNote } from "./support/notes.ts";
import { expectAccessible, saveScreenshot } from "./support/sandbox.ts";

// ADR 0008 "The AI review": "Go to the AI review" once jumped to a badge. The service
// gives only `aiStatus` and `aiIssueCount`: the note says what they mean and
// what to do (look in the EHR), with no link that promises a list.

const aiReviewOf = (app: FrameLocator) => app.getByTestId("note-ai-review");
const signOffPanel = (app: FrameLocator) => app.getByRole("region", { name: "Ready to sign" });

test("AI issues found: the count in plain words, sent to the EHR to review them, and no link promising a list", async ({ page }) => {
  const scene = await noteScene({ aiStatus: "issues_found" });
  const { aiIssueCount } = await readNote(scene.note.id);
  const issues = `${aiIssueCount} ${aiIssueCount === 1 ? "issue" : "issues"}`;
  const app = await openNote(page, scene);

  await expect(aiReviewOf(app)).toContainText(`The EHR's AI review found ${issues} in this note.`);
  await expect(aiReviewOf(app)).toContainText("in the EHR before signing");
  const item = signOffPanel(app).getByRole("listitem").filter({ hasText: "AI review" });
  await expect(item).toContainText(`The EHR's AI review found ${issues} in this note.`);
  await expect(item).toContainText("in the EHR before signing: Tandem is told how many, not what they are.");
  await expect(item.getByRole("link")).toHaveCount(0);
  await expect(app.getByRole("link", { name: /AI review/ })).toHaveCount(0);
  await expect(signOffPanel(app)).toContainText("Not ready to sign yet");

  await item.getByRole("checkbox", { name: /^Reviewed/ }).check();
  await expect(item).toContainText("(Reviewed)");
  await saveScreenshot(page, "note-ai-issues-1280");
  await expectAccessible(page);
});

test("AI review found nothing: said plainly, and nothing to do before signing", async ({ page }) => {
  const scene = await noteScene({ aiStatus: "no_issues" });
  const app = await openNote(page, scene);
  await expect(aiReviewOf(app)).toContainText("No issues found");
  await expect(aiReviewOf(app)).toContainText("The EHR's AI review found no issues in this note.");
  await expect(signOffPanel(app).getByRole("listitem").filter({ hasText: "AI review" })).toHaveCount(0);
});

test("AI review not finished: said so, and the clinician is asked to check its result in the EHR", async ({ page }) => {
  const scene = await noteScene({ status: "in_progress", aiStatus: "pending" });
  await page.setViewportSize({ width: 400, height: 860 });
  const app = await openNote(page, scene);
  await expect(aiReviewOf(app)).toContainText("Not finished");
  await expect(aiReviewOf(app)).toContainText("The EHR's AI review of this note has not finished. Check its result in the EHR before signing.");
  const item = signOffPanel(app).getByRole("listitem").filter({ hasText: "AI review" });
  await expect(item).toContainText("Check its result in the EHR before signing.");
  await expect(item.getByRole("link")).toHaveCount(0);
  await aiReviewOf(app).scrollIntoViewIfNeeded();
  await saveScreenshot(page, "note-ai-pending-400");
});
