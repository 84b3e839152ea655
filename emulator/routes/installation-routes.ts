import * as z from "zod/mini";
import { installation } from "#contract/clinic-api/installation.ts";
import { pageQuery } from "#contract/clinic-api/queries.ts";
import { paginate } from "../http/paginate.ts";
import { ok } from "../http/service-middleware.ts";
import { parseQuery } from "../http/validate.ts";
import type { RouteDeps, ServiceApp } from "./route-deps.ts";

// Assumed contract (DESIGN.md): GET /v1/installations needs no
// X-Organization-Id, is scoped to the key's app and includes uninstalled ones.

export function registerInstallationRoutes(app: ServiceApp, { state }: RouteDeps): void {
  app.get("/v1/installations", (c) => {
    const query = parseQuery(c, z.object(pageQuery));
    const all = state.organizations().map((org) => z.parse(installation, org.installation));
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { installations: items, pagination });
  });
}
