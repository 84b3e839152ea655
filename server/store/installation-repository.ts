import { asc, eq, lte, sql } from "drizzle-orm";
import * as z from "zod/mini";
import { INSTALLATION_STATUSES } from "#contract/clinic-api/installation.ts";
import type { InstallationRepository, StoredInstallation } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromIso, timestamptzFromIso } from "./instants.ts";
import { installations } from "./schema.ts";

const storedColumns = z.object({
  status: z.enum(INSTALLATION_STATUSES),
  grantedPermissions: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
});

function toInstallation(row: typeof installations.$inferSelect): StoredInstallation {
  const checked = storedColumns.parse(row);
  return {
    organizationId: row.organizationId,
    status: checked.status,
    grantedPermissions: checked.grantedPermissions,
    settings: checked.settings,
    installedAt: row.installedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createInstallationRepository(db: StoreDatabase): InstallationRepository {
  return {
    async get(organizationId) {
      const [row] = await db.select().from(installations).where(eq(installations.organizationId, organizationId));
      return row === undefined ? null : toInstallation(row);
    },

    async list() {
      const rows = await db.select().from(installations).orderBy(asc(installations.organizationId));
      return rows.map(toInstallation);
    },

    async upsertIfNewer(record) {
      const values = {
        organizationId: record.organizationId,
        status: record.status,
        grantedPermissions: record.grantedPermissions,
        settings: record.settings,
        installedAt: record.installedAt === null ? null : dateFromIso(record.installedAt, "installedAt"),
        updatedAt: timestamptzFromIso(record.updatedAt, "updatedAt"),
      };
      // One statement: the comparison and the write cannot be split by a concurrent writer.
      const written = await db
        .insert(installations)
        .values(values)
        .onConflictDoUpdate({
          target: installations.organizationId,
          set: {
            status: sql`excluded.status`,
            grantedPermissions: sql`excluded.granted_permissions`,
            settings: sql`excluded.settings`,
            installedAt: sql`excluded.installed_at`,
            updatedAt: sql`excluded.updated_at`,
          },
          setWhere: lte(installations.updatedAt, values.updatedAt),
        })
        .returning({ organizationId: installations.organizationId });
      return written.length > 0;
    },
  };
}
