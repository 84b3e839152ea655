import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes a new migration after a change to the schema;
// the store applies them at start-up (server/store/database.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/store/schema.ts",
  out: "./server/store/migrations",
});
