import { and, asc, eq, lt } from "drizzle-orm";
import type { CreatedTask, CreatedTaskRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { createdTasks } from "./schema.ts";

function toTask(row: typeof createdTasks.$inferSelect): CreatedTask {
  return {
    organizationId: row.organizationId,
    noteId: row.noteId,
    taskId: row.taskId,
    createdBy: row.createdBy,
    task: row.task,
    createdAt: row.createdAt.getTime(),
  };
}

export function createCreatedTaskRepository(db: StoreDatabase): CreatedTaskRepository {
  return {
    async insert(task) {
      await db
        .insert(createdTasks)
        .values({
          organizationId: task.organizationId,
          noteId: task.noteId,
          taskId: task.taskId,
          createdBy: task.createdBy,
          task: task.task,
          createdAt: dateFromEpochMs(task.createdAt, "createdAt"),
        })
        // The service's task id is unique: recording the same task twice (a retried request) keeps the first.
        .onConflictDoNothing({ target: [createdTasks.organizationId, createdTasks.taskId] });
    },

    async listByNote(organizationId, noteId) {
      const rows = await db
        .select()
        .from(createdTasks)
        .where(and(eq(createdTasks.organizationId, organizationId), eq(createdTasks.noteId, noteId)))
        .orderBy(asc(createdTasks.createdAt), asc(createdTasks.taskId));
      return rows.map(toTask);
    },

    purgeCreatedBefore(at, limit) {
      return purgeBatch(db, createdTasks, lt(createdTasks.createdAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
